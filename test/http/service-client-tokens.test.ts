import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CLIENT_APP_URL, clientUnderTest } from "../support/client-under-test";
import { authorize, bearer, dt, type RegisteredApp } from "../support/sandbox-client";

/**
 * The client's token lifecycle (lib/service-client) in this process, against the real sandbox over
 * HTTP, with the real database: PGlite in a temporary folder, or the PostgreSQL of
 * TEST_DATABASE_URL (then the row-lock path runs).
 */

const base = inject("baseUrl");
let client: Awaited<ReturnType<typeof clientUnderTest>>;
let app: RegisteredApp;
let lib: Pick<typeof client, "oauth" | "tokens">;
let connectPatient: typeof client.connectPatient;

beforeAll(async () => {
  client = await clientUnderTest(base);
  ({ app, connectPatient } = client);
  lib = client;
});

const stats = () => client.refreshStats();
const egvs = (token: string) =>
  fetch(
    `${base}/sandbox/v2/users/self/egvs?startDate=${dt(Date.now() - 3_600_000)}&endDate=${dt(Date.now())}`,
    {
      headers: bearer(token),
    },
  );

describe("authorization code exchange", () => {
  it("connects a patient with state and PKCE, and stores only encrypted tokens", async () => {
    const id = await connectPatient();
    const token = await lib.tokens.accessToken(id);
    expect((await egvs(token)).status).toBe(200);
    const row = await lib.tokens.getConnection(id);
    expect(row?.accessTokenEnc).toMatch(/^v1\./);
    expect(row?.accessTokenEnc).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it("refuses a callback whose state belongs to another attempt, before spending the code", async () => {
    const start = await lib.oauth.startAuthorization();
    const back = await authorize(base, app, { state: "someone-elses-state" });
    await expect(
      lib.oauth.exchangeAuthorizationCode(back, start.state, start.codeVerifier),
    ).rejects.toMatchObject({
      code: "state_mismatch",
      status: 400,
    });
  });

  it("maps access_denied and a replayed code to clear errors", async () => {
    const start = await lib.oauth.startAuthorization();
    const sent = new URL(start.url);
    const denied = await authorize(base, app, {
      decision: "deny",
      state: start.state,
      codeChallenge: sent.searchParams.get("code_challenge") ?? undefined,
    });
    await expect(
      lib.oauth.exchangeAuthorizationCode(denied, start.state, start.codeVerifier),
    ).rejects.toMatchObject({
      code: "access_denied",
    });
    const again = await lib.oauth.startAuthorization();
    const back = await authorize(base, app, {
      state: again.state,
      codeChallenge: new URL(again.url).searchParams.get("code_challenge") ?? undefined,
    });
    await lib.oauth.exchangeAuthorizationCode(back, again.state, again.codeVerifier);
    await expect(
      lib.oauth.exchangeAuthorizationCode(back, again.state, again.codeVerifier),
    ).rejects.toMatchObject({
      code: "invalid_grant",
      status: 400,
    });
  });
});

describe("refresh with single flight", () => {
  it("20 concurrent callers after the token expired cause exactly one refresh, and all get the same new token", async () => {
    const id = await connectPatient();
    const before = await stats();
    // The service expired every token; the client learns it from a 401, as it would in production.
    await client.expireAllTokens();
    const old = await lib.tokens.accessToken(id);
    expect((await egvs(old)).status).toBe(401);
    const results = await Promise.all(Array.from({ length: 20 }, () => lib.tokens.accessToken(id, old)));
    expect(new Set(results).size).toBe(1);
    expect(results[0]).not.toBe(old);
    expect((await egvs(results[0]!)).status).toBe(200);
    const after = await stats();
    expect(after.refreshGrants - before.refreshGrants).toBe(1);
    expect(after.revokedGrants).toBe(before.revokedGrants);
  });

  it("refreshes once, shortly before expiry, for 20 concurrent callers", async () => {
    const id = await connectPatient("SandboxUser2");
    const { db, schema } = await import("@/lib/db");
    const { eq } = await import("drizzle-orm");
    await (await db())
      .update(schema.cgmConnections)
      .set({ accessExpiresAt: new Date(Date.now() + 30_000) })
      .where(eq(schema.cgmConnections.id, id));
    const before = await stats();
    const results = await Promise.all(Array.from({ length: 20 }, () => lib.tokens.accessToken(id)));
    expect(new Set(results).size).toBe(1);
    expect((await stats()).refreshGrants - before.refreshGrants).toBe(1);
    // The new token is good for two hours: the next call refreshes nothing.
    await lib.tokens.accessToken(id);
    expect((await stats()).refreshGrants - before.refreshGrants).toBe(1);
  });

  it("marks the connection 'needs reconnect' when the patient revoked access, without a retry loop", async () => {
    const id = await connectPatient("SandboxUser3");
    await client.revokeAs("SandboxUser3");
    const old = await lib.tokens.accessToken(id);
    expect((await egvs(old)).status).toBe(401);
    await expect(lib.tokens.accessToken(id, old)).rejects.toBeInstanceOf(lib.tokens.ReconnectRequired);
    const row = await lib.tokens.getConnection(id);
    expect(row?.status).toBe("needs_reconnect");
    expect(row?.refreshTokenEnc).toBeNull();
    // Asked again, it answers at once from the database: no further refresh at the service.
    const before = await stats();
    await expect(lib.tokens.accessToken(id)).rejects.toBeInstanceOf(lib.tokens.ReconnectRequired);
    expect((await stats()).refreshGrants).toBe(before.refreshGrants);
  });

  it("a disconnected connection is gone", async () => {
    const id = await connectPatient("SandboxUser4");
    await lib.tokens.deleteConnection(id);
    expect(await lib.tokens.getConnection(id)).toBeNull();
    await expect(lib.tokens.accessToken(id)).rejects.toBeInstanceOf(lib.tokens.ReconnectRequired);
  });
});

describe("malformed token responses are refused", () => {
  let fake: Server;
  let fakeUrl: string;
  beforeAll(async () => {
    fake = createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      // No refresh_token: not a token response the client can keep (the other extras are optional).
      res.end(JSON.stringify({ access_token: "x", token_type: "Bearer", expires_in: 7200 }));
    });
    await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
    const address = fake.address();
    fakeUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });
  afterAll(() => fake?.close());

  it("answers malformed_response and stores nothing", async () => {
    const config = {
      baseUrl: fakeUrl,
      clientId: "c",
      clientSecret: "s",
      redirectUri: `${CLIENT_APP_URL}/api/auth/callback/cgm`,
      maxWindowDays: 30,
      maxRequestDays: 90,
      apiVersion: "v2" as const,
    };
    await expect(lib.oauth.refreshTokens("r", config)).rejects.toMatchObject({ code: "malformed_response" });
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("refresh across processes (PostgreSQL)", () => {
  it("two processes with 10 concurrent callers each spend the refresh token once", async () => {
    const { spawn } = await import("node:child_process");
    const id = await connectPatient("SandboxUser5");
    await client.expireAllTokens();
    const old = await lib.tokens.accessToken(id);
    const before = await stats();
    const run = () =>
      new Promise<string[]>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            "--conditions",
            "react-server",
            "--import",
            "tsx",
            "test/support/refresh-worker.ts",
            id,
            old,
            "10",
          ],
          {
            env: { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL },
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        let out = "";
        let err = "";
        child.stdout.on("data", (d) => {
          out += d;
        });
        child.stderr.on("data", (d) => {
          err += d;
        });
        child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(err))));
      });
    const [a, b] = await Promise.all([run(), run()]);
    const all = [...a, ...b];
    expect(all).toHaveLength(20);
    expect(new Set(all).size).toBe(1);
    expect((await egvs(all[0]!)).status).toBe(200);
    expect((await stats()).refreshGrants - before.refreshGrants).toBe(1);
  }, 60_000);
});
