import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server";
import {
  type DashboardSession,
  dashboardApp,
  developer,
  proxyGet,
  signIn,
} from "../support/dashboard-client";
import { dt, revokeAppAs } from "../support/sandbox-client";
import { dataPath } from "../support/service-reference";

/**
 * The proxy holds a session's user and connection, and the decrypted access token, briefly in
 * memory (lib/service-client/connection-cache.ts). These check that what it holds never outlives
 * what it stands for: a sign-out, a disconnect, a revocation, a refresh; and that one session's
 * memory is never another's. On a server of its own that writes down which token each call to
 * the service carried and how the service answered (test/support/bearer-tap.mjs), so a test sees
 * an old token used even when the answer the browser gets would hide it.
 */

let server: AppServer;
let base: string;
const dataDir = mkdtempSync(path.join(tmpdir(), "glucose-proxy-cache-"));
const tapFile = path.join(dataDir, "service-calls.txt");
let dev: ReturnType<typeof developer>;

interface Call {
  token: string;
  status: number;
  path: string;
}

/** The calls the server has made to the service's data paths so far, in order. */
function calls(): Call[] {
  if (!existsSync(tapFile)) return [];
  return readFileSync(tapFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [token = "", status = "", p = ""] = line.split(" ");
      return { token, status: Number(status), path: p };
    });
}

const lastHour = () => `startDate=${dt(Date.now() - 3_600_000)}&endDate=${dt(Date.now())}`;
const read = (s: DashboardSession) => proxyGet(base, s, `${dataPath("egvs")}?${lastHour()}`);

/** Signs the session out as the page's "Sign out" does: next-auth's sign-out, with its CSRF token. */
async function signOut(s: DashboardSession): Promise<void> {
  const csrf = await fetch(`${base}/api/auth/csrf`, { headers: { Cookie: s.cookie } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookies = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
  const res = await fetch(`${base}/api/auth/signout`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: [s.cookie, ...csrfCookies].join("; "), Origin: base },
    body: new URLSearchParams({ csrfToken, callbackUrl: base }),
  });
  expect(res.status).toBeLessThan(400);
}

beforeAll(async () => {
  const preload = pathToFileURL(path.resolve("test/support/bearer-tap.mjs")).href;
  server = await startAppServer({
    SANDBOX_FAULTS: "on",
    DATA_DIR: dataDir,
    BEARER_TAP_FILE: tapFile,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${preload}`.trim(),
  });
  base = server.url;
  dev = developer(base, dashboardApp(dataDir));
}, 90_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("what the proxy holds in memory ends with what it stands for", () => {
  it("after sign-out the session reads nothing; the same user's other session still reads", async () => {
    const signedOut = await signIn(base, "SandboxUser1");
    const other = await signIn(base, "SandboxUser1");
    expect((await read(signedOut)).status).toBe(200);
    expect((await read(other)).status).toBe(200);
    await signOut(signedOut);
    const after = await read(signedOut);
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ error: "unauthenticated" });
    expect((await read(other)).status).toBe(200);
  });

  it("after disconnect the next request reads nothing, and sends the old token nowhere", async () => {
    const s = await signIn(base, "SandboxUser5");
    expect((await read(s)).status).toBe(200);
    const before = calls().length;
    const res = await fetch(`${base}/api/connection/disconnect`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: s.cookie, Origin: base },
    });
    expect(res.status).toBe(303);
    const after = await read(s);
    expect(after.status).toBe(409);
    expect(await after.json()).toMatchObject({ error: "not_connected" });
    expect(calls().slice(before)).toEqual([]);
  });

  it("after a revocation (401, then needs_reconnect) the next request does not try the old token", async () => {
    const s = await signIn(base, "SandboxUser6");
    expect((await read(s)).status).toBe(200);
    await revokeAppAs(base, dashboardApp(dataDir).client_id, "SandboxUser6");
    const refused = await read(s);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: "reconnect_required" });
    const before = calls().length;
    const again = await read(s);
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ error: "reconnect_required" });
    expect(calls().slice(before)).toEqual([]);
  });

  it("after a refresh the new token is used at once, not the old one first", async () => {
    const s = await signIn(base, "SandboxUser2");
    expect((await read(s)).status).toBe(200);
    const old = calls().at(-1)?.token;
    await dev.expireTokens();
    const beforeRefresh = calls().length;
    expect((await read(s)).status).toBe(200);
    // The old token refused, a refresh, the new one taken.
    const refreshed = calls().slice(beforeRefresh);
    expect(refreshed.map((c) => [c.token === old, c.status])).toEqual([
      [true, 401],
      [false, 200],
    ]);
    const before = calls().length;
    expect((await read(s)).status).toBe(200);
    expect(calls().slice(before)).toEqual([refreshed[1]]);
  });

  it("two users reading at once each get their own data, never the other's", async () => {
    const a = await signIn(base, "SandboxUser1");
    const b = await signIn(base, "SandboxUser3");
    const end = Date.now() - 86_400_000;
    const window = `startDate=${dt(end - 3_600_000)}&endDate=${dt(end)}`;
    const body = async (s: DashboardSession) => {
      const res = await proxyGet(base, s, `${dataPath("egvs")}?${window}`);
      expect(res.status).toBe(200);
      return res.text();
    };
    const ownA = await body(a);
    const ownB = await body(b);
    expect(ownA).not.toBe(ownB);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => body(i % 2 ? b : a)));
    answers.forEach((text, i) => {
      expect(text, `request ${i}`).toBe(i % 2 ? ownB : ownA);
    });
  });
});
