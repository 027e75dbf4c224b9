import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { authorize, basic, type RegisteredApp, revokeAppAs } from "./sandbox-client";

/**
 * Our service client (lib/service-client) configured in the test process against the sandbox of
 * a running server: its own app, its own database (PGlite in a temporary folder, or the PostgreSQL
 * of TEST_DATABASE_URL), and a way to connect a sandbox user through the real authorization flow.
 */
export const CLIENT_APP_URL = "http://127.0.0.1:9";

export async function clientUnderTest(base: string) {
  const redirectUri = `${CLIENT_APP_URL}/api/auth/callback/cgm`;
  const res = await fetch(`${base}/sandbox/developer/apps`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Client under test", redirectUris: [redirectUri] }),
  });
  const app: RegisteredApp = { ...(await res.json()), redirectUri };
  Object.assign(process.env, {
    APP_URL: CLIENT_APP_URL,
    CGM_API_BASE_URL: `${base}/sandbox`,
    CGM_CLIENT_ID: app.client_id,
    CGM_CLIENT_SECRET: app.client_secret,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "glucose-client-")),
  });
  if (process.env.TEST_DATABASE_URL) process.env.DATABASE_URL = process.env.TEST_DATABASE_URL;
  const oauth = await import("@/lib/service-client/oauth");
  const tokens = await import("@/lib/service-client/tokens");

  /** Runs the whole authorization as a browser would and stores the connection. */
  async function connectPatient(username = "SandboxUser1"): Promise<string> {
    const start = await oauth.startAuthorization();
    const back = await authorize(base, app, {
      username,
      state: start.state,
      codeChallenge: new URL(start.url).searchParams.get("code_challenge") ?? undefined,
    });
    return tokens.createConnection(
      `owner-${username}`,
      await oauth.exchangeAuthorizationCode(back, start.state, start.codeVerifier),
    );
  }

  async function refreshStats(): Promise<{ refreshGrants: number; revokedGrants: number }> {
    return (
      await fetch(`${base}/sandbox/developer/apps/${app.client_id}/token-stats`, { headers: basic(app) })
    ).json();
  }

  async function expireAllTokens(): Promise<void> {
    await fetch(`${base}/sandbox/developer/apps/${app.client_id}/expire-tokens`, {
      method: "POST",
      headers: basic(app),
    });
  }

  async function setFaults(faults: Record<string, unknown>): Promise<void> {
    const r = await fetch(`${base}/sandbox/developer/apps/${app.client_id}/faults`, {
      method: "PUT",
      headers: { ...basic(app), "Content-Type": "application/json" },
      body: JSON.stringify(faults),
    });
    if (!r.ok) throw new Error(`faults: ${r.status}`);
  }

  /** The sandbox user deletes one of their events (v2: eventStatus "deleted"), for our app's data. */
  async function deleteEvent(username: string, event: { eventId: string; systemTime: string }) {
    return fetch(`${base}/sandbox/developer/apps/${app.client_id}/deleted-events`, {
      method: "POST",
      headers: { ...basic(app), "Content-Type": "application/json" },
      body: JSON.stringify({ username, eventId: event.eventId, systemTime: event.systemTime }),
    });
  }

  /** The sandbox user revokes our app at the Permissions page. */
  const revokeAs = (username: string) => revokeAppAs(base, app.client_id, username);

  return {
    app,
    oauth,
    tokens,
    connectPatient,
    refreshStats,
    expireAllTokens,
    setFaults,
    deleteEvent,
    revokeAs,
  };
}
