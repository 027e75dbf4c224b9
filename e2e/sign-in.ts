import { expect, type Page } from "@playwright/test";

/** The patient's way in, as a person does it: "Sign in", the sandbox's login and consent. */
export async function signInThroughSandbox(page: Page, username: string) {
  await page.goto("/");
  await page.getByRole("button", { name: "Sign in with your CGM account" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to the sandbox" })).toBeVisible();
  await page.getByLabel("Username").fill(username);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("button", { name: "Allow" }).click();
}
