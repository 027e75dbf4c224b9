import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server";
import { dashboardApp } from "../support/dashboard-client";
import { basic, type RegisteredApp, registerApp, tokenRequest } from "../support/sandbox-client";

/**
 * The sandbox's developer API: registering is open, but a new secret and every test control need
 * the app's current secret (HTTP Basic or client_secret in the JSON body), and the test controls
 * exist only with SANDBOX_FAULTS=on (the suite's server sets it; a second server here does not).
 */

const base = inject("baseUrl");
const dataDir = inject("dataDir");
const appUrl = (app: { client_id: string }, what: string, at = base) =>
  `${at}/sandbox/developer/apps/${encodeURIComponent(app.client_id)}/${what}`;
const json = { "Content-Type": "application/json" };

/** Every per-app control, as method, path and a body it accepts. */
const CONTROLS: [string, string, Record<string, unknown> | undefined][] = [
  ["GET", "faults", undefined],
  ["PUT", "faults", {}],
  ["POST", "expire-tokens", undefined],
  ["GET", "token-stats", undefined],
  ["POST", "deleted-events", { username: "SandboxUser1", eventId: "x", systemTime: "2026-01-01T00:00:00" }],
];

function call(
  app: { client_id: string },
  [method, what, body]: (typeof CONTROLS)[number],
  headers: HeadersInit = {},
  at = base,
) {
  return fetch(appUrl(app, what, at), {
    method,
    headers: body ? { ...json, ...headers } : headers,
    body: body ? JSON.stringify(body) : undefined,
  });
}

const rotate = (app: { client_id: string }, init: RequestInit = {}, at = base) =>
  fetch(appUrl(app, "secret", at), { method: "POST", ...init });

/** Whether the app's secret still exchanges credentials at the token endpoint (wrong grant, right client). */
async function secretWorks(app: RegisteredApp): Promise<boolean> {
  const res = await tokenRequest(base, {
    grant_type: "refresh_token",
    refresh_token: "no-such-token",
    client_id: app.client_id,
    client_secret: app.client_secret,
  });
  return res.status !== 401;
}

let app: RegisteredApp;
beforeAll(async () => {
  app = await registerApp(base, "Developer API suite");
});

describe("a new secret needs the current one", () => {
  it("refuses a request without credentials with 401, WWW-Authenticate and what to send", async () => {
    const res = await rotate(app);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic realm="sandbox"/);
    const body = await res.json();
    expect(body.error).toBe("invalid_client");
    expect(body.message).toMatch(
      /HTTP Basic credentials \(client_id:client_secret\).*client_secret in the JSON body/,
    );
    expect(await secretWorks(app)).toBe(true);
  });

  it.each([
    ["a wrong secret over HTTP Basic", () => ({ headers: basic({ ...app, client_secret: "wrong" }) })],
    [
      "a wrong secret in the JSON body",
      () => ({ headers: json, body: JSON.stringify({ client_secret: "wrong" }) }),
    ],
    ["an empty JSON body", () => ({ headers: json, body: "{}" })],
  ])("refuses %s with 401", async (_label, init) => {
    const res = await rotate(app, init());
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic/);
    expect(await secretWorks(app)).toBe(true);
  });

  it("refuses another app's credentials with 401", async () => {
    const other = await registerApp(base, "Another app");
    expect((await rotate(app, { headers: basic(other) })).status).toBe(401);
    expect(await secretWorks(app)).toBe(true);
  });

  it("refuses a body that is not JSON with 400", async () => {
    const res = await rotate(app, { headers: json, body: "client_secret=x" });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/not valid JSON/);
  });

  it("issues a new secret for the current one over HTTP Basic, and the old one stops", async () => {
    const own = await registerApp(base, "Rotated over Basic");
    const res = await rotate(own, { headers: basic(own) });
    expect(res.status).toBe(200);
    const { client_secret } = await res.json();
    expect(await secretWorks(own)).toBe(false);
    expect(await secretWorks({ ...own, client_secret })).toBe(true);
  });

  it("issues a new secret for the current one in the JSON body", async () => {
    const own = await registerApp(base, "Rotated in the body");
    const res = await rotate(own, {
      headers: json,
      body: JSON.stringify({ client_id: own.client_id, client_secret: own.client_secret }),
    });
    expect(res.status).toBe(200);
    const { client_secret } = await res.json();
    expect(await secretWorks(own)).toBe(false);
    expect(await secretWorks({ ...own, client_secret })).toBe(true);
  });

  it("answers an unknown app as a wrong secret (401), so client ids cannot be probed", async () => {
    const unknown = await rotate({ client_id: "no-such-app" }, { headers: basic(app) });
    const wrong = await rotate(app, { headers: basic({ ...app, client_secret: "wrong" }) });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.headers.get("www-authenticate")).toBe(wrong.headers.get("www-authenticate"));
  });
});

describe("the dashboard's own app", () => {
  it("cannot be taken over by an anonymous request, and its secret keeps working", async () => {
    const own = dashboardApp(dataDir);
    const res = await rotate(own, { headers: { Origin: "https://evil.example" } });
    expect(res.status).toBe(401);
    expect(JSON.stringify(await res.json())).not.toMatch(/client_secret"\s*:/);
    expect(await secretWorks(own)).toBe(true);
  });

  it("keeps its configured secret even for its owner: 409 with where to change it", async () => {
    const own = dashboardApp(dataDir);
    const res = await rotate(own, { headers: basic(own) });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toMatch(/CGM_CLIENT_SECRET.*restart/);
    expect(await secretWorks(own)).toBe(true);
  });
});

describe("every test control needs the app's current secret", () => {
  it.each(CONTROLS)("%s %s without credentials: 401", async (...control) => {
    const res = await call(app, control);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic/);
  });

  it.each(CONTROLS)("%s %s with a wrong secret: 401", async (...control) => {
    const res = await call(app, control, basic({ ...app, client_secret: "wrong" }));
    expect(res.status).toBe(401);
  });

  it("accepts the secret in the JSON body as well as over HTTP Basic", async () => {
    const faults = await fetch(appUrl(app, "faults"), {
      method: "PUT",
      headers: json,
      body: JSON.stringify({ client_secret: app.client_secret, latencyMs: 0 }),
    });
    expect(faults.status).toBe(200);
    expect((await faults.json()).latencyMs).toBe(0);
    const wrong = await fetch(appUrl(app, "expire-tokens"), {
      method: "POST",
      headers: json,
      body: JSON.stringify({ client_secret: "wrong" }),
    });
    expect(wrong.status).toBe(401);
    const expired = await fetch(appUrl(app, "expire-tokens"), {
      method: "POST",
      headers: json,
      body: JSON.stringify({ client_secret: app.client_secret }),
    });
    expect(expired.status).toBe(200);
    expect((await call(app, ["GET", "token-stats", undefined], basic(app))).status).toBe(200);
  });
});

describe("with SANDBOX_FAULTS unset", () => {
  let plain: AppServer;
  let there: RegisteredApp;
  beforeAll(async () => {
    // The default install: no SANDBOX_FAULTS, the embedded database.
    plain = await startAppServer({ SANDBOX_FAULTS: undefined, DATABASE_URL: undefined });
    there = await registerApp(plain.url, "Without controls");
  });
  afterAll(async () => {
    await plain?.stop();
  });

  it.each(CONTROLS)("%s %s answers 404 and says how to turn the controls on", async (...control) => {
    const res = await call(there, control, basic(there), plain.url);
    expect(res.status).toBe(404);
    expect((await res.json()).message).toMatch(/SANDBOX_FAULTS=on/);
  });

  it("still registers apps and issues a new secret for the current one", async () => {
    expect((await rotate(there, {}, plain.url)).status).toBe(401);
    const res = await rotate(there, { headers: basic(there) }, plain.url);
    expect(res.status).toBe(200);
  });
});
