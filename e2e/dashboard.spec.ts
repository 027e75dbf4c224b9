import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { dashboardApp, developer } from "../test/support/dashboard-client";
import { revokeAppAs } from "../test/support/sandbox-client";
import { apiVersion } from "./patient";
import { signInThroughSandbox } from "./sign-in";

/**
 * The patient's way in, in a real browser against the embedded sandbox: sign in, land on the
 * dashboard with the latest value; deny and read why; revoke at the sandbox, reconnect; sign out.
 * The first test records everything the browser receives and checks that no token the service
 * issued to the dashboard, and not the client secret, is in any of it.
 */

const dataDir = () => process.env.E2E_DATA_DIR ?? "";

test("a patient signs in, lands on the dashboard with the latest glucose, and no credential reaches the browser", async ({
  page,
  context,
  baseURL,
}) => {
  const received: string[] = [];
  page.on("response", async (response) => {
    const headers = await response.allHeaders().catch(() => ({}));
    let body = "";
    if (response.status() < 300 || response.status() >= 400) body = await response.text().catch(() => "");
    received.push(`${response.url()}\n${JSON.stringify(headers)}\n${body}`);
  });

  await signInThroughSandbox(page, "SandboxUser1");
  await expect(page).toHaveURL(/\/dashboard$/);
  const latest = page.getByTestId("latest-glucose");
  await expect(latest).toBeVisible();
  await expect(latest).toContainText(/\d|LOW|HIGH/);
  await expect(latest.getByRole("img")).toHaveAccessibleName(/rising|falling|steady|trend|rate/);

  // The browser's own calls go through the proxy with the session cookie only.
  const status = await page.evaluate(
    async (v) => (await fetch(`/api/cgm/${v}/users/self/dataRange`)).status,
    apiVersion(),
  );
  expect(status).toBe(200);

  // Access tokens expire mid-session: the next page view refreshes on the server, unseen.
  await developer(baseURL!, dashboardApp(dataDir())).expireTokens();
  await page.reload();
  await expect(page.getByTestId("latest-glucose")).toBeVisible();

  const issued = readFileSync(process.env.E2E_TOKEN_TAP_FILE ?? "", "utf8")
    .split("\n")
    .filter(Boolean);
  // At least the sign-in's pair and the refresh's pair.
  expect(issued.length).toBeGreaterThanOrEqual(4);
  const secret = dashboardApp(dataDir()).client_secret;
  const cookies = JSON.stringify(await context.cookies());
  const everything = [...received, cookies].join("\n");
  expect(received.length).toBeGreaterThan(5);
  for (const credential of [...issued, secret]) {
    expect(everything.includes(credential), "a token or the client secret reached the browser").toBe(false);
  }
  // The session cookie itself is opaque and HttpOnly.
  const session = (await context.cookies()).find((c) => c.name === "glucose.session");
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Lax");
});

test("denying at the service leads to a page that explains and offers to try again", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Sign in with your CGM account" }).click();
  await page.getByRole("button", { name: "Sign in as SandboxUser2" }).click();
  await page.getByRole("button", { name: "Deny" }).click();
  await expect(page.getByRole("heading", { name: "You chose not to share your data" })).toBeVisible();
  expect(page.url()).not.toContain("code=");
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to the sandbox" })).toBeVisible();
});

test("after revoking at the service the dashboard asks to reconnect, and reconnecting shows data again", async ({
  page,
  baseURL,
}) => {
  await signInThroughSandbox(page, "SandboxUser4");
  await expect(page.getByTestId("latest-glucose")).toBeVisible();
  await revokeAppAs(baseURL!, "glucose-dashboard", "SandboxUser4");
  await page.reload();
  await expect(page.getByRole("heading", { name: "Reconnect your CGM account" })).toBeVisible();
  await page.getByRole("button", { name: "Reconnect" }).click();
  await page.getByRole("button", { name: "Sign in as SandboxUser4" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("latest-glucose")).toBeVisible();
});

test("signing out ends the session", async ({ page }) => {
  await signInThroughSandbox(page, "SandboxUser3");
  await expect(page.getByTestId("latest-glucose")).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("button", { name: "Sign in with your CGM account" })).toBeVisible();
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/$/);
  const status = await page.evaluate(
    async (v) => (await fetch(`/api/cgm/${v}/users/self/dataRange`)).status,
    apiVersion(),
  );
  expect(status).toBe(401);
});
