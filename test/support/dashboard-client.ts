import { readFileSync } from "node:fs";
import path from "node:path";
import { answerLogin, basic, type RegisteredApp } from "./sandbox-client";

/**
 * Drives the dashboard over HTTP as a browser would: "Sign in" (form POST), the sandbox's login
 * and consent, the callback; then proxy calls with the session cookie. Also reaches the dashboard's
 * own app in the embedded sandbox (its secret is in the server's data folder) to expire tokens,
 * inject faults and count refresh grants.
 */

export interface DashboardSession {
  cookie: string;
}

/** The Set-Cookie of `name` with its attributes (for the cookie-flag tests), or null. */
export function setCookieOf(res: Response, name: string): string | null {
  return res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`)) ?? null;
}

/** `name=value` of a cookie the response sets, as a browser would send it back. */
function cookiePair(res: Response, name: string): string | null {
  return setCookieOf(res, name)?.split(";")[0] ?? null;
}

export async function startSignIn(base: string, returnTo = "/dashboard", cookie?: string) {
  const res = await fetch(`${base}/api/auth/cgm/start`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: base, ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams({ returnTo }),
  });
  if (res.status !== 303) throw new Error(`start: ${res.status} ${await res.text()}`);
  const loginUrl = new URL(res.headers.get("location") ?? "");
  const stateCookie = cookiePair(res, "glucose.signin-state");
  if (!stateCookie) throw new Error("start: no state cookie");
  return { res, loginUrl, stateCookie };
}

/** The sandbox's answer for a login URL: the callback URL the browser is sent to. */
export async function authorizeAt(
  base: string,
  loginUrl: URL,
  username: string,
  decision: "allow" | "deny" = "allow",
) {
  return answerLogin(base, Object.fromEntries(loginUrl.searchParams), username, decision);
}

export async function callback(callbackUrl: URL, cookie: string) {
  return fetch(callbackUrl, { redirect: "manual", headers: { Cookie: cookie } });
}

/** The whole sign-in; returns the session cookie. */
export async function signIn(
  base: string,
  username = "SandboxUser1",
  current?: string,
): Promise<DashboardSession> {
  const { loginUrl, stateCookie } = await startSignIn(base, "/dashboard", current);
  // The login page's origin is the service's: the embedded sandbox, or another process's.
  const back = await authorizeAt(loginUrl.origin, loginUrl, username);
  const res = await callback(back, [stateCookie, current].filter(Boolean).join("; "));
  const session = cookiePair(res, "glucose.session");
  if (res.status !== 303 || !session)
    throw new Error(`callback: ${res.status} ${res.headers.get("location")}`);
  return { cookie: session };
}

export function proxyGet(base: string, session: DashboardSession, pathAndQuery: string) {
  return fetch(`${base}/api/cgm/${pathAndQuery}`, { headers: { Cookie: session.cookie } });
}

/** The dashboard's own app in the embedded sandbox, with the secret generated for it. */
export function dashboardApp(dataDir: string): RegisteredApp {
  const secrets = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8"));
  return { client_id: "glucose-dashboard", client_secret: secrets.cgmClientSecret, redirectUri: "" };
}

export function developer(base: string, app: RegisteredApp) {
  const url = (what: string) => `${base}/sandbox/developer/apps/${app.client_id}/${what}`;
  return {
    async stats(): Promise<{ refreshGrants: number; revokedGrants: number }> {
      return (await fetch(url("token-stats"), { headers: basic(app) })).json();
    },
    async expireTokens() {
      const r = await fetch(url("expire-tokens"), { method: "POST", headers: basic(app) });
      if (!r.ok) throw new Error(`expire-tokens: ${r.status}`);
    },
    async faults(settings: Record<string, unknown>) {
      const r = await fetch(url("faults"), {
        method: "PUT",
        headers: { ...basic(app), "Content-Type": "application/json" },
        body: JSON.stringify(settings),
      });
      if (!r.ok) throw new Error(`faults: ${r.status}`);
    },
  };
}
