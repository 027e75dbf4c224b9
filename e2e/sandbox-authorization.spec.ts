import { expect, test } from "@playwright/test";
import {
  dt,
  exchangeCode,
  type RegisteredApp,
  registerApp,
  tokenRequest,
} from "../test/support/sandbox-client";

/**
 * The sandbox's pages in a real browser: a user signs in with a username, allows or denies, and
 * revokes an app under Permissions; a developer registers an app and regenerates its secret.
 */

function loginUrl(app: RegisteredApp, state: string) {
  return `/sandbox/v3/oauth2/login?${new URLSearchParams({
    client_id: app.client_id,
    redirect_uri: app.redirectUri,
    response_type: "code",
    scope: "offline_access",
    state,
  })}`;
}

/**
 * The test apps' redirect URI is a path of this server that no route answers: the browser lands
 * on a real (404) page, so the navigation completes and the next one cannot race it. (page.route
 * cannot answer a redirect's target, and an unreachable host ends in a browser error page.)
 */
const CLIENT_CALLBACK = "/e2e-client/callback";

async function registerBrowserApp(baseURL: string, name: string): Promise<RegisteredApp> {
  return registerApp(baseURL, name, `${baseURL}${CLIENT_CALLBACK}`);
}

async function captureRedirect(page: import("@playwright/test").Page): Promise<URL> {
  await page.waitForURL((url) => url.pathname === CLIENT_CALLBACK);
  return new URL(page.url());
}

test("a user signs in, allows access, and the app gets a code it can exchange", async ({ page, baseURL }) => {
  const app = await registerBrowserApp(baseURL!, "Browser app");
  await page.goto(loginUrl(app, "st-1"));
  await expect(page.getByRole("heading", { name: "Sign in to the sandbox" })).toBeVisible();
  await expect(page.getByText("Browser app")).toBeVisible();
  await page.getByLabel("Username").fill("SandboxUser3");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Share your glucose data?" })).toBeVisible();
  await expect(page.getByText("Signed in as SandboxUser3")).toBeVisible();
  const redirected = captureRedirect(page);
  await page.getByRole("button", { name: "Allow" }).click();
  const back = await redirected;
  expect(back.searchParams.get("state")).toBe("st-1");
  const code = back.searchParams.get("code")!;
  const token = await exchangeCode(baseURL!, app, code);
  expect(token.status).toBe(200);
  const { access_token } = await token.json();
  const end = Date.now();
  const egvs = await fetch(
    `${baseURL}/sandbox/v2/users/self/egvs?startDate=${dt(end - 86_400_000)}&endDate=${dt(end)}`,
    { headers: { Authorization: `Bearer ${access_token}` } },
  );
  expect((await egvs.json()).unit).toBe("mmol/L");
});

test("Deny sends the user back with error=access_denied", async ({ page, baseURL }) => {
  const app = await registerBrowserApp(baseURL!, "Denied app");
  await page.goto(loginUrl(app, "st-2"));
  await page.getByRole("button", { name: "Sign in as SandboxUser1" }).click();
  const redirected = captureRedirect(page);
  await page.getByRole("button", { name: "Deny" }).click();
  const back = await redirected;
  expect(back.searchParams.get("error")).toBe("access_denied");
  expect(back.searchParams.get("state")).toBe("st-2");
});

test("an unregistered redirect URI gets an error page (400), not a redirect", async ({ page, baseURL }) => {
  const app = await registerBrowserApp(baseURL!, "Strict app");
  const response = await page.goto(
    `/sandbox/v3/oauth2/login?${new URLSearchParams({
      client_id: app.client_id,
      redirect_uri: "https://evil.example/steal",
      response_type: "code",
      scope: "offline_access",
    })}`,
  );
  expect(response?.status()).toBe(400);
  await expect(page.getByRole("heading", { name: "This sign-in link is not valid" })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(baseURL);
});

test("a user revokes an app under Permissions", async ({ page, baseURL }) => {
  const app = await registerBrowserApp(baseURL!, "App to revoke");
  await page.goto(loginUrl(app, "st-3"));
  await page.getByRole("button", { name: "Sign in as SandboxUser2" }).click();
  const redirected = captureRedirect(page);
  await page.getByRole("button", { name: "Allow" }).click();
  const code = (await redirected).searchParams.get("code")!;
  const tokens = await (await exchangeCode(baseURL!, app, code)).json();

  await page.goto("/sandbox/permissions");
  await expect(page.getByText("Signed in as SandboxUser2")).toBeVisible();
  await page.getByRole("button", { name: "Revoke access for App to revoke" }).click();
  await expect(page.getByText("Access for App to revoke was revoked.")).toBeVisible();

  const refreshed = await tokenRequest(baseURL!, {
    grant_type: "refresh_token",
    refresh_token: tokens.refresh_token,
    client_id: app.client_id,
    client_secret: app.client_secret,
  });
  expect(refreshed.status).toBe(400);
});

test("a developer registers an app and regenerates its secret", async ({ page }) => {
  await page.goto("/sandbox/developer");
  await page.getByLabel("Name").fill("Page-made app");
  await page.getByLabel("Redirect URIs (one per line)").fill("https://page.test/callback");
  await page.getByRole("button", { name: "Create app" }).click();
  await expect(page.getByText("App Page-made app created.")).toBeVisible();
  const secret = (await page.locator("dt:text-is('client_secret') + dd").textContent()) ?? "";
  // A new secret needs the current one: a wrong one is refused with the reason.
  await page.getByLabel("Current secret of Page-made app").fill("not-the-secret");
  await page.getByRole("button", { name: "Generate a new secret for Page-made app" }).click();
  await expect(page.getByText("The client secret is not this app's current secret.")).toBeVisible();
  await page.getByLabel("Current secret of Page-made app").fill(secret);
  await page.getByRole("button", { name: "Generate a new secret for Page-made app" }).click();
  await expect(page.getByText("The old secret no longer works.")).toBeVisible();
  // The dashboard's own app keeps the secret it is configured with.
  await expect(page.getByText("The dashboard's own app")).toBeVisible();
  await expect(page.getByRole("button", { name: "Generate a new secret for Glucose Dashboard" })).toHaveCount(
    0,
  );
});
