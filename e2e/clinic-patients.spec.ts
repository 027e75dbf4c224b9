import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectNoViolations } from "./axe";
import { addPatient, foundClinic } from "./clinic-setup";

/**
 * The clinic's way to a patient's data, as the README walks a newcomer through it: a clinician
 * founds a clinic and adds a patient; the patient opens the link in their own browser, connects
 * their CGM account at the service and allows access; the clinician sees them sharing and opens
 * their dashboard and AGP report; the administrator finds each view in the audit log; the patient
 * withdraws and the clinic is told. Every page on the way passes axe (WCAG 2.2 AA).
 */

test("a clinician invites a patient, who shares; the clinician opens the AGP; the patient withdraws", async ({
  page,
  browser,
}) => {
  const clinicName = `Lakeside Clinic ${randomUUID().slice(0, 4)}`;
  await foundClinic(page, clinicName);
  const link = await addPatient(page, "Sam Sandbox", "1975-06-01");
  expect(link).toMatch(/\/share\?token=[A-Za-z0-9_-]{43}$/);
  await expect(page.getByTestId("clinic-patients")).toContainText("Sam Sandbox · born 1975-06-01");
  await expect(page.getByTestId("patient-status")).toContainText("Invitation sent");
  await expectNoViolations(page, "the clinic page with a new patient's link");

  const patientContext = await browser.newContext();
  const patient = await patientContext.newPage();
  try {
    await patient.goto(link);
    await expect(patient.getByTestId("share-invitation")).toContainText(`${clinicName} invites Sam Sandbox`);
    await expectNoViolations(patient, "the invitation's page, before connecting");
    await patient.getByRole("button", { name: "Connect your CGM account" }).click();
    await expect(patient.getByRole("heading", { name: "Sign in to the sandbox" })).toBeVisible();
    await patient.getByLabel("Username").fill("SandboxUser2");
    await patient.getByRole("button", { name: "Sign in", exact: true }).click();
    await patient.getByRole("button", { name: "Allow" }).click();
    // Back on the invitation, connected: the clinic's access is one more, explicit, step.
    await expect(
      patient.getByRole("heading", { name: "Step 2 of 2: allow the clinic access" }),
    ).toBeVisible();
    await expectNoViolations(patient, "the invitation's page, connected");
    await patient.getByRole("button", { name: `Allow ${clinicName} to see my data` }).click();
    await expect(patient.getByTestId("share-accepted")).toBeVisible();
    await expect(patient.getByTestId("shares")).toContainText(clinicName);
    await expectNoViolations(patient, "the Sharing page");

    await page.reload();
    await expect(page.getByTestId("patient-status")).toContainText("Sharing");
    await expect(page.getByTestId("patient-synced")).toContainText("data not synced yet");
    // The background sync would come in its time; before a visit the clinician need not wait.
    await page.getByRole("button", { name: "Sync now for Sam Sandbox" }).click();
    await expect(page.getByTestId("sync-result")).toHaveText(/^Synced/);
    await expect(page.getByTestId("patient-synced")).toContainText(
      /data synced \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/,
    );

    // The triage table: the patient's last 14 days, from the synced data.
    await page.getByRole("link", { name: "Population: who needs attention" }).click();
    const row = page.locator("tr", { has: page.getByRole("link", { name: "Sam Sandbox", exact: true }) });
    await expect(row.locator("[data-status]")).toHaveText("Sharing");
    // One decimal, or up to three next to a flag's threshold (percentBesideThresholds).
    await expect(row.locator('[data-col="inRange"] [data-value]')).toHaveText(/^\d{1,3}(\.\d{1,3})?\s?%$/);
    await expect(row.locator('[data-col="inRange"]')).toContainText(/(✓ met|✗ not met)$/);
    await expect(row.locator('[data-col="sensor"]')).toHaveText(/^\d{1,3}(\.\d{1,3})?\s?%$/);
    // Level 2 lows per week (issue 14), counted by the sync above over the same 14 days: a number, 0 as 0.
    await expect(row.locator('[data-col="veryLowEpisodes"] [data-value]')).toHaveText(/^(0|\d+\.\d)$/);
    // The newest reading's moment on the viewer's clock with its zone named, not an ISO string.
    await expect(row.locator('[data-col="lastData"] time')).toHaveAttribute(
      "title",
      /^Last reading \d{4}-\d{2}-\d{2} \d{2}:\d{2} [A-Z][\w+:-]*$/,
    );
    await expectNoViolations(page, "the population view");
    // In mmol/L the glucose edges and the mean follow; the choice is remembered for this clinician.
    await page.getByRole("button", { name: "mmol/L", exact: true }).click();
    await expect(page.getByRole("button", { name: "mmol/L", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect(page.getByRole("columnheader", { name: /< 3\.0/ })).toBeVisible();
    await expect(row.locator('[data-col="mean"]')).toHaveText(/^\d{1,2}\.\d$/);
    await expectNoViolations(page, "the population view in mmol/L");
    await page.reload();
    await expect(page.getByRole("button", { name: "mmol/L", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await page.getByRole("button", { name: "mg/dL", exact: true }).click();
    await expect(row.locator('[data-col="mean"]')).toHaveText(/^\d{2,3}$/);
    await row.getByRole("link", { name: "AGP report of Sam Sandbox" }).click();
    await expect(page.getByTestId("agp-report")).toBeVisible();
    await page.goto("/clinic");
    await page.getByRole("link", { name: "AGP of Sam Sandbox" }).click();
    await expect(page.getByTestId("patient-name")).toHaveText("Sam Sandbox · born 1975-06-01");
    await expect(page.getByTestId("agp-report")).toBeVisible();
    await expect(page.getByTestId("agp-stats")).toContainText("Sensor active");
    await expectNoViolations(page, "a clinic patient's AGP report");
    await page.getByRole("link", { name: "Overview", exact: true }).click();
    await expect(page.getByTestId("trace-caption")).toContainText("Last 24 h");
    // A clinician's view is a snapshot for the clinic: the patient's own settings are not offered.
    await expect(page.getByRole("region", { name: "Settings" })).toHaveCount(0);
    await expectNoViolations(page, "a clinic patient's dashboard");

    await page.getByRole("link", { name: `← ${clinicName}` }).click();
    await page.getByRole("link", { name: "Audit log" }).click();
    const log = page.getByTestId("audit-log");
    // The AGP was opened twice (from the population view, then from the clinic page): newest first.
    await expect(log.locator("tr[data-action='view.agp']")).toHaveCount(2);
    await expect(log.locator("tr[data-action='view.agp']").first()).toContainText("Sam Sandbox");
    await expect(log.locator("tr[data-action='view.dashboard']")).toContainText("Dr Ada Admin");
    await expect(log.locator("tr[data-action='patient.accepted']")).toHaveCount(1);
    await expectNoViolations(page, "the audit log");

    await patient.getByRole("button", { name: `Withdraw access of ${clinicName}` }).click();
    await expect(patient.getByTestId("share-withdrawn")).toBeVisible();
    await expect(patient.getByTestId("no-shares")).toBeVisible();
  } finally {
    await patientContext.close();
  }
  await page.goto("/clinic");
  await expect(page.getByTestId("patient-status")).toContainText("Access withdrawn");
  await expect(page.getByRole("link", { name: "AGP of Sam Sandbox" })).toHaveCount(0);
});
