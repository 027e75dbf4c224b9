import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { openDashboard } from "./patient";

/**
 * Issue 18, item 2, beyond the AGP: every printable view (overview, daily view, compare, statistics
 * by time of day) carries its identity lines on paper, the patient's and the clinic's versions:
 * whose data (with the date of birth for a clinic), the clinic, the period, when it was made (with
 * its zone), the sensor and device, and the target group. Checked with the print media, as the
 * browser prints the page. SandboxUser4 lives on America/Chicago, so its days are not UTC's.
 */

const GENERATED = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(/;
/** Where screenshots go for a person to look at (IDENTITY_SHOTS=dir), else the test's output. */
const shotPath = (name: string) => {
  const dir = process.env.IDENTITY_SHOTS;
  if (!dir) return test.info().outputPath(name);
  mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
};

/** The identity line `key`'s value, as printed. */
const line = (page: Page, key: string) =>
  page.getByTestId("report-identity").locator(`[data-line="${key}"] dd`);

async function expectPrintedIdentity(
  page: Page,
  who: { name: RegExp | string; birthDate?: string; clinic?: string },
) {
  await page.emulateMedia({ media: "print" });
  try {
    const block = page.getByTestId("report-identity");
    await expect(block).toHaveCount(1);
    await expect(block).toBeVisible();
    await expect(line(page, "patient")).toHaveText(who.name);
    if (who.birthDate) await expect(line(page, "birthDate")).toHaveText(who.birthDate);
    else await expect(line(page, "birthDate")).toHaveCount(0);
    if (who.clinic) await expect(line(page, "clinic")).toHaveText(who.clinic);
    await expect(line(page, "period")).toHaveText(/\d+ days? on /);
    await expect(line(page, "generated")).toHaveText(GENERATED);
    // The sandbox's users wear a Dexcom sensor: the device resource names it.
    await expect(line(page, "device")).toHaveText(/^Dexcom .*sensor/);
    await expect(line(page, "targetGroup")).toHaveText(/\(consensus goals\)$/);
    // No source-file path reaches paper (the methods notes name methods, not files).
    await expect(page.locator("main")).not.toContainText(/lib\/\w+|\.tsx?\b/);
  } finally {
    await page.emulateMedia({ media: "screen" });
  }
}

/** Screenshots of a view with its identity block: 1280, 390 and 360 px, light and dark, and print. */
async function screenshots(page: Page, name: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme, media: "screen" });
    for (const width of [1280, 390, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: shotPath(`${name}-${width}-${colorScheme}.png`), fullPage: false });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: "light", media: "print" });
  await page.screenshot({ path: shotPath(`${name}-print.png`), fullPage: true });
  await page.emulateMedia({ media: "screen" });
}

const PATIENT_VIEWS = ["/dashboard", "/dashboard/day", "/reports/compare", "/reports/statistics"];

test("the patient's printable views carry the account's identity lines on paper", async ({ page }) => {
  test.setTimeout(120_000);
  await openDashboard(page, "SandboxUser4");
  for (const view of PATIENT_VIEWS) {
    await page.goto(view);
    await expectPrintedIdentity(page, { name: /./ });
    await expect(line(page, "period"), view).toContainText("your receiver's clock");
    await expect(line(page, "clinic"), view).toHaveCount(0);
  }
  // Explicit startDate/endDate are systemTime: the period names UTC, not the receiver's clock.
  await page.goto("/reports/statistics?startDate=2026-11-01T00:00:00&endDate=2026-11-07T23:59:59");
  await expect(line(page, "period")).toHaveText(/^2026-11-01 to 2026-11-07, 7 days on UTC/);
  await page.goto("/reports/statistics");
  await screenshots(page, "identity-patient-statistics");
});

test("a clinic's printable views of a patient carry the patient, date of birth and clinic", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const clinicName = `Print Clinic ${randomUUID().slice(0, 4)}`;
  await page.goto("/clinic/sign-up");
  await page.getByLabel("Your name").fill("Dr Pat Print");
  await page.getByLabel("Clinic name").fill(clinicName);
  await page.getByLabel("Email").fill(`pat-${randomUUID().slice(0, 8)}@clinic.example`);
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Create clinic" }).click();
  await expect(page.getByRole("heading", { level: 1, name: clinicName })).toBeVisible();
  const patients = page.getByRole("region", { name: "Patients" });
  await patients.getByLabel("Patient's name").fill("Petra Print");
  await patients.getByLabel("Date of birth (optional)").fill("1968-03-09");
  await patients.getByRole("button", { name: "Add and create link" }).click();
  const link = await page.getByTestId("patient-invitation-link").inputValue();
  const patientContext = await browser.newContext();
  const patient = await patientContext.newPage();
  try {
    await patient.goto(link);
    await patient.getByRole("button", { name: "Connect your CGM account" }).click();
    await patient.getByLabel("Username").fill("SandboxUser4");
    await patient.getByRole("button", { name: "Sign in", exact: true }).click();
    await patient.getByRole("button", { name: "Allow" }).click();
    await patient.getByRole("button", { name: `Allow ${clinicName} to see my data` }).click();
    await expect(patient.getByTestId("share-accepted")).toBeVisible();
  } finally {
    await patientContext.close();
  }
  await page.reload();
  await page.getByRole("link", { name: "AGP of Petra Print" }).click();
  await expect(page.getByTestId("agp-report")).toBeVisible({ timeout: 30_000 });
  const base = new URL(page.url()).pathname.replace(/\/agp$/, "");
  const who = { name: "Petra Print", birthDate: "1968-03-09", clinic: clinicName };
  for (const view of ["", "/day", "/compare", "/statistics"]) {
    await page.goto(`${base}${view}`);
    await expectPrintedIdentity(page, who);
    await expect(line(page, "period"), view).toContainText("the patient's receiver clock");
    await expect(page.locator("main"), view).not.toContainText(/your receiver/i);
  }
  await page.goto(`${base}/compare`);
  await expect(line(page, "period")).toContainText("compared with");
  await screenshots(page, "identity-clinic-compare");
});
