import { randomUUID } from "node:crypto";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { expectNoViolations } from "./axe";
import { addSharingPatient, foundClinic, syncNow } from "./clinic-setup";

/**
 * A clinic day in the browser: a clinician with two sharing patients (one without any readings)
 * opens Clinic day from the population view, prepares the AGP reports of all sharing patients,
 * watches the progress update itself, and finds the failure named with a Retry button and the
 * Download link once every patient is done.
 * Screenshots at 1280 and 390 px, light and dark, are kept with the test's output.
 */

async function clinicWithPatient(page: Page, browser: Browser) {
  const clinicName = `Harbour Clinic ${randomUUID().slice(0, 4)}`;
  await foundClinic(page, clinicName, {
    clinician: "Dr Day Planner",
    email: `day-${randomUUID().slice(0, 8)}@clinic.example`,
  });
  // Dana shares a sensor's data; Eli's account holds none, so his report fails (and says why).
  for (const [name, username] of [
    ["Dana Daily", "SandboxUser1"],
    ["Eli Empty", "SandboxUser6"],
  ] as const) {
    await addSharingPatient(page, browser, { clinicName, name, username, birthDate: "1982-02-03" });
    await syncNow(page, name);
  }
}

test("a clinician prepares a clinic day, sees its progress and downloads it", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await clinicWithPatient(page, browser);
  await page.getByRole("link", { name: "Population: who needs attention" }).click();
  await page.getByTestId("clinic-day-link").click();
  await expect(page.getByRole("heading", { level: 1, name: /^Clinic day/ })).toBeVisible();
  await expect(page.getByTestId("clinic-day-none")).toBeVisible();
  await page.getByLabel("Patients").selectOption("all");
  await page.getByLabel("Period").selectOption("14");
  await page.getByRole("button", { name: "Prepare" }).click();

  const progress = page.getByTestId("clinic-day-progress").first();
  await expect(progress).toHaveText(/^0 of 2 ready: preparing…$/);
  await page.screenshot({ path: test.info().outputPath("clinic-day-progress-1280.png"), fullPage: true });
  await expectNoViolations(page, "the clinic day page, preparing");

  // The page refreshes itself until the day is ready.
  await expect(progress).toHaveText("1 of 2 ready, 1 failed.", { timeout: 60_000 });
  const failures = page.getByTestId("clinic-day-failures");
  await expect(failures).toContainText("Eli Empty: The glucose service holds no readings for this patient");
  await expect(page.getByRole("button", { name: "Retry Eli Empty" })).toBeVisible();
  const download = page.getByTestId("clinic-day-download");
  await expect(download).toHaveText("Download the zip (1 PDF and the CSV)");
  await expectNoViolations(page, "the clinic day page, ready");
  await page.screenshot({ path: test.info().outputPath("clinic-day-ready-1280.png"), fullPage: true });
  const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
  expect(file.suggestedFilename()).toMatch(/^clinic-day_\d{4}-\d{2}-\d{2}_14-days_[0-9a-f]{8}\.zip$/);

  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: test.info().outputPath("clinic-day-ready-1280-dark.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: "light" });
  await page.screenshot({ path: test.info().outputPath("clinic-day-ready-390.png"), fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: test.info().outputPath("clinic-day-ready-390-dark.png"), fullPage: true });
  await expectNoViolations(page, "the clinic day page at 390 px, dark");
});
