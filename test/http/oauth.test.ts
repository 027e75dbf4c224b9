import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { tokenResponseSchema } from "@/lib/cgm";
import { type AppServer, startAppServer } from "../support/app-server";
import {
  authorize,
  basic,
  bearer,
  connect,
  dt,
  REDIRECT_URI,
  type RegisteredApp,
  registerApp,
  tokenRequest,
} from "../support/sandbox-client";

/** Spec sections 3, 5, 7 and 8: the authorization-code flow, tokens, refresh and revocation. */

const base = inject("baseUrl");
const window = () => `startDate=${dt(Date.now() - 3_600_000)}&endDate=${dt(Date.now())}`;
const egvs = (token: string) =>
  fetch(`${base}/sandbox/v2/users/self/egvs?${window()}`, { headers: bearer(token) });

async function exchange(app: RegisteredApp, code: string, extra: Record<string, string> = {}) {
  return tokenRequest(base, {
    grant_type: "authorization_code",
    code,
    redirect_uri: app.redirectUri,
    client_id: app.client_id,
    client_secret: app.client_secret,
    ...extra,
  });
}

async function refresh(app: RegisteredApp, refreshToken: string) {
  return tokenRequest(base, {
    grant_type: "refresh_token",
    refresh_token: refreshToken,
    client_id: app.client_id,
    client_secret: app.client_secret,
  });
}

async function codeFor(app: RegisteredApp, options: Parameters<typeof authorize>[2] = {}) {
  const back = await authorize(base, app, options);
  const code = back.searchParams.get("code");
  expect(code).toBeTruthy();
  return code as string;
}

let app: RegisteredApp;
beforeAll(async () => {
  app = await registerApp(base, "OAuth suite");
});

describe("app management", () => {
  it("registers an app and answers 201 with its credentials", async () => {
    const res = await fetch(`${base}/sandbox/developer/apps`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "My app", redirectUris: ["https://example.test/cb"] }),
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(["client_id", "client_secret", "name", "redirectUris"]);
    expect(body.name).toBe("My app");
    expect(body.redirectUris).toEqual(["https://example.test/cb"]);
  });

  it.each([
    ["no body", undefined, /body is required/],
    ["invalid JSON", "{", /not valid JSON/],
    ["no name", JSON.stringify({ redirectUris: ["https://a.test/cb"] }), /name/],
    ["no redirect URI", JSON.stringify({ name: "x", redirectUris: [] }), /redirect URI/],
    ["a relative redirect URI", JSON.stringify({ name: "x", redirectUris: ["/cb"] }), /absolute http/],
    [
      "a redirect URI with a fragment",
      JSON.stringify({ name: "x", redirectUris: ["https://a.test/cb#x"] }),
      /fragment/,
    ],
  ])("refuses %s with 400 and a message", async (_label, body, message) => {
    const res = await fetch(`${base}/sandbox/developer/apps`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
    });
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json.error).toBe("invalid_request");
    expect(json.message).toMatch(message);
  });

  it("a regenerated secret replaces the old one at once", async () => {
    const own = await registerApp(base, "Rotating");
    const code = await codeFor(own);
    const res = await fetch(`${base}/sandbox/developer/apps/${own.client_id}/secret`, {
      method: "POST",
      headers: basic(own),
    });
    expect(res.status).toBe(200);
    const { client_secret } = await res.json();
    expect(client_secret).not.toBe(own.client_secret);
    const old = await exchange(own, code);
    expect(old.status).toBe(401);
    expect((await old.json()).error).toBe("invalid_client");
    const fresh = await exchange({ ...own, client_secret }, await codeFor(own));
    expect(fresh.status).toBe(200);
  });

  it("answers 401 for the secret of an unknown app, as for a wrong secret", async () => {
    const res = await fetch(`${base}/sandbox/developer/apps/no-such-app/secret`, { method: "POST" });
    expect(res.status).toBe(401);
  });
});

describe("step 1: the login page", () => {
  const loginUrl = (params: Record<string, string>) =>
    `${base}/sandbox/v3/oauth2/login?${new URLSearchParams(params)}`;
  const valid = () => ({
    client_id: app.client_id,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: "offline_access",
    state: "s1",
  });

  it("asks for a username only and lists the sandbox users", async () => {
    const res = await fetch(loginUrl(valid()));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('name="username"');
    expect(html).not.toContain('type="password"');
    for (let i = 1; i <= 8; i++) expect(html).toContain(`SandboxUser${i}`);
  });

  it.each([
    ["an unknown client_id", { client_id: "nope" }, "No app is registered"],
    ["no client_id", { client_id: "" }, "no client_id"],
    ["an unregistered redirect_uri", { redirect_uri: "https://evil.example/cb" }, "is not registered"],
    ["no redirect_uri", { redirect_uri: "" }, "no redirect_uri"],
  ])("answers 400 with its explanation page and never redirects for %s", async (_label, change, message) => {
    const params = Object.fromEntries(Object.entries({ ...valid(), ...change }).filter(([, v]) => v !== ""));
    const res = await fetch(loginUrl(params), { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    const html = await res.text();
    expect(html).toContain(message);
    expect(html).not.toContain('name="username"');
  });

  it("the consent page answers 400 with its explanation for an unknown client_id too", async () => {
    const res = await fetch(
      `${base}/sandbox/v3/oauth2/consent?${new URLSearchParams({ ...valid(), client_id: "nope" })}`,
      { redirect: "manual" },
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("No app is registered");
  });

  it.each([
    ["response_type=token", { response_type: "token" }, "unsupported_response_type"],
    ["scope=openid", { scope: "openid" }, "invalid_scope"],
    [
      "a plain PKCE method",
      { code_challenge: "a".repeat(43), code_challenge_method: "plain" },
      "invalid_request",
    ],
  ])(
    "sends %s back to the registered redirect_uri with an error and the state",
    async (_l, change, error) => {
      const res = await fetch(loginUrl({ ...valid(), ...change }), { redirect: "manual" });
      expect([302, 303, 307]).toContain(res.status);
      const location = new URL(res.headers.get("location") ?? "");
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
      expect(location.searchParams.get("error")).toBe(error);
      expect(location.searchParams.get("state")).toBe("s1");
    },
  );

  it("refuses an unknown username and keeps the request", async () => {
    const res = await fetch(`${base}/sandbox/v3/oauth2/login/submit`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: base },
      body: new URLSearchParams({ ...valid(), username: "Mallory" }),
    });
    expect(res.status).toBe(303);
    const location = res.headers.get("location") ?? "";
    expect(location).toContain("login_error=");
    expect(location).toContain(`client_id=${app.client_id}`);
  });

  it("refuses a cross-site post of the consent form", async () => {
    const res = await fetch(`${base}/sandbox/v3/oauth2/consent/decision`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: "https://evil.example" },
      body: new URLSearchParams({ ...valid(), decision: "allow" }),
    });
    expect(res.status).toBe(403);
  });
});

describe("step 2: the authorization code", () => {
  it("redirects with code and state after Allow", async () => {
    const back = await authorize(base, app, { state: "xyz 1/2" });
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(back.searchParams.get("state")).toBe("xyz 1/2");
  });

  it("returns state only if it was sent", async () => {
    const back = await authorize(base, app);
    expect(back.searchParams.get("code")).toBeTruthy();
    expect(back.searchParams.has("state")).toBe(false);
  });

  it("redirects with error=access_denied after Deny", async () => {
    const back = await authorize(base, app, { decision: "deny", state: "s" });
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("s");
    expect(back.searchParams.has("code")).toBe(false);
  });
});

describe("step 3: the token exchange", () => {
  it("answers the token response of section 5 exactly, never cached", async () => {
    const res = await exchange(app, await codeFor(app));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        "access_token",
        "expires_in",
        "not-before-policy",
        "refresh_expires_in",
        "refresh_token",
        "session_state",
        "token_type",
      ].sort(),
    );
    tokenResponseSchema.parse(body);
    expect(body.token_type).toBe("Bearer");
    expect(body.expires_in).toBe(7200);
    expect(body.refresh_expires_in).toBe(0);
    expect(typeof body["not-before-policy"]).toBe("string");
    expect((await egvs(body.access_token)).status).toBe(200);
  });

  it("accepts a code once; a replay is refused and revokes what the first exchange issued", async () => {
    const code = await codeFor(app);
    const first = await exchange(app, code);
    expect(first.status).toBe(200);
    const tokens = await first.json();
    const replay = await exchange(app, code);
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe("invalid_grant");
    expect((await egvs(tokens.access_token)).status).toBe(401);
    expect((await refresh(app, tokens.refresh_token)).status).toBe(400);
  });

  it("refuses an unknown code", async () => {
    const res = await exchange(app, "not-a-code");
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("invalid_grant");
  });

  it("refuses a redirect_uri other than the one of the request", async () => {
    const code = await codeFor(app);
    const res = await exchange(app, code, { redirect_uri: "https://client.example/other" });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error).toBe("invalid_grant");
    expect(body.error_description).toMatch(/redirect_uri/);
  });

  it("refuses a code issued to another app", async () => {
    const other = await registerApp(base, "Other");
    const code = await codeFor(app);
    const res = await exchange(other, code);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("invalid_grant");
  });

  it.each([
    ["a wrong secret", { client_secret: "wrong" }],
    ["an unknown client_id", { client_id: "nobody" }],
    ["no client_secret", { client_secret: "" }],
  ])("answers 401 invalid_client for %s", async (_label, change) => {
    const code = await codeFor(app);
    const form = Object.fromEntries(
      Object.entries({
        grant_type: "authorization_code",
        code,
        redirect_uri: app.redirectUri,
        client_id: app.client_id,
        client_secret: app.client_secret,
        ...change,
      }).filter(([, v]) => v !== ""),
    );
    const res = await tokenRequest(base, form);
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe("invalid_client");
  });

  it("accepts only a form body", async () => {
    const res = await fetch(`${base}/sandbox/v3/oauth2/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ grant_type: "authorization_code", client_id: app.client_id }),
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error).toBe("invalid_request");
    expect(body.error_description).toMatch(/x-www-form-urlencoded/);
  });

  it.each([
    ["no grant_type", {}, "invalid_request"],
    ["an unknown grant_type", { grant_type: "password" }, "unsupported_grant_type"],
    ["no code", { grant_type: "authorization_code", redirect_uri: REDIRECT_URI }, "invalid_request"],
    ["no refresh_token", { grant_type: "refresh_token" }, "invalid_request"],
  ])("answers 400 for %s", async (_label, form, error) => {
    const res = await tokenRequest(base, {
      client_id: app.client_id,
      client_secret: app.client_secret,
      ...form,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(error);
  });
});

describe("PKCE (S256)", () => {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");

  it("requires the matching code_verifier when the login carried a challenge", async () => {
    const none = await exchange(app, await codeFor(app, { codeChallenge: challenge }));
    expect(none.status).toBe(400);
    const wrong = await exchange(app, await codeFor(app, { codeChallenge: challenge }), {
      code_verifier: "x".repeat(43),
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toBe("invalid_grant");
    const right = await exchange(app, await codeFor(app, { codeChallenge: challenge }), {
      code_verifier: verifier,
    });
    expect(right.status).toBe(200);
  });

  it("refuses a verifier for a code issued without a challenge (no downgrade)", async () => {
    const res = await exchange(app, await codeFor(app), { code_verifier: verifier });
    expect(res.status).toBe(400);
  });
});

describe("step 4: refresh", () => {
  it("rotates the refresh token on every exchange", async () => {
    const t1 = await connect(base, app);
    const r1 = await refresh(app, t1.refresh_token);
    expect(r1.status).toBe(200);
    const t2 = await r1.json();
    tokenResponseSchema.parse(t2);
    expect(t2.refresh_token).not.toBe(t1.refresh_token);
    expect(t2.access_token).not.toBe(t1.access_token);
    const r2 = await refresh(app, t2.refresh_token);
    expect(r2.status).toBe(200);
    expect((await egvs((await r2.json()).access_token)).status).toBe(200);
  });

  it("refuses a spent refresh token and revokes the whole grant (RFC 9700 4.14.2)", async () => {
    const t1 = await connect(base, app);
    const t2 = await (await refresh(app, t1.refresh_token)).json();
    const reuse = await refresh(app, t1.refresh_token);
    expect(reuse.status).toBe(400);
    expect((await reuse.json()).error).toBe("invalid_grant");
    // The grant is gone: the newest tokens stop working too.
    expect((await refresh(app, t2.refresh_token)).status).toBe(400);
    expect((await egvs(t2.access_token)).status).toBe(401);
  });

  it("lets exactly one of two concurrent refreshes with one token win", async () => {
    const t = await connect(base, app);
    const results = await Promise.all([refresh(app, t.refresh_token), refresh(app, t.refresh_token)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400]);
  });

  it("refuses a refresh token presented by another app", async () => {
    const other = await registerApp(base, "Thief");
    const t = await connect(base, app);
    const res = await refresh(other, t.refresh_token);
    expect(res.status).toBe(400);
  });
});

describe("bearer tokens on data endpoints", () => {
  it("answers 401 JSON without a token, with a malformed header or an unknown token", async () => {
    for (const headers of [{}, { Authorization: "Basic abc" }, bearer("unknown-token")]) {
      const res = await fetch(`${base}/sandbox/v2/users/self/egvs?${window()}`, { headers });
      expect(res.status).toBe(401);
      const body = await res.json();
      expect(body.error).toBeTruthy();
      expect(body.message).toBeTruthy();
    }
  });

  it("expires every access token of an app at once on request, and a refresh restores access", async () => {
    const own = await registerApp(base, "Expiring");
    const t = await connect(base, own);
    expect((await egvs(t.access_token)).status).toBe(200);
    const unauth = await fetch(`${base}/sandbox/developer/apps/${own.client_id}/expire-tokens`, {
      method: "POST",
    });
    expect(unauth.status).toBe(401);
    const res = await fetch(`${base}/sandbox/developer/apps/${own.client_id}/expire-tokens`, {
      method: "POST",
      headers: basic(own),
    });
    expect(res.status).toBe(200);
    expect((await egvs(t.access_token)).status).toBe(401);
    const renewed = await (await refresh(own, t.refresh_token)).json();
    expect((await egvs(renewed.access_token)).status).toBe(200);
  });
});

describe("the login form's next page", () => {
  const submit = (next: string) =>
    fetch(`${base}/sandbox/v3/oauth2/login/submit`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: base },
      body: new URLSearchParams({ username: "SandboxUser2", next }),
    });

  // Each looks like a sandbox path but is, once normalised as the browser does, outside it.
  it.each([
    "/sandbox/%2e%2e/dashboard",
    "/sandbox/../api/auth/signout",
    "/sandbox/%2E%2E/%2e%2e//evil.example",
    "/sandbox/./..//evil.example",
  ])("goes to the consent page, not to %s", async (next) => {
    const res = await submit(next);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/^\/sandbox\/v3\/oauth2\/consent\?/);
  });

  it("keeps a sandbox page, normalised", async () => {
    expect((await submit("/sandbox/v3/../permissions")).headers.get("location")).toBe("/sandbox/permissions");
  });
});

describe("revocation at the Permissions page", () => {
  it("lists the app; revoking it makes its refresh token answer 400 and its access token 401", async () => {
    const own = await registerApp(base, "Revocable app");
    const t = await connect(base, own, "SandboxUser2");
    const login = await fetch(`${base}/sandbox/v3/oauth2/login/submit`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: base },
      body: new URLSearchParams({ username: "SandboxUser2", next: "/sandbox/permissions" }),
    });
    expect(login.status).toBe(303);
    expect(login.headers.get("location")).toBe("/sandbox/permissions");
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const page = await (await fetch(`${base}/sandbox/permissions`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain("Revocable app");
    const revoke = await fetch(`${base}/sandbox/permissions/revoke`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: base, Cookie: cookie },
      body: new URLSearchParams({ client_id: own.client_id }),
    });
    expect(revoke.status).toBe(303);
    expect((await egvs(t.access_token)).status).toBe(401);
    const r = await refresh(own, t.refresh_token);
    expect(r.status).toBe(400);
    expect((await r.json()).error).toBe("invalid_grant");
    const after = await (await fetch(`${base}/sandbox/permissions`, { headers: { Cookie: cookie } })).text();
    expect(after).not.toContain("Revoke access for Revocable app");
  });
});

describe("lifetimes (a server with a 1 s code and 2 s access-token lifetime)", () => {
  let short: AppServer;
  beforeAll(async () => {
    short = await startAppServer({ SANDBOX_AUTH_CODE_TTL: "1", SANDBOX_ACCESS_TOKEN_TTL: "2" });
  });
  afterAll(async () => {
    await short?.stop();
  });

  it("refuses an expired code, and an expired access token answers 401 until refreshed", async () => {
    const own = await registerApp(short.url, "Short lived");
    const back = await authorize(short.url, own);
    await new Promise((r) => setTimeout(r, 1_500));
    const late = await tokenRequest(short.url, {
      grant_type: "authorization_code",
      code: back.searchParams.get("code") ?? "",
      redirect_uri: own.redirectUri,
      client_id: own.client_id,
      client_secret: own.client_secret,
    });
    expect(late.status).toBe(400);
    expect((await late.json()).error_description).toMatch(/expired/);

    const t = await connect(short.url, own);
    expect(t.expires_in).toBe(2);
    const url = `${short.url}/sandbox/v2/users/self/egvs?${window()}`;
    expect((await fetch(url, { headers: bearer(t.access_token) })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2_500));
    expect((await fetch(url, { headers: bearer(t.access_token) })).status).toBe(401);
    const renewed = await tokenRequest(short.url, {
      grant_type: "refresh_token",
      refresh_token: t.refresh_token,
      client_id: own.client_id,
      client_secret: own.client_secret,
    });
    expect(renewed.status).toBe(200);
  });
});
