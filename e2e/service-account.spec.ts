import { randomUUID } from "node:crypto";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { type AppServer, startAppServer, UNLIMITED_CALL_BUDGET } from "../test/support/app-server";
import { expectNoViolations } from "./axe";

/**
 * One patient account per service account (issue 15, item 7), in two browsers of one person under
 * API v3: the patient shares with a clinic from one browser, signs in from another (a second
 * browser context: no cookie in common), finds the clinic there and withdraws its access; the
 * clinic is told, and the first browser shows it too. A server of its own in v3 mode, whatever
 * mode the suite's server runs in.
 */

let server: AppServer;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startAppServer({ ...UNLIMITED_CALL_BUDGET, CGM_API_VERSION: "v3" });
});

test.afterAll(async () => {
  await server?.stop();
});

async function signInAtSandbox(page: Page, username: string) {
  await expect(page.getByRole("heading", { name: "Sign in to the sandbox" })).toBeVisible();
  await page.getByLabel("Username").fill(username);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("button", { name: "Allow" }).click();
}

const newPage = async (browser: Browser) => (await browser.newContext({ baseURL: server.url })).newPage();

test("the same CGM account in a second browser reaches the same clinic shares and withdraws one", async ({
  browser,
}) => {
  const clinicName = `Hillside Clinic ${randomUUID().slice(0, 4)}`;
  const clinic = await newPage(browser);
  await clinic.goto("/clinic/sign-up");
  await clinic.getByLabel("Your name").fill("Dr Bea Admin");
  await clinic.getByLabel("Clinic name").fill(clinicName);
  await clinic.getByLabel("Email").fill(`bea-${randomUUID().slice(0, 8)}@clinic.example`);
  await clinic.getByLabel("Password").fill("a long enough password");
  await clinic.getByRole("button", { name: "Create clinic" }).click();
  const patients = clinic.getByRole("region", { name: "Patients" });
  await patients.getByLabel("Patient's name").fill("Ola Twobrowsers");
  await patients.getByRole("button", { name: "Add and create link" }).click();
  const link = await clinic.getByTestId("patient-invitation-link").inputValue();

  // The first browser: the invitation, the service's sign-in, the clinic's access.
  const first = await newPage(browser);
  await first.goto(link);
  await first.getByRole("button", { name: "Connect your CGM account" }).click();
  await signInAtSandbox(first, "SandboxUser2");
  await first.getByRole("button", { name: `Allow ${clinicName} to see my data` }).click();
  await expect(first.getByTestId("shares")).toContainText(clinicName);
  await clinic.reload();
  await expect(clinic.getByTestId("patient-status")).toContainText("Sharing");

  // The second browser: signed in with the same CGM account, it is the same account.
  const second = await newPage(browser);
  await second.goto("/");
  await second.getByRole("button", { name: "Sign in with your CGM account" }).click();
  await signInAtSandbox(second, "SandboxUser2");
  await expect(second).toHaveURL(/\/dashboard/);
  await second.goto("/sharing");
  await expect(second.getByTestId("shares")).toContainText(clinicName);
  await expect(second.getByTestId("withdraw-at-service")).toContainText(
    "Wherever you sign in to this dashboard with the same CGM account",
  );
  await expectNoViolations(second, "the Sharing page in a second browser");
  await second.getByRole("button", { name: `Withdraw access of ${clinicName}` }).click();
  await expect(second.getByTestId("share-withdrawn")).toBeVisible();
  await expect(second.getByTestId("no-shares")).toBeVisible();

  await clinic.reload();
  await expect(clinic.getByTestId("patient-status")).toContainText("Access withdrawn");
  await first.goto("/sharing");
  await expect(first.getByTestId("no-shares")).toBeVisible();
});
