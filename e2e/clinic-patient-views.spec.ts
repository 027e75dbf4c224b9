import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectNoViolations } from "./axe";
import { addSharingPatient, foundClinic, syncNow } from "./clinic-setup";
import { mostLinesAcrossPhoneWidths } from "./layout";

/**
 * Issue 18, item 1: from a patient's clinic page a clinician walks to every view the patient has
 * of their data (daily view, events, alerts, calibrations, devices, AGP, compare, time of day,
 * export) through the patient views' navigation, at a desktop's width and at a phone's, light
 * and dark; each page passes axe and addresses the clinician, not the patient.
 */

/** Each link of the patient views' navigation, and what its page shows once loaded. */
const WALK = [
  { link: "Daily", title: /^\w+day \d+ \w+ \d{4}$/, shows: "day-summary" },
  { link: "Events", title: "Events", shows: null },
  { link: "Alerts", title: "Alerts", shows: null },
  { link: "Calibrations", title: "Calibrations", shows: null },
  { link: "Devices", title: "Devices", shows: "last-upload" },
  { link: "AGP report", title: null, shows: "agp-report" },
  { link: "Compare", title: "Compare two periods", shows: "comparison-table" },
  { link: "Time of day", title: "Statistics by time of day", shows: "saved-windows" },
  { link: "Export", title: "Export the patient's data", shows: "export-file-name" },
  { link: "Overview", title: null, shows: "trace-caption" },
] as const;

test("a clinician walks from a patient's page to each of their views", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const clinicName = `Hillside Clinic ${randomUUID().slice(0, 4)}`;
  await foundClinic(page, clinicName);
  const name = "Vera Views";
  await addSharingPatient(page, browser, {
    clinicName,
    name,
    username: "SandboxUser4",
    birthDate: "1975-06-01",
  });
  // The clinic's copy of the data first, as a clinician would before a visit: the views read it.
  await syncNow(page, name);
  await page.getByRole("link", { name: "AGP of Vera Views" }).click();
  await expect(page.getByTestId("agp-report")).toBeVisible({ timeout: 30_000 });
  const views = page.getByRole("navigation", { name: "Patient views" });
  for (const step of WALK) {
    await views.getByRole("link", { name: step.link, exact: true }).click();
    await expect(views.getByRole("link", { name: step.link, exact: true })).toHaveAttribute(
      "aria-current",
      "page",
      { timeout: 30_000 },
    );
    await expect(page.getByTestId("patient-name")).toHaveText("Vera Views · born 1975-06-01");
    if (step.title) await expect(page.getByTestId("view-title")).toHaveText(step.title);
    if (step.shows) await expect(page.getByTestId(step.shows).first()).toBeVisible();
    await expect(page.locator("main")).not.toContainText(/your receiver|your CGM account/i);
    await expectNoViolations(page, `a clinic patient's ${step.link}`);
  }

  // The clinic's export page downloads through the clinic's export API.
  await views.getByRole("link", { name: "Export", exact: true }).click();
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: /Download the export/ }).click();
  expect((await download).suggestedFilename()).toMatch(/\.zip$/);

  // The patient page at a desktop's and a phone's width, light and dark, for a person to look at.
  await views.getByRole("link", { name: "Overview", exact: true }).click();
  await expect(page.getByTestId("trace-caption")).toBeVisible();
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [1280, 390, 360]) {
      await page.setViewportSize({ width, height: 900 });
      // The navigation stays whole: every view's link within the page's width.
      for (const step of WALK) {
        const box = await views.getByRole("link", { name: step.link, exact: true }).boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= width, `${step.link} at ${width}`).toBe(true);
      }
      await page.screenshot({
        path: test.info().outputPath(`clinic-patient-${width}-${colorScheme}.png`),
        fullPage: false,
      });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  // The date of birth stays whole on a phone (it broke at its hyphen at 360 px).
  expect(await mostLinesAcrossPhoneWidths(page, page.getByTestId("patient-name"), "1975-06-01")).toBe(1);
  // Two views at a phone's width: the patient's windows, read only, and the export.
  for (const view of ["Time of day", "Export"]) {
    await views.getByRole("link", { name: view, exact: true }).click();
    await expect(views.getByRole("link", { name: view, exact: true })).toHaveAttribute(
      "aria-current",
      "page",
      {
        timeout: 30_000,
      },
    );
    await page.screenshot({
      path: test.info().outputPath(`clinic-patient-${view.replace(/ /g, "-")}-390.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole("link", { name: `← ${clinicName}` }).click();
  await page.getByRole("link", { name: "Audit log" }).click();
  const log = page.getByTestId("audit-log");
  for (const action of ["view.day", "view.devices", "view.compare", "view.statistics", "view.export"]) {
    await expect(log.locator(`tr[data-action='${action}']`).first()).toContainText("Vera Views");
  }
});
