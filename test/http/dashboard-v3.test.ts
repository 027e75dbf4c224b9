import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type EgvV3Read,
  egvsV2ResponseSchema,
  egvsV3ReadSchema,
  type HypoglycemiaRisk,
  MS_PER_DAY,
  statisticsV2ResponseSchema,
  type V3Read,
} from "@/lib/cgm";
import { hypoglycemiaRiskOf, servedEgvsOf } from "@/lib/metrics/service-statistics";
import { egvsFromV3, mergeV3Reads } from "@/lib/service-client/reshape-v3";
import { type AppServer, startAppServer, UNLIMITED_CALL_BUDGET } from "../support/app-server";
import { csvRecords } from "../support/csv";
import { type DashboardSession, proxyGet, signIn } from "../support/dashboard-client";
import { bearer, connect, dt, type RegisteredApp, registerApp } from "../support/sandbox-client";

/**
 * The dashboard in API v3 mode (CGM_API_VERSION=v3) against the real sandbox over HTTP, on a server
 * of its own (whatever mode the other suites run in): it asks the service nothing but
 * /v3/users/self/* paths, never a window over 30 days; its hypoglycemia risk, which v3 does not
 * give, is the sandbox's v2 risk of the same readings, for every sandbox user; its pages say what
 * they computed themselves; the proxy serves every v3 path.
 */

const USERS = Array.from({ length: 8 }, (_, i) => `SandboxUser${i + 1}`);
/** SandboxUser6 signed up and never uploaded: no data at all. */
const WITH_DATA = USERS.filter((u) => u !== "SandboxUser6");
/** SandboxUser7 (G7 15-day) and SandboxUser8 (ONE+) are served only through v3 (docs/sandbox-v3.md). */
const V2_USERS = WITH_DATA.filter((u) => u !== "SandboxUser7" && u !== "SandboxUser8");
const MG_DL_USERS = ["SandboxUser1", "SandboxUser2", "SandboxUser4", "SandboxUser5"];

const dataDir = mkdtempSync(path.join(tmpdir(), "glucose-v3-"));
const tapFile = path.join(dataDir, "service-calls.txt");
let server: AppServer;
let base: string;
let direct: RegisteredApp;
const sessions = new Map<string, DashboardSession>();
const tokens = new Map<string, string>();

/** The server's calls to the service's data paths so far: path and query. */
function calls(): URL[] {
  if (!existsSync(tapFile)) return [];
  return readFileSync(tapFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => new URL(line.slice(line.indexOf(" ") + 1), "http://service"));
}

async function session(username: string): Promise<DashboardSession> {
  let s = sessions.get(username);
  if (!s) {
    s = await signIn(base, username);
    sessions.set(username, s);
  }
  return s;
}

/** The sandbox read directly, as another app of the same user (not through the dashboard). */
async function sandboxGet(username: string, pathAndQuery: string, init: RequestInit = {}) {
  let token = tokens.get(username);
  if (!token) {
    token = (await connect(base, direct, username)).access_token;
    tokens.set(username, token);
  }
  const res = await fetch(`${base}/sandbox${pathAndQuery}`, {
    ...init,
    headers: { ...bearer(token), ...(init.headers ?? {}) },
  });
  if (!res.ok) throw new Error(`${pathAndQuery}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The sandbox's v2 statistics of a window (any valid body: the risk does not depend on the bounds). */
async function v2Statistics(username: string, startMs: number, endMs: number) {
  const body = {
    targetRanges: [
      {
        name: "Whole day",
        startTime: "00:00:00",
        endTime: "00:00:00",
        egvRanges: [
          { name: "urgentLow", bound: 54 },
          { name: "low", bound: 70 },
          { name: "high", bound: 180 },
        ],
      },
    ],
  };
  return statisticsV2ResponseSchema.parse(
    await sandboxGet(username, `/v2/users/self/statistics?startDate=${dt(startMs)}&endDate=${dt(endMs)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
}

/** The v3 EGVs of [startMs, endMs] straight from the sandbox, in its 30-day [start, end) windows. */
async function v3Egvs(username: string, startMs: number, endMs: number): Promise<V3Read<EgvV3Read>> {
  const parts: V3Read<EgvV3Read>[] = [];
  for (let from = startMs; from <= endMs; from += 30 * MS_PER_DAY) {
    const to = Math.min(from + 30 * MS_PER_DAY, endMs + 1000);
    parts.push(
      egvsV3ReadSchema.parse(
        await sandboxGet(username, `/v3/users/self/egvs?startDate=${dt(from)}&endDate=${dt(to)}`),
      ),
    );
  }
  return mergeV3Reads(parts);
}

interface OverviewJson {
  overview: {
    summary: {
      startMs: number;
      endMs: number;
      ours: { nValues: number; mean: number | null };
      service: unknown;
      hypoglycemiaRisk: { risk: HypoglycemiaRisk | null; by: string };
    };
    trace: { readings: number };
    dataUnit: string;
  } | null;
}

async function overviewOrNull(username: string, range = "14d"): Promise<OverviewJson["overview"]> {
  const res = await fetch(`${base}/api/dashboard/overview?range=${range}`, {
    headers: { Cookie: (await session(username)).cookie },
  });
  expect(res.status, username).toBe(200);
  return ((await res.json()) as OverviewJson).overview;
}

async function overview(username: string, range = "14d"): Promise<NonNullable<OverviewJson["overview"]>> {
  const o = await overviewOrNull(username, range);
  if (!o) throw new Error(`${username}: no overview`);
  return o;
}

async function page(username: string, pathAndQuery: string): Promise<string> {
  const res = await fetch(`${base}${pathAndQuery}`, {
    headers: { Cookie: (await session(username)).cookie },
  });
  expect(res.status, `${username} ${pathAndQuery}`).toBe(200);
  return res.text();
}

beforeAll(async () => {
  const preload = pathToFileURL(path.resolve("test/support/call-tap.mjs")).href;
  server = await startAppServer({
    ...UNLIMITED_CALL_BUDGET,
    CGM_API_VERSION: "v3",
    SANDBOX_FAULTS: "on",
    DATA_DIR: dataDir,
    CALL_TAP_FILE: tapFile,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${preload}`.trim(),
  });
  base = server.url;
  direct = await registerApp(base, "Direct reader");
}, 90_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the hypoglycemia risk, which v3 does not give", () => {
  it.each(WITH_DATA)(
    "%s: the overview's risk is computed by the dashboard, over the summary's window",
    async (u) => {
      const o = await overview(u);
      expect(o.summary.hypoglycemiaRisk.by).toBe("dashboard");
      // No "Glucose service" statistics pretending: v3 has none.
      expect(o.summary.service).toBeNull();
      // The service's method on the service's v3 readings of the same window.
      const read = await v3Egvs(u, o.summary.startMs, o.summary.endMs);
      const { egvs, unit } = egvsFromV3(read.records).value;
      expect(o.summary.hypoglycemiaRisk.risk).toBe(
        hypoglycemiaRiskOf(servedEgvsOf(egvs), unit, o.summary.startMs, o.summary.endMs),
      );
      expect(o.summary.ours.nValues).toBe(egvs.length);
    },
  );

  it.each(V2_USERS)("%s: equals the sandbox's own v2 hypoglycemiaRisk of the same window", async (u) => {
    for (const range of ["14d", "30d", "90d"]) {
      const o = await overview(u, range);
      const v2 = await v2Statistics(u, o.summary.startMs, o.summary.endMs);
      expect(o.summary.hypoglycemiaRisk.risk, `${u} ${range}`).toBe(v2.hypoglycemiaRisk);
      // The same readings: v3's count is v2's.
      expect(o.summary.ours.nValues, `${u} ${range}`).toBe(v2.nValues);
    }
  });

  it("SandboxUser6, who never uploaded: no overview, as with v2", async () => {
    expect(await overviewOrNull("SandboxUser6")).toBeNull();
  });

  it("SandboxUser7 and SandboxUser8, which v2 does not serve, have a risk once worn enough", async () => {
    for (const u of ["SandboxUser7", "SandboxUser8"]) {
      const o = await overview(u, "30d");
      expect(o.summary.ours.nValues, u).toBeGreaterThan(12 * 288 * 0.66);
      expect(o.summary.hypoglycemiaRisk.risk, u).not.toBeNull();
      expect((await v2Statistics(u, o.summary.startMs, o.summary.endMs)).nValues, u).toBe(0);
    }
  });

  it.each(MG_DL_USERS)("%s: the same readings and mean as the v2 service's", async (u) => {
    const o = await overview(u, "14d");
    const v2 = await v2Statistics(u, o.summary.startMs, o.summary.endMs);
    expect(o.dataUnit).toBe("mg/dL");
    expect(o.summary.ours.mean).toBe(Math.round(v2.mean));
  });
});

describe("v3 readings are the v2 readings", () => {
  it.each(V2_USERS)("%s: every reading's value, status and trend over 45 days", async (u) => {
    const o = await overview(u, "14d");
    const endMs = o.summary.endMs;
    const startMs = endMs - 45 * MS_PER_DAY;
    const v2 = egvsV2ResponseSchema.parse(
      await sandboxGet(u, `/v2/users/self/egvs?startDate=${dt(startMs)}&endDate=${dt(endMs)}`),
    );
    const v3 = egvsFromV3((await v3Egvs(u, startMs, endMs)).records).value.egvs;
    const pick = (e: { systemTime: string; status: unknown; trend: unknown }) => [
      e.systemTime,
      e.status,
      e.trend,
    ];
    const bySystemTime = <T extends { systemTime: string }>(list: T[]) =>
      [...list].sort((a, b) => a.systemTime.localeCompare(b.systemTime));
    expect(bySystemTime(v3).map(pick)).toEqual(bySystemTime(v2.egvs).map(pick));
    // In mg/dL the value is v2's own; an mmol/L account's v2 value is the same reading converted.
    if (v2.unit === "mg/dL")
      expect(bySystemTime(v3).map((e) => e.value)).toEqual(bySystemTime(v2.egvs).map((e) => e.value));
  });
});

describe("pages in v3 mode", () => {
  it("statistics by time of day: computed by the dashboard, and it says so", async () => {
    const html = await page("SandboxUser1", "/reports/statistics?days=14");
    expect(html).toContain("computed by this dashboard with your CGM service&#x27;s own method");
    expect(html).toContain("The service&#x27;s method<!-- -->: share of readings");
    expect(html).not.toContain("every number from the service<");
    expect(html).toContain('data-by="dashboard"');
  });

  it("the overview's statistics have no Glucose service column, and the risk names who computed it", async () => {
    const html = await page("SandboxUser2", "/dashboard?range=14d");
    expect(html).toContain('data-service="no"');
    expect(html).not.toContain(">Glucose service<");
    expect(html).toContain("Computed by this dashboard over the");
  });

  it.each(USERS)("%s: overview, events, calibrations, devices and reports answer", async (u) => {
    for (const p of [
      "/dashboard?range=24h",
      "/dashboard/events?days=30",
      "/dashboard/calibrations",
      "/dashboard/devices",
      "/dashboard/day",
      "/reports",
      "/reports/statistics",
      "/reports/compare",
    ])
      await page(u, p);
  });

  it("devices: v3's devices, no section of an older interface", async () => {
    const html = await page("SandboxUser7", "/dashboard/devices");
    expect(html).toContain("G7 15-day transmitter");
    expect(html).not.toContain("older (v1) interface");
  });

  it("events: v3's blood glucose readings and notes are listed", async () => {
    const html = await page("SandboxUser2", "/dashboard/events?days=90");
    expect(html).toMatch(/Blood glucose<!-- --> \(|>Blood glucose</);
    expect(html).toMatch(/>Note</);
  });
});

describe("the export in v3 mode", () => {
  it("holds v3's readings in v2's columns, and its blood glucose readings and notes with their text", async () => {
    const res = await fetch(`${base}/api/reports/export?days=90`, {
      headers: { Cookie: (await session("SandboxUser2")).cookie },
    });
    expect(res.status).toBe(200);
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const file = (name: string) => csvRecords(strFromU8(zip[name]!));
    const egvs = file("egvs.csv");
    expect(egvs.records.length).toBeGreaterThan(80 * 288 * 0.9);
    for (const r of egvs.records.slice(0, 500)) {
      expect(r.unit).toBe("mg/dL");
      expect(r.realtimeValue).toBe(r.value);
      expect(r.smoothedValue).toBe("");
    }
    const events = file("events.csv");
    expect(events.header).toContain("text");
    const notes = events.records.filter((r) => r.eventType === "notes");
    expect(notes.length).toBeGreaterThan(0);
    for (const n of notes) expect(n.text).not.toBe("");
    const meter = events.records.filter((r) => r.eventType === "bloodGlucose");
    expect(meter.length).toBeGreaterThan(0);
    for (const m of meter) expect(m.unit).toBe("mg/dL");
  });
});

describe("the proxy's v3 paths", () => {
  const lastDay = () => {
    const end = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    return `startDate=${dt(end - MS_PER_DAY)}&endDate=${dt(end)}`;
  };

  it.each(["egvs", "calibrations", "events", "alerts"])(
    "GET v3 %s: the envelope, records read",
    async (name) => {
      const res = await proxyGet(base, await session("SandboxUser2"), `v3/users/self/${name}?${lastDay()}`);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ recordVersion: "3.0" });
      expect(typeof body.userId).toBe("string");
      expect(Array.isArray(body.records)).toBe(true);
    },
  );

  it("devices without a window, dataRange with and without lastSyncTime", async () => {
    const s = await session("SandboxUser7");
    const devices = await (await proxyGet(base, s, "v3/users/self/devices")).json();
    expect(devices.records[0]).toMatchObject({ transmitterGeneration: "g715day" });
    const range = await (await proxyGet(base, s, "v3/users/self/dataRange")).json();
    expect(range.egvs.end.systemTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    const later = await proxyGet(base, s, "v3/users/self/dataRange?lastSyncTime=2999-01-01T00:00:00Z");
    expect(later.status).toBe(200);
    expect((await later.json()).egvs).toBeNull();
    const bad = await proxyGet(base, s, "v3/users/self/dataRange?lastSyncTime=yesterday");
    expect(bad.status).toBe(400);
  });

  it("a 75-day window arrives whole, asked in chunks of at most 30 days, each where the last ended", async () => {
    const s = await session("SandboxUser1");
    const range = await (await proxyGet(base, s, "v3/users/self/dataRange")).json();
    const end = Date.parse(`${range.egvs.end.systemTime}Z`);
    const start = end - 75 * MS_PER_DAY;
    const before = calls().length;
    const res = await proxyGet(base, s, `v3/users/self/egvs?startDate=${dt(start)}&endDate=${dt(end)}`);
    expect(res.status).toBe(200);
    const { records } = (await res.json()) as { records: Array<{ recordId: string; systemTime: string }> };
    const ids = records.map((r) => r.recordId);
    expect(new Set(ids).size).toBe(ids.length);
    expect((records.at(0)?.systemTime ?? "") >= dt(start)).toBe(true);
    expect(records.at(-1)?.systemTime).toBe(range.egvs.end.systemTime);
    expect(records.length).toBeGreaterThan(70 * 288 * 0.9);
    const chunks = calls()
      .slice(before)
      .map((u) => [
        Date.parse(`${u.searchParams.get("startDate")}Z`),
        Date.parse(`${u.searchParams.get("endDate")}Z`),
      ]);
    expect(chunks).toHaveLength(3);
    chunks.sort((a, b) => a[0]! - b[0]!);
    expect(chunks[0]![0]).toBe(start);
    expect(chunks.at(-1)![1]).toBe(end + 1000);
    for (let i = 0; i < chunks.length; i++) {
      expect(chunks[i]![1]! - chunks[i]![0]!).toBeLessThanOrEqual(30 * MS_PER_DAY);
      if (i > 0) expect(chunks[i]![0]).toBe(chunks[i - 1]![1]);
    }
  });

  it("no statistics in v3; v1 and v2 paths are not served in v3 mode; a bad window costs no call", async () => {
    const s = await session("SandboxUser1");
    const stats = await proxyGet(base, s, `v3/users/self/statistics?${lastDay()}`);
    expect(stats.status).toBe(404);
    for (const p of ["v2/users/self/egvs", "v1/users/self/events", "v2/users/self/dataRange"]) {
      const res = await proxyGet(base, s, `${p}?${lastDay()}`);
      expect(res.status, p).toBe(404);
      expect((await res.json()).message, p).toContain("API v3");
    }
    const before = calls().length;
    const bad = await proxyGet(base, s, "v3/users/self/egvs?startDate=yesterday&endDate=2026-01-01T00:00:00");
    expect(bad.status).toBe(400);
    const long = await proxyGet(
      base,
      s,
      "v3/users/self/events?startDate=2000-01-01T00:00:00&endDate=2001-01-01T00:00:00",
    );
    expect(long.status).toBe(400);
    expect(calls().length).toBe(before);
  });
});

describe("what was asked of the service", () => {
  it("nothing but /v3/users/self/* data paths, and never a window over 30 days", () => {
    const all = calls();
    expect(all.length).toBeGreaterThan(50);
    for (const u of all) {
      expect(u.pathname).toMatch(
        /^\/sandbox\/v3\/users\/self\/(egvs|calibrations|events|alerts|devices|dataRange)$/,
      );
      const s = u.searchParams.get("startDate");
      const e = u.searchParams.get("endDate");
      if (s && e)
        expect(Date.parse(`${e}Z`) - Date.parse(`${s}Z`), u.href).toBeLessThanOrEqual(30 * MS_PER_DAY);
    }
  });
});
