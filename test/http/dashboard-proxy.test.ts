import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { egvsV2ResponseSchema, statisticsV2ResponseSchema } from "@/lib/cgm";
import { startAppServer } from "../support/app-server";
import {
  type DashboardSession,
  dashboardApp,
  developer,
  proxyGet,
  signIn,
} from "../support/dashboard-client";
import {
  bearer,
  connect,
  DAY_NIGHT_STATISTICS,
  dt,
  registerApp,
  revokeAppAs,
} from "../support/sandbox-client";
import { apiVersion, dataPath } from "../support/service-reference";

/**
 * /api/cgm/** over HTTP: session required, input checked before anything goes upstream, answers
 * equal to the service's, private and never stored, one refresh for many concurrent requests
 * (also across two app processes on one PostgreSQL), faults retried, revocation → reconnect.
 */

const base = inject("baseUrl");
const DAY = 86_400_000;
const app = dashboardApp(inject("dataDir"));
const dev = developer(base, app);
let session: DashboardSession;

const windowQuery = (startMs: number, endMs: number) => `startDate=${dt(startMs)}&endDate=${dt(endMs)}`;
const lastHours = (h: number) => windowQuery(Date.now() - h * 3_600_000, Date.now());

const statisticsBody = DAY_NIGHT_STATISTICS;

function postStatistics(s: DashboardSession, version: string, query: string, body: unknown) {
  return fetch(`${base}/api/cgm/${version}/users/self/statistics?${query}`, {
    method: "POST",
    headers: { Cookie: s.cookie, Origin: base, "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

beforeAll(async () => {
  session = await signIn(base, "SandboxUser1");
});
afterEach(async () => {
  await dev.faults({});
});

describe("access", () => {
  it("answers 401 JSON without a session, and with a made-up one", async () => {
    for (const cookie of ["", "glucose.session=not-a-session"]) {
      const res = await fetch(`${base}/api/cgm/v2/users/self/egvs?${lastHours(1)}`, {
        headers: { Cookie: cookie },
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: "unauthenticated" });
      expect(res.headers.get("cache-control")).toBe("private, no-store");
    }
  });

  // With v3 the v2 paths are not served (test/http/dashboard-v3.test.ts checks v3's).
  it.skipIf(apiVersion() === "v3")("knows only the service's data paths", async () => {
    const res = await proxyGet(base, session, "v2/users/self/secrets");
    expect(res.status).toBe(404);
    expect((await res.json()).message).toContain("not a data path");
    expect((await proxyGet(base, session, `v2/users/self/statistics?${lastHours(1)}`)).status).toBe(405);
  });
});

// The v1 and v2 answers; with v3 those paths are not served, and test/http/dashboard-v3.test.ts
// checks the v3 paths' answers.
describe.skipIf(apiVersion() === "v3")("answers", () => {
  it("equal the service's own for the same window, marked private and not stored", async () => {
    const end = Date.now() - 2 * 3_600_000;
    const start = end - 6 * 3_600_000;
    const res = await proxyGet(base, session, `v2/users/self/egvs?${windowQuery(start, end)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const other = await registerApp(base, "Direct reader");
    const t = await connect(base, other, "SandboxUser1");
    const direct = await fetch(`${base}/sandbox/v2/users/self/egvs?${windowQuery(start, end)}`, {
      headers: bearer(t.access_token),
    });
    expect(await res.json()).toEqual(egvsV2ResponseSchema.parse(await direct.json()));
  });

  it("a 40-day window (longer than CGM_MAX_WINDOW_DAYS) arrives whole, in order, without duplicates", async () => {
    const end = Date.UTC(2026, 9, 1, 12, 0, 0);
    const res = await proxyGet(base, session, `v2/users/self/egvs?${windowQuery(end - 40 * DAY, end)}`);
    const { egvs } = egvsV2ResponseSchema.parse(await res.json());
    const times = egvs.map((e) => e.systemTime);
    expect(new Set(times).size).toBe(times.length);
    expect([...times].sort()).toEqual(times);
    expect(times.length).toBeGreaterThan(38 * 288 * 0.9);
  });

  it.each([
    "v1/users/self/egvs",
    "v3/users/self/egvs",
    "v1/users/self/events",
    "v2/users/self/events",
    "v1/users/self/calibrations",
    "v2/users/self/calibrations",
    "v1/users/self/devices",
    "v2/users/self/devices",
  ])("GET %s", async (path) => {
    const res = await proxyGet(base, session, `${path}?${lastHours(24)}`);
    expect(res.status).toBe(200);
  });

  it("GET v2 dataRange, POST v1 and v2 statistics", async () => {
    expect((await proxyGet(base, session, dataPath("dataRange"))).status).toBe(200);
    const v2 = await postStatistics(session, "v2", lastHours(24 * 7), statisticsBody);
    expect(v2.status).toBe(200);
    expect(statisticsV2ResponseSchema.parse(await v2.json()).nValues).toBeGreaterThan(1500);
    const v1 = await postStatistics(session, "v1", lastHours(24 * 7), {
      targetRanges: [
        { name: "All day", startTime: "00:00:00", endTime: "00:00:00", egvRange: { min: 70, max: 180 } },
      ],
    });
    expect(v1.status).toBe(200);
  });
});

describe("where the time went", () => {
  // With v2 a one-call read is the service's body streamed through; with v3 it is read and reshaped.
  it.each([`${dataPath("egvs")}?${lastHours(3)}`, dataPath("dataRange")])(
    "GET %s carries Server-Timing's session, service and encode, private and not stored",
    async (p) => {
      const res = await proxyGet(base, session, p);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.headers.get("server-timing")).toMatch(
        /^session;dur=[\d.]+, service;dur=[\d.]+, encode;dur=[\d.]+$/,
      );
      expect(await res.json()).toBeTypeOf("object");
    },
  );
});

describe("bad input gets 400 and nothing is sent upstream", () => {
  const cases: Array<[string, () => Promise<Response>, RegExp]> = [
    [
      "a malformed date",
      () => proxyGet(base, session, `${dataPath("egvs")}?startDate=yesterday&endDate=2026-01-01T00:00:00`),
      /startDate/,
    ],
    [
      "a reversed window",
      () => proxyGet(base, session, `${dataPath("egvs")}?${windowQuery(Date.now(), Date.now() - DAY)}`),
      /before endDate/,
    ],
    [
      "a missing endDate",
      () => proxyGet(base, session, `${dataPath("events")}?startDate=2026-01-01T00:00:00`),
      /endDate is required/,
    ],
  ];
  // v3 has no statistics: these are v2's.
  const statisticsCases: Array<[string, () => Promise<Response>, RegExp]> = [
    [
      "statistics that are not JSON",
      () => postStatistics(session, "v2", lastHours(24), "{targetRanges"),
      /not valid JSON/,
    ],
    [
      "statistics windows that leave a gap",
      () => postStatistics(session, "v2", lastHours(24), { targetRanges: [statisticsBody.targetRanges[0]] }),
      /targetRanges/,
    ],
    [
      "statistics bounds out of order",
      () =>
        postStatistics(session, "v2", lastHours(24), {
          targetRanges: [
            {
              ...statisticsBody.targetRanges[0],
              startTime: "00:00:00",
              endTime: "00:00:00",
              egvRanges: [
                { name: "urgentLow", bound: 80 },
                { name: "low", bound: 70 },
                { name: "high", bound: 180 },
              ],
            },
          ],
        }),
      /urgentLow < low < high/,
    ],
  ];

  it.each(apiVersion() === "v3" ? cases : [...cases, ...statisticsCases])(
    "%s",
    async (_name, send, message) => {
      // A pending fault would be used up by any request that reached the service.
      await dev.faults({ failNext: 1, failStatus: 503 });
      const res = await send();
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error).toBe("invalid_request");
      expect(body.message).toMatch(message);
      const faults = await (
        await fetch(`${base}/sandbox/developer/apps/${app.client_id}/faults`, {
          headers: {
            Authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString("base64")}`,
          },
        })
      ).json();
      expect(faults.failNext).toBe(1);
    },
  );

  it.skipIf(apiVersion() === "v3")("refuses a cross-origin POST", async () => {
    const res = await fetch(`${base}/api/cgm/v2/users/self/statistics?${lastHours(24)}`, {
      method: "POST",
      headers: { Cookie: session.cookie, Origin: "https://evil.example", "Content-Type": "application/json" },
      body: JSON.stringify(statisticsBody),
    });
    expect(res.status).toBe(403);
  });
});

describe("token expiry, concurrency and faults", () => {
  it("20 simultaneous requests after the access token expired cause exactly one refresh, and all succeed", async () => {
    await proxyGet(base, session, dataPath("dataRange"));
    await dev.expireTokens();
    const before = await dev.stats();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => proxyGet(base, session, `${dataPath("egvs")}?${lastHours(3)}`)),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    const after = await dev.stats();
    expect(after.refreshGrants - before.refreshGrants).toBe(1);
    expect(after.revokedGrants).toBe(before.revokedGrants);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    "the same with two app processes sharing one PostgreSQL: one refresh grant, 20 successes",
    async () => {
      // A second process of the same deployment: same database, same secrets, same public URL.
      const second = await startAppServer({
        DATABASE_URL: process.env.TEST_DATABASE_URL ?? "",
        DATA_DIR: inject("dataDir"),
        APP_URL: base,
      });
      try {
        const s = await signIn(base, "SandboxUser2");
        await dev.expireTokens();
        const before = await dev.stats();
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            proxyGet(i % 2 ? second.url : base, s, `${dataPath("egvs")}?${lastHours(3)}`),
          ),
        );
        expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
        const after = await dev.stats();
        expect(after.refreshGrants - before.refreshGrants).toBe(1);
        expect(after.revokedGrants).toBe(before.revokedGrants);
      } finally {
        await second.stop();
      }
    },
    90_000,
  );

  it("injected 503s and a 429 are retried and the request succeeds", async () => {
    await dev.faults({ failNext: 2, failStatus: 503 });
    expect((await proxyGet(base, session, dataPath("dataRange"))).status).toBe(200);
    await dev.faults({ failNext: 1, failStatus: 429, retryAfterSeconds: 1 });
    expect((await proxyGet(base, session, dataPath("dataRange"))).status).toBe(200);
  });

  it("a burst that outlasts the retries gives a clear 503 JSON with the upstream status", async () => {
    await dev.faults({ failNext: 50, failStatus: 503 });
    const res = await proxyGet(base, session, dataPath("dataRange"));
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body).toMatchObject({ error: "service_unavailable", upstreamStatus: 503 });
    expect(body.message).toMatch(/not answering/);
  }, 60_000);

  it("a 500 burst is a 502", async () => {
    await dev.faults({ failNext: 50, failStatus: 500 });
    const res = await proxyGet(base, session, dataPath("dataRange"));
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ upstreamStatus: 500 });
  }, 60_000);
});

describe("revocation", () => {
  it("a revoked authorization answers 401 reconnect_required, the page asks to reconnect, and reconnecting brings the data back", async () => {
    const s = await signIn(base, "SandboxUser6");
    expect((await proxyGet(base, s, dataPath("dataRange"))).status).toBe(200);
    await revokeAppAs(base, app.client_id, "SandboxUser6");
    const refused = await proxyGet(base, s, dataPath("dataRange"));
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: "reconnect_required" });
    // Asked again: still a clear 401, not a retry loop or a 500.
    expect((await proxyGet(base, s, dataPath("dataRange"))).status).toBe(401);
    const page = await (await fetch(`${base}/dashboard`, { headers: { Cookie: s.cookie } })).text();
    expect(page).toContain("Reconnect your CGM account");

    const again = await signIn(base, "SandboxUser6", s.cookie);
    const back = await proxyGet(base, again, dataPath("dataRange"));
    expect(back.status).toBe(200);
  });
});

describe("logs", () => {
  it("the server's log holds no token it was issued, no client secret, no session id and no Authorization header", async () => {
    // Whatever this file did before (sign-ins, refreshes, faults, revocation) has been logged by now.
    const dataDir = inject("dataDir");
    const issued = readFileSync(path.join(dataDir, "issued-tokens.txt"), "utf8").split("\n").filter(Boolean);
    expect(issued.length).toBeGreaterThanOrEqual(4);
    const log = readFileSync(path.join(dataDir, "server.log"), "utf8");
    const sessionId = session.cookie.split("=")[1] ?? "";
    for (const secret of [...issued, app.client_secret, sessionId]) {
      expect(log.includes(secret), "a credential was written to the server's log").toBe(false);
    }
    expect(log).not.toMatch(/Bearer\s+\S{10}/);
  });
});
