import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";

/**
 * A clinic as people make it: an administrator signs up and founds it, invites a colleague, the
 * colleague opens the link in their own browser, creates an account and is in; both see both.
 */

const PASSWORD = "a long enough password";

async function signUpClinic(page: Page, clinicName: string, email: string) {
  await page.goto("/");
  await page.getByRole("link", { name: "Clinicians: sign in" }).click();
  await page.getByRole("link", { name: "Create your clinic" }).click();
  await page.getByLabel("Your name").fill("Dr Ada Admin");
  await page.getByLabel("Clinic name").fill(clinicName);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create clinic" }).click();
  await expect(page.getByRole("heading", { level: 1, name: clinicName })).toBeVisible();
}

test("found a clinic, invite a clinician, who joins in another browser; both see both", async ({
  page,
  browser,
}) => {
  const clinicName = `Northside Diabetes Clinic ${randomUUID().slice(0, 4)}`;
  const adminEmail = `ada-${randomUUID().slice(0, 8)}@clinic.example`;
  const colleagueEmail = `ben-${randomUUID().slice(0, 8)}@clinic.example`;

  await signUpClinic(page, clinicName, adminEmail);
  await expect(page.getByTestId("no-patients")).toContainText("No patients yet.");
  await expect(page.getByTestId("members")).toContainText(adminEmail);

  await page.getByLabel("Their email").fill(colleagueEmail);
  await page.getByRole("button", { name: "Create invitation" }).click();
  const link = await page.getByTestId("invitation-link").inputValue();
  expect(link).toMatch(/\/clinic\/join\?token=[A-Za-z0-9_-]{43}$/);
  await expect(page.getByTestId("pending-invitations")).toContainText(colleagueEmail);

  const other = await browser.newContext();
  try {
    const colleague = await other.newPage();
    await colleague.goto(link);
    await expect(colleague.getByRole("heading", { level: 1, name: `Join ${clinicName}` })).toBeVisible();
    const signUp = colleague.getByRole("region", { name: "New to the dashboard: create your account" });
    await signUp.getByLabel("Your name").fill("Dr Ben Colleague");
    await expect(signUp.getByLabel("Email")).toHaveValue(colleagueEmail);
    await signUp.getByLabel("Password").fill(PASSWORD);
    await signUp.getByRole("button", { name: "Create account and join" }).click();
    await expect(colleague.getByRole("heading", { level: 1, name: clinicName })).toBeVisible();
    for (const email of [adminEmail, colleagueEmail]) {
      await expect(colleague.getByTestId("members")).toContainText(email);
    }
    // A clinician, not an administrator: no invitations here.
    await expect(colleague.getByRole("region", { name: "Invite a clinician" })).toHaveCount(0);

    // The link was for one use.
    await colleague.goto(link);
    await expect(colleague.getByTestId("invitation-problem")).toContainText("already been used");
  } finally {
    await other.close();
  }

  await page.reload();
  await expect(page.getByTestId("members")).toContainText(colleagueEmail);
  await expect(page.getByTestId("no-pending")).toBeVisible();
  // The link was shown once: a visit later does not show it.
  await page.context().clearCookies({ name: "glucose.clinic-notice" });
  await page.reload();
  await expect(page.getByTestId("invitation-link")).toHaveCount(0);
});

test("a wrong password is explained on the form, and signing in again works", async ({ page }) => {
  const email = `cy-${randomUUID().slice(0, 8)}@clinic.example`;
  await signUpClinic(page, "Riverside Practice", email);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/clinic/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("not the right password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("form-error")).toContainText("The email or the password is not right");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Riverside Practice" })).toBeVisible();
  // A clinician who opens the patient dashboard is led back to the clinic.
  await page.goto("/dashboard");
  await expect(page.getByTestId("clinician-notice")).toBeVisible();
  await page.getByRole("link", { name: "Go to your clinic" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Riverside Practice" })).toBeVisible();
});
