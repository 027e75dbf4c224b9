import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MS_PER_DAY, MS_PER_HOUR } from "@/lib/cgm";
import type { Overview } from "@/lib/dashboard/overview-model";
import { type AppServer, startAppServer, UNLIMITED_CALL_BUDGET } from "../support/app-server";
import { type DashboardSession, signIn } from "../support/dashboard-client";
import { dt } from "../support/sandbox-client";

/**
 * Issue 15's test line: the dashboard in v3 mode shows, for every sandbox user, the same readings
 * and the same metrics as in v2 mode. Two servers of this file's own (whatever mode the suite's
 * server runs in), one CGM_API_VERSION=v2 and one v3, each with its own data folder and database:
 * the embedded sandbox seeds each user's data from the username and the clock, so both serve the
 * same readings. Each user signs in to both; the overview's JSON (what the overview page loads)
 * and the statistics by time of day are compared.
 *
 * Differences that are the point of v3 and are left out: who computed the hypoglycemia risk
 * (`by`), the service's own statistics column (v2 only), alerts (v3 only) and the event types v2
 * does not have (bloodGlucose, notes, unknown).
 */

const USERS = Array.from({ length: 8 }, (_, i) => `SandboxUser${i + 1}`);
/** SandboxUser7 (G7 15-day) and SandboxUser8 (ONE+) are served only through v3 (docs/sandbox-v3.md). */
const V3_ONLY = ["SandboxUser7", "SandboxUser8"];
/** SandboxUser6 signed up and never uploaded: no readings in either mode. */
const NO_DATA = "SandboxUser6";
const SAME_DATA = USERS.filter((u) => !V3_ONLY.includes(u) && u !== NO_DATA);
/** The event types of v2 (service-v3-notes §3.3: v3 adds bloodGlucose and notes, and unknown). */
const V2_EVENT_TYPES = new Set(["carbs", "insulin", "exercise", "health"]);

type Mode = "v2" | "v3";
const MODES: Mode[] = ["v2", "v3"];
const servers = {} as Record<Mode, AppServer>;
const dataDirs = {} as Record<Mode, string>;
const sessions = new Map<string, DashboardSession>();

async function session(mode: Mode, username: string): Promise<DashboardSession> {
  const key = `${mode} ${username}`;
  let s = sessions.get(key);
  if (!s) {
    s = await signIn(servers[mode].url, username);
    sessions.set(key, s);
  }
  return s;
}

async function get(mode: Mode, username: string, pathAndQuery: string): Promise<Response> {
  const res = await fetch(`${servers[mode].url}${pathAndQuery}`, {
    headers: { Cookie: (await session(mode, username)).cookie },
  });
  expect(res.status, `${mode} ${username} ${pathAndQuery}`).toBe(200);
  return res;
}

async function overviewOf(mode: Mode, username: string, range: string): Promise<Overview | null> {
  const res = await get(mode, username, `/api/dashboard/overview?range=${range}`);
  return ((await res.json()) as { overview: Overview | null }).overview;
}

/**
 * Both modes' overviews of one user, read at once. The sandboxes' data moves with the clock alike:
 * a new reading every five minutes, and a reading's smoothed value replaces its realtime one 15
 * minutes after it (lib/sandbox/data). A pair read across such a moment (the two servers answer a
 * moment apart) differs for that reason alone, and is read again.
 */
async function overviews(username: string, range: string) {
  for (let attempt = 0; ; attempt++) {
    const [v2, v3] = await Promise.all(MODES.map((m) => overviewOf(m, username, range)));
    const settled =
      v2?.dataEndMs === v3?.dataEndMs &&
      (!v2 || !v3 || JSON.stringify(readingsOf(v2)) === JSON.stringify(readingsOf(v3)));
    if (settled || attempt === 2) return { v2, v3 };
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * The display unit both modes show: v3 serves mg/dL only, so an mmol/L patient chooses mmol/L in
 * the settings (docs/dashboard-v3.md, "The display unit"); in v2 mode the data's own unit is
 * mmol/L. Chosen in both, so both pages show the same unit.
 */
const MMOL_USERS = ["SandboxUser3"];

/**
 * For an mmol/L patient the same glucose reaches the metrics as two different numbers: v2 serves
 * it in mmol/L rounded to one decimal, v3 in whole mg/dL (notes §3.1). A reading near a range's
 * bound (3.9 mmol/L = 70.3 mg/dL, 10.0 = 180.2) can fall on either side, so a few readings in a
 * thousand change range (and a mean of rounded values moves by a decimal); the metrics then agree
 * closely, not to the digit. Their texts follow the numbers and are not compared then.
 */
function close(a: unknown, b: unknown, at: string): void {
  if (typeof a === "number" && typeof b === "number") {
    // Counts (and whole percents) by 3, values by 0.2, or 5% of either.
    const slack = Number.isInteger(a) && Number.isInteger(b) ? 3 : 0.2;
    expect(Math.abs(a - b), `${at}: ${a} vs ${b}`).toBeLessThanOrEqual(
      Math.max(slack, 0.05 * Math.abs(b)) + 1e-9,
    );
  } else if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    expect(Object.keys(a).sort(), at).toEqual(Object.keys(b).sort());
    for (const [k, v] of Object.entries(a)) close(v, (b as Record<string, unknown>)[k], `${at}.${k}`);
  } else if (typeof a !== "string" || typeof b !== "string") {
    expect(a, at).toEqual(b);
  }
}

/**
 * KNOWN DIFFERENCE, not settled here: 2.2 mmol/L is both v2's LOW sentinel in mmol/L and a real
 * reading of 40 mg/dL. A reading whose smoothed value is 40 while its status says low reaches v2
 * mode as 2.2 with status low (read as LOW) and v3 mode as 40 mg/dL (a number, 2.2 on screen).
 * Such a reading is compared without its sentinel.
 */
const ambiguousLow = (r: unknown[]) =>
  r[1] === 2.2 && r.length === 4 ? [r[0], r[1], "low or 2.2", r[3]] : r;

/** A table cell's number ("80%", "8.6"), or null for one that is not a number. */
const numberOfCell = (text: string) => (/^-?\d+(\.\d+)?%?$/.test(text) ? Number.parseFloat(text) : null);

async function chooseUnit(mode: Mode, username: string, unit: string) {
  const base = servers[mode].url;
  const res = await fetch(`${base}/api/preferences/unit`, {
    method: "POST",
    headers: { Cookie: (await session(mode, username)).cookie, Origin: base },
    body: new URLSearchParams({ unit, returnTo: "/dashboard" }),
    redirect: "manual",
  });
  expect(res.status, `${mode} ${username} unit`).toBe(303);
}

/** What a reading shows on the trace: its moment, value (sentinels as LOW/HIGH) and trend. */
const readingsOf = (o: Overview) =>
  o.trace.points.map((p) => ("sentinel" in p ? [p.t, p.value, p.sentinel, p.trend] : [p.t, "gap"]));

/**
 * The events of v2's types, as v2 has them: v3 adds insulin's subtypes (fastActing, longActing;
 * service-v3-notes §3.3), which v2 does not know.
 */
const v2EventsOf = (o: Overview) =>
  o.events
    .filter((e) => V2_EVENT_TYPES.has(e.type))
    .map((e) => (e.type === "insulin" ? { ...e, subType: null } : e));

/** The metrics both modes compute themselves, from the same readings. */
function metricsOf(o: Overview) {
  const { startMs, endMs, days, ours, goals, headline, episodes } = o.summary;
  return { startMs, endMs, days, ours, goals, headline, episodes, latest: o.latest, unit: o.unit };
}

/**
 * The statistics by time of day of a fixed systemTime period (an explicit one, so the moving end
 * of the data plays no part): per window row, its name and its cells, as the page shows them.
 */
async function statisticsRows(mode: Mode, username: string, startMs: number, endMs: number) {
  const html = await (
    await get(mode, username, `/reports/statistics?startDate=${dt(startMs)}&endDate=${dt(endMs)}`)
  ).text();
  const rows = [
    ...html.matchAll(/<tr[^>]*data-testid="(window-result|together-result)"[^>]*>([\s\S]*?)<\/tr>/g),
  ];
  return rows.map(([whole, kind, row = ""]) => ({
    kind,
    window: /data-window="([^"]*)"/.exec(whole)?.[1] ?? null,
    cells: [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map(([, cell = ""]) =>
      cell
        .replace(/<!-- -->/g, "")
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .trim(),
    ),
  }));
}

beforeAll(async () => {
  await Promise.all(
    MODES.map(async (mode) => {
      dataDirs[mode] = mkdtempSync(path.join(tmpdir(), `glucose-modes-${mode}-`));
      servers[mode] = await startAppServer({
        ...UNLIMITED_CALL_BUDGET,
        CGM_API_VERSION: mode,
        DATA_DIR: dataDirs[mode],
        // Each its own PGlite in its folder, also when the suite's server runs on PostgreSQL.
        DATABASE_URL: undefined,
      });
    }),
  );
  for (const u of MMOL_USERS) await Promise.all(MODES.map((m) => chooseUnit(m, u, "mmol/L")));
}, 120_000);

afterAll(async () => {
  await Promise.all(MODES.map((m) => servers[m]?.stop()));
  for (const m of MODES) if (dataDirs[m]) rmSync(dataDirs[m], { recursive: true, force: true });
});

describe("the overview in v2 mode and in v3 mode", () => {
  it.each(SAME_DATA)(
    "%s: the same readings, metrics, risk, calibrations and events over 14 and 90 days",
    async (u) => {
      for (const range of ["14d", "90d"]) {
        const { v2, v3 } = await overviews(u, range);
        if (!v2 || !v3) throw new Error(`${u} ${range}: no overview (v2 ${!!v2}, v3 ${!!v3})`);
        const at = `${u} ${range}`;
        expect(v3.dataEndMs, at).toBe(v2.dataEndMs);
        expect(v3.trace.readings, at).toBe(v2.trace.readings);
        expect(v3.trace.readings, at).toBeGreaterThan(0);
        if (MMOL_USERS.includes(u))
          expect(readingsOf(v3).map(ambiguousLow), at).toEqual(readingsOf(v2).map(ambiguousLow));
        else expect(readingsOf(v3), at).toEqual(readingsOf(v2));
        if (MMOL_USERS.includes(u)) close(metricsOf(v3), metricsOf(v2), at);
        else expect(metricsOf(v3), at).toEqual(metricsOf(v2));
        // v3 has no statistics: the dashboard's risk, by the service's method, is v2's service risk.
        expect([v2.summary.hypoglycemiaRisk.by, v3.summary.hypoglycemiaRisk.by]).toEqual([
          "service",
          "dashboard",
        ]);
        expect(v3.summary.hypoglycemiaRisk.risk, at).toBe(v2.summary.hypoglycemiaRisk.risk);
        expect(v3.calibrations, at).toEqual(v2.calibrations);
        expect(v2EventsOf(v3), at).toEqual(v2EventsOf(v2));
        expect(
          v2.events.filter((e) => e.type === "insulin" && e.subType !== null),
          at,
        ).toEqual([]);
        expect(v2.alerts, at).toEqual([]);
      }
    },
    60_000,
  );

  it.each(V3_ONLY)(
    "%s: readings in v3 mode only, as the service serves its device only through v3",
    async (u) => {
      const { v2, v3 } = await overviews(u, "14d");
      // v2 has no data range for this account, so the overview has nothing to show.
      expect(v2, `${u} v2`).toBeNull();
      expect(v3?.trace.readings, `${u} v3`).toBeGreaterThan(0);
      expect(v3?.summary.hypoglycemiaRisk.by).toBe("dashboard");
    },
  );

  it(`${NO_DATA}, who never uploaded: no overview in either mode`, async () => {
    const { v2, v3 } = await overviews(NO_DATA, "14d");
    expect([v2, v3]).toEqual([null, null]);
  });
});

describe("statistics by time of day in v2 mode and in v3 mode", () => {
  it.each(SAME_DATA)("%s: the same table over the same 14 days", async (u) => {
    const o = await overviewOf("v3", u, "24h");
    if (!o) throw new Error(`${u}: no overview`);
    // Whole hours, an hour before the newest reading: the same period in both modes.
    const endMs = Math.floor(o.dataEndMs / MS_PER_HOUR) * MS_PER_HOUR - MS_PER_HOUR;
    const startMs = endMs - 14 * MS_PER_DAY;
    const [v2, v3] = await Promise.all(MODES.map((m) => statisticsRows(m, u, startMs, endMs)));
    expect(v2?.length, u).toBeGreaterThan(1);
    if (!MMOL_USERS.includes(u)) {
      expect(v3, u).toEqual(v2);
      return;
    }
    const numbers = (rows: typeof v2) =>
      rows?.map((r) => ({ ...r, cells: r.cells.map((c) => numberOfCell(c) ?? c) }));
    close(numbers(v3), numbers(v2), u);
  });
});
