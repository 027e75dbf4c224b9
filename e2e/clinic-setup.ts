import { randomUUID } from "node:crypto";
import { type Browser, type BrowserContext, expect, type Page } from "@playwright/test";
import type { SandboxUsername } from "./patient";

/**
 * A clinic as the clinic's browser tests need it, made as a clinician and a patient make it:
 * the clinician founds the clinic and adds a patient, the patient opens the invitation in their
 * own browser, connects their sandbox account and allows the clinic. One copy, so that a change
 * of these pages' words changes one place.
 */

export const CLINICIAN_PASSWORD = "a long enough password";

/** The clinician signs up, founding `clinicName`; its page is open after. */
export async function foundClinic(
  page: Page,
  clinicName: string,
  o: { clinician?: string; email?: string } = {},
) {
  await page.goto("/clinic/sign-up");
  await page.getByLabel("Your name").fill(o.clinician ?? "Dr Ada Admin");
  await page.getByLabel("Clinic name").fill(clinicName);
  await page.getByLabel("Email").fill(o.email ?? `ada-${randomUUID().slice(0, 8)}@clinic.example`);
  await page.getByLabel("Password").fill(CLINICIAN_PASSWORD);
  await page.getByRole("button", { name: "Create clinic" }).click();
  await expect(page.getByRole("heading", { level: 1, name: clinicName })).toBeVisible();
}

/** On the clinic's page, the clinician adds a patient: the invitation link made for them. */
export async function addPatient(page: Page, name: string, birthDate?: string): Promise<string> {
  const patients = page.getByRole("region", { name: "Patients" });
  await patients.getByLabel("Patient's name").fill(name);
  if (birthDate) await patients.getByLabel("Date of birth (optional)").fill(birthDate);
  await patients.getByRole("button", { name: "Add and create link" }).click();
  return page.getByTestId("patient-invitation-link").inputValue();
}

/**
 * The patient, in a browser of their own, opens the invitation, connects `username` at the
 * sandbox and allows the clinic. Their context stays open for the test to go on as the patient
 * (it closes it); on a failure it is closed here.
 */
export async function acceptInvitation(
  browser: Browser,
  link: string,
  username: SandboxUsername,
  clinicName: string,
): Promise<{ patient: Page; context: BrowserContext }> {
  const context = await browser.newContext();
  const patient = await context.newPage();
  try {
    await patient.goto(link);
    await patient.getByRole("button", { name: "Connect your CGM account" }).click();
    await patient.getByLabel("Username").fill(username);
    await patient.getByRole("button", { name: "Sign in", exact: true }).click();
    await patient.getByRole("button", { name: "Allow" }).click();
    await patient.getByRole("button", { name: `Allow ${clinicName} to see my data` }).click();
    await expect(patient.getByTestId("share-accepted")).toBeVisible();
    return { patient, context };
  } catch (e) {
    await context.close();
    throw e;
  }
}

/** A patient added, sharing `username`'s data with the clinic, and the patient's browser closed. */
export async function addSharingPatient(
  page: Page,
  browser: Browser,
  o: { clinicName: string; name: string; username: SandboxUsername; birthDate?: string },
) {
  const link = await addPatient(page, o.name, o.birthDate);
  const { context } = await acceptInvitation(browser, link, o.username, o.clinicName);
  await context.close();
}

/** The clinic's copy of the patient's data, as a clinician makes it before a visit (the views read it). */
export async function syncNow(page: Page, name: string) {
  await page.reload();
  await page.getByRole("button", { name: `Sync now for ${name}` }).click();
  await expect(page.getByTestId("sync-result")).toHaveText(/^Synced/, { timeout: 60_000 });
}
