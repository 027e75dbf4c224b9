import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server";
import {
  authorizeAt,
  callback,
  proxyGet,
  setCookieOf,
  signIn,
  startSignIn,
} from "../support/dashboard-client";
import { dt } from "../support/sandbox-client";
import { dataPath } from "../support/service-reference";

/**
 * Signing in with the service through the dashboard's own routes, over HTTP against the real
 * server and its embedded sandbox: state bound to the browser and single use, the callback's
 * headers, cookie flags, return-to validation, origin checks, session renewal and disconnect.
 */

const base = inject("baseUrl");
const hour = () => `startDate=${dt(Date.now() - 3_600_000)}&endDate=${dt(Date.now())}`;

describe("sign-in", () => {
  it("lands on the dashboard with an opaque, HttpOnly, SameSite=Lax session cookie", async () => {
    const { loginUrl, stateCookie } = await startSignIn(base);
    expect(loginUrl.pathname).toBe("/sandbox/v3/oauth2/login");
    expect(loginUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(loginUrl.searchParams.get("redirect_uri")).toBe(`${base}/api/auth/callback/cgm`);
    const back = await authorizeAt(base, loginUrl, "SandboxUser1");
    const res = await callback(back, stateCookie);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const session = setCookieOf(res, "glucose.session");
    expect(session).toMatch(/^glucose\.session=[A-Za-z0-9_-]{43}; /);
    expect(session).toMatch(/; HttpOnly(;|$)/i);
    // Cookie attribute values are case-insensitive (RFC 6265 section 5.2).
    expect(session).toMatch(/; SameSite=Lax(;|$)/i);
    // On http://localhost a Secure cookie could not be set; over https it is Secure and __Host-.
    expect(session).not.toContain("Secure");
    expect(setCookieOf(res, "glucose.signin-state")).toMatch(/; Max-Age=0(;|$)/);

    const page = await fetch(`${base}/dashboard`, { headers: { Cookie: session!.split(";")[0]! } });
    const html = await page.text();
    expect(html).toContain("Latest glucose");
    expect(html).toMatch(/data-testid="latest-glucose"/);
  });

  it("binds the attempt to the browser for 15 minutes at most", async () => {
    const { res } = await startSignIn(base);
    const cookie = setCookieOf(res, "glucose.signin-state");
    expect(cookie).toMatch(/; Max-Age=900(;|$)/);
    expect(cookie).toMatch(/; HttpOnly(;|$)/i);
  });

  it("refuses a replayed callback: the attempt is spent on first use", async () => {
    const { loginUrl, stateCookie } = await startSignIn(base);
    const back = await authorizeAt(base, loginUrl, "SandboxUser2");
    expect((await callback(back, stateCookie)).status).toBe(303);
    const replay = await callback(back, stateCookie);
    expect(replay.headers.get("location")).toBe("/auth/error?reason=expired");
    expect(setCookieOf(replay, "glucose.session")).toBeNull();
  });

  it("refuses a callback in another browser (no state cookie) without spending the code", async () => {
    const { loginUrl, stateCookie } = await startSignIn(base);
    const back = await authorizeAt(base, loginUrl, "SandboxUser2");
    const elsewhere = await callback(back, "");
    expect(elsewhere.headers.get("location")).toBe("/auth/error?reason=invalid_state");
    const forged = await callback(back, "glucose.signin-state=someone-elses-state");
    expect(forged.headers.get("location")).toBe("/auth/error?reason=invalid_state");
    // The browser that started the sign-in still completes it.
    const own = await callback(back, stateCookie);
    expect(own.headers.get("location")).toBe("/dashboard");
  });

  it("explains a denied consent and keeps the code out of the URL it lands on", async () => {
    const { loginUrl, stateCookie } = await startSignIn(base);
    const back = await authorizeAt(base, loginUrl, "SandboxUser1", "deny");
    expect(back.searchParams.get("error")).toBe("access_denied");
    const res = await callback(back, stateCookie);
    expect(res.headers.get("location")).toBe("/auth/error?reason=access_denied");
    const page = await (await fetch(`${base}/auth/error?reason=access_denied`)).text();
    expect(page).toContain("You chose not to share your data");
    expect(page).toContain("Try again");
  });

  it("an unknown or missing reason still gets a clear page, never a stack trace", async () => {
    const page = await fetch(`${base}/auth/error?reason=%3Cscript%3E`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Sign-in was not completed");
    expect(html).not.toContain("<script>alert");
  });

  it.each([
    "//evil.example",
    "/\\evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    // Normalised by the browser to "//evil.example": refused after normalisation.
    "/.//evil.example",
    "/%2e//evil.example",
    "/a/..//evil.example",
  ])("sends the browser to the dashboard, not to %s", async (returnTo) => {
    const { loginUrl, stateCookie } = await startSignIn(base, returnTo);
    const res = await callback(await authorizeAt(base, loginUrl, "SandboxUser3"), stateCookie);
    expect(res.headers.get("location")).toBe("/dashboard");
  });

  it("keeps a same-site return path", async () => {
    const { loginUrl, stateCookie } = await startSignIn(base, "/dashboard?from=reminder");
    const res = await callback(await authorizeAt(base, loginUrl, "SandboxUser3"), stateCookie);
    expect(res.headers.get("location")).toBe("/dashboard?from=reminder");
  });

  it("starts only by POST from our own origin", async () => {
    expect((await fetch(`${base}/api/auth/cgm/start`, { redirect: "manual" })).status).toBe(405);
    const cross = await fetch(`${base}/api/auth/cgm/start`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: "https://evil.example" },
    });
    expect(cross.status).toBe(403);
    expect(await cross.json()).toMatchObject({ error: "forbidden_origin" });
  });

  it("gives a new session id at every sign-in and ends the old one", async () => {
    const first = await signIn(base, "SandboxUser1");
    const second = await signIn(base, "SandboxUser1", first.cookie);
    expect(second.cookie).not.toBe(first.cookie);
    expect((await proxyGet(base, first, `${dataPath("egvs")}?${hour()}`)).status).toBe(401);
    expect((await proxyGet(base, second, `${dataPath("egvs")}?${hour()}`)).status).toBe(200);
  });

  it("Disconnect deletes the connection; the patient stays signed in and is asked to connect", async () => {
    const session = await signIn(base, "SandboxUser5");
    const refused = await fetch(`${base}/api/connection/disconnect`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: session.cookie, Origin: "https://evil.example" },
    });
    expect(refused.status).toBe(403);
    expect((await proxyGet(base, session, dataPath("dataRange"))).status).toBe(200);
    const res = await fetch(`${base}/api/connection/disconnect`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: session.cookie, Origin: base },
    });
    expect(res.status).toBe(303);
    const after = await proxyGet(base, session, dataPath("dataRange"));
    expect(after.status).toBe(409);
    expect(await after.json()).toMatchObject({ error: "not_connected" });
    const page = await (await fetch(`${base}/dashboard`, { headers: { Cookie: session.cookie } })).text();
    expect(page).toContain("Connect your CGM account");
  });
});

describe("security headers on every page", () => {
  it.each(["/", "/dashboard", "/auth/error", "/sandbox"])("%s", async (path) => {
    const res = await fetch(`${base}${path}`, { redirect: "manual" });
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}' 'strict-dynamic'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    // http://localhost: no HSTS (it would pin a development host to https).
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });

  it("a fresh nonce per request, and Next's own scripts carry it", async () => {
    const nonceOf = (csp: string | null) => /'nonce-([^']+)'/.exec(csp ?? "")?.[1];
    const a = await fetch(`${base}/`);
    const b = await fetch(`${base}/`);
    const nonce = nonceOf(a.headers.get("content-security-policy"));
    expect(nonce).toBeTruthy();
    expect(nonce).not.toBe(nonceOf(b.headers.get("content-security-policy")));
    const html = await a.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });
});

describe("an attempt's lifetime (a server whose sign-in attempts live 1 s)", () => {
  let short: AppServer;
  beforeAll(async () => {
    short = await startAppServer({ SIGN_IN_ATTEMPT_TTL_S: "1" });
  });
  afterAll(async () => {
    await short?.stop();
  });

  it("refuses a callback after the attempt expired, though the code is still good", async () => {
    const { res, loginUrl, stateCookie } = await startSignIn(short.url);
    expect(setCookieOf(res, "glucose.signin-state")).toMatch(/; Max-Age=1(;|$)/);
    const back = await authorizeAt(short.url, loginUrl, "SandboxUser1");
    await new Promise((r) => setTimeout(r, 1_500));
    // The browser would have dropped the cookie by now; a client that kept it is refused all the same.
    const late = await callback(back, stateCookie);
    expect(late.status).toBe(303);
    expect(late.headers.get("location")).toBe("/auth/error?reason=expired");
    expect(setCookieOf(late, "glucose.session")).toBeNull();
  });

  it("still signs in within the lifetime", async () => {
    const { loginUrl, stateCookie } = await startSignIn(short.url);
    const back = await authorizeAt(short.url, loginUrl, "SandboxUser1");
    const res = await callback(back, stateCookie);
    expect(res.headers.get("location")).toBe("/dashboard");
  });
});
