import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import { EXPORT_FILES } from "../lib/reports/export/export";
import { apiVersion, openDashboard } from "./patient";

/**
 * The export page in a real browser: the download is a zip named for its period that holds the
 * four files; the patient's own days; a mistake in them explained beside the fields; the empty
 * account.
 */

const FILE_NAME = /^cgm-export_Patient_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.zip$/;

async function downloadExport(page: Page) {
  const link = page.getByRole("link", { name: /^Download the export/ });
  const shown = (await link.getByTestId("export-file-name").textContent())?.trim();
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const name = download.suggestedFilename();
  expect(name).toMatch(FILE_NAME);
  expect(name, "the file is the one the page names").toBe(shown);
  const zip = unzipSync(readFileSync(await download.path()));
  return { name, files: Object.fromEntries(Object.entries(zip).map(([n, b]) => [n, strFromU8(b)])) };
}

test("SandboxUser3 downloads the last 14 days, then their own days, as a zip of the four files", async ({
  page,
}) => {
  await openDashboard(page, "SandboxUser3", { unit: "mmol/L" });
  await page.goto("/reports/export");
  await expect(page.getByRole("heading", { level: 1, name: "Export your data" })).toBeVisible();
  await expect(page.getByRole("link", { name: "14 days" })).toHaveAttribute("aria-current", "true");
  await expect(page.getByRole("heading", { name: "Methods" })).toBeVisible();

  const last14 = await downloadExport(page);
  expect(Object.keys(last14.files)).toEqual([...EXPORT_FILES]);
  expect(last14.files["egvs.csv"]).toMatch(/^systemTime,displayTime,value,unit,/);
  // The files hold the records as the service sent them: mmol/L from API v2 for this account, mg/dL
  // from v3 (its only unit), whatever unit the patient reads on screen.
  if (apiVersion() === "v2") {
    expect(last14.files["methods.txt"]).toContain("Data unit: mmol/L");
  } else {
    expect(last14.files["methods.txt"]).toContain("Data unit: mg/dL");
    expect(last14.files["methods.txt"]).toContain("read with its API v3, in the columns of its v2 records");
  }
  expect(last14.files["methods.txt"]).toContain("the 14 days up to the newest record");

  await page.getByLabel("First day").fill("2026-10-01");
  await page.getByLabel("Last day").fill("2026-10-07");
  await page.getByRole("button", { name: "Use these days" }).click();
  await expect(page).toHaveURL(/\/reports\/export\?from=2026-10-01&to=2026-10-07$/);
  // Days on the receiver's clock: London is on summer time (UTC+1) in early October.
  await expect(page.getByTestId("export-period")).toContainText(
    "From Thu 1 Oct 2026 to Wed 7 Oct 2026 on your receiver's clock",
  );
  await expect(page.getByTestId("export-period")).toContainText("Wed 30 Sep 2026, 23:00 UTC");
  const own = await downloadExport(page);
  expect(own.name).toBe("cgm-export_Patient_2026-10-01_2026-10-07.zip");
  expect(Object.keys(own.files)).toEqual([...EXPORT_FILES]);
  expect(own.files["methods.txt"]).toContain(
    "Period: 2026-10-01 to 2026-10-07 on the receiver's clock (displayTime); 2026-09-30T23:00:00 to 2026-10-07T22:59:59",
  );
});

test("days in the wrong order are explained beside the fields, and nothing is offered", async ({ page }) => {
  await openDashboard(page, "SandboxUser1");
  await page.goto("/reports/export?from=2026-10-07&to=2026-10-01");
  await expect(page.getByText("The last day must not be before the first day.")).toBeVisible();
  await expect(page.getByLabel("First day")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("link", { name: /^Download the export/ })).toHaveCount(0);
});

test("an account without data has nothing to export (SandboxUser6)", async ({ page }) => {
  await openDashboard(page, "SandboxUser6");
  await page.goto("/reports/export");
  await expect(page.getByRole("heading", { name: "Nothing to export yet" })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Download the export/ })).toHaveCount(0);
});
