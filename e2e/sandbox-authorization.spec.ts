import { expect, test } from "@playwright/test";
import { dt, exchangeCode, REDIRECT_URI, registerApp, tokenRequest } from "../test/support/sandbox-client";

/**
 * The sandbox's pages in a real browser: a user signs in with a username, allows or denies, and
 * revokes an app under Permissions; a developer registers an app and regenerates its secret.
 */

function loginUrl(clientId: string, state: string) {
  return `/sandbox/v3/oauth2/login?${new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: "offline_access",
    state,
  })}`;
}

/**
 * The redirect goes to a client that does not exist (the route above answers for it); we read where
 * the browser was sent once that page has loaded, so the next navigation cannot race it.
 */
async function captureRedirect(page: import("@playwright/test").Page): Promise<URL> {
  await page.waitForURL((url) => url.href.startsWith(REDIRECT_URI));
  return new URL(page.url());
}

test("a user signs in, allows access, and the app gets a code it can exchange", async ({ page, baseURL }) => {
  const app = await registerApp(baseURL!, "Browser app");
  await page.route(`${REDIRECT_URI}**`, (route) => route.fulfill({ status: 200, body: "client callback" }));
  await page.goto(loginUrl(app.client_id, "st-1"));
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
  const app = await registerApp(baseURL!, "Denied app");
  await page.route(`${REDIRECT_URI}**`, (route) => route.fulfill({ status: 200, body: "client callback" }));
  await page.goto(loginUrl(app.client_id, "st-2"));
  await page.getByRole("button", { name: "Sign in as SandboxUser1" }).click();
  const redirected = captureRedirect(page);
  await page.getByRole("button", { name: "Deny" }).click();
  const back = await redirected;
  expect(back.searchParams.get("error")).toBe("access_denied");
  expect(back.searchParams.get("state")).toBe("st-2");
});

test("an unregistered redirect URI gets an error page, not a redirect", async ({ page, baseURL }) => {
  const app = await registerApp(baseURL!, "Strict app");
  await page.goto(
    `/sandbox/v3/oauth2/login?${new URLSearchParams({
      client_id: app.client_id,
      redirect_uri: "https://evil.example/steal",
      response_type: "code",
      scope: "offline_access",
    })}`,
  );
  await expect(page.getByRole("heading", { name: "This sign-in link is not valid" })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(baseURL);
});

test("a user revokes an app under Permissions", async ({ page, baseURL }) => {
  const app = await registerApp(baseURL!, "App to revoke");
  await page.route(`${REDIRECT_URI}**`, (route) => route.fulfill({ status: 200, body: "client callback" }));
  await page.goto(loginUrl(app.client_id, "st-3"));
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
  await page.getByRole("button", { name: "Generate a new secret for Page-made app" }).click();
  await expect(page.getByText("The old secret no longer works.")).toBeVisible();
});
