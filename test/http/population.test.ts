import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { type EgvV2, MS_PER_DAY, parseDateTime, windowOf } from "@/lib/cgm";
import { metricValueMgdl } from "@/lib/cgm/values";
import { CONSENSUS_TRIAGE, percentBesideThresholds } from "@/lib/clinic/domain/triage";
import type { PopulationRow } from "@/lib/clinic/views/population-model";
import { reportMetrics } from "@/lib/metrics/report";
import { dayRollups } from "@/lib/sync/daily";
import { periodEpisodes } from "@/lib/sync/period-episodes";
import { statisticsWindow } from "@/lib/sync/statistics-plan";
import { clientUnderTest } from "../support/client-under-test";
import { signIn as patientSignIn, setCookieOf } from "../support/dashboard-client";

/**
 * The population view against the real sandbox: sandbox users connected through the real
 * authorization flow, linked to a clinic's patients directly in the database (the invitation flow
 * is another part's), synced by lib/sync, then the view's numbers checked against lib/metrics
 * applied to the service's own EGVs of the same days, and its hypoglycemia risk against the
 * service's statistics. The sync and the view run in this process on its database (PGlite in a
 * temporary folder, or TEST_DATABASE_URL); with PostgreSQL the server shares that database, so
 * the page itself is read over HTTP too. Access rules and the thresholds form run on both.
 */

const base = inject("baseUrl");
let client: Awaited<ReturnType<typeof clientUnderTest>>;
let sync: typeof import("@/lib/sync/pass");
let service: typeof import("@/lib/service-client/client");
let population: typeof import("@/lib/clinic/views/population");
let triageSettings: typeof import("@/lib/clinic/domain/triage-settings");
let clinics: typeof import("@/lib/clinic/domain/clinics");
let database: import("@/lib/db").Db;
let schema: typeof import("@/lib/db").schema;
let orm: typeof import("drizzle-orm");

/** The sync's calls for the risk: v2's statistics, or v3's EGVs of the 14-day statistics window. */
const statisticsCalls: string[] = [];
function isRiskCall(url: string): boolean {
  if (url.startsWith(`${base}/sandbox/v2/users/self/statistics`)) return true;
  if (!url.startsWith(`${base}/sandbox/v3/users/self/egvs`)) return false;
  const q = new URL(url).searchParams;
  const ms = (t: string | null) => Date.parse(`${t}Z`);
  // v3 asks one second past the window's end (its end is excluded).
  return ms(q.get("endDate")) - ms(q.get("startDate")) === 14 * MS_PER_DAY + 1000;
}
const realFetch = globalThis.fetch;
/** While set, the service's data requests it matches are answered 400 (not retried) here. */
let refuse: ((url: URL) => boolean) | null = null;

beforeAll(async () => {
  client = await clientUnderTest(base);
  sync = await import("@/lib/sync/pass");
  service = await import("@/lib/service-client/client");
  population = await import("@/lib/clinic/views/population");
  triageSettings = await import("@/lib/clinic/domain/triage-settings");
  clinics = await import("@/lib/clinic/domain/clinics");
  orm = await import("drizzle-orm");
  const dbModule = await import("@/lib/db");
  database = await dbModule.db();
  schema = dbModule.schema;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (isRiskCall(url)) statisticsCalls.push(url);
    if (refuse?.(new URL(url)))
      return Promise.resolve(
        Response.json(
          { error: "invalid_request", error_description: "refused by the test" },
          { status: 400 },
        ),
      );
    return realFetch(input, init);
  });
});

afterAll(() => {
  vi.restoreAllMocks();
});

/** Whatever its connection's sync says, the patient as the view's test expects it. */
interface Linked {
  patientId: string;
  connectionId: string;
  username: string;
}

async function addPatient(clinicId: string, name: string, values: Record<string, unknown> = {}) {
  const id = randomUUID();
  await database.insert(schema.clinicPatients).values({ id, clinicId, name, ...values });
  return id;
}

/**
 * The metrics of the view's definition computed from the service's own EGVs: the patient's clock
 * from their newest reading, the 14 displayTime dates ending with "today" on it, lib/metrics.
 */
function expectedFrom(egvs: EgvV2[], unit: "mg/dL" | "mmol/L", nowMs: number) {
  const newest = egvs.reduce((a, b) => (b.systemTime > a.systemTime ? b : a));
  const offset = (parseDateTime(newest.displayTime) ?? 0) - (parseDateTime(newest.systemTime) ?? 0);
  const localNow = nowMs + offset;
  const today = Math.floor(localNow / MS_PER_DAY) * MS_PER_DAY;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const first = day(today - 13 * MS_PER_DAY);
  const previousFirst = day(today - 27 * MS_PER_DAY);
  const last = day(today);
  const values = (from: string, to: string) =>
    egvs
      .filter((e) => e.displayTime.slice(0, 10) >= from && e.displayTime.slice(0, 10) <= to)
      .flatMap((e) => (typeof e.value === "number" ? [metricValueMgdl(e.value, unit, e.status)] : []));
  const current = reportMetrics(values(first, last), today - 13 * MS_PER_DAY, localNow);
  const previous = reportMetrics(values(previousFirst, day(today - 14 * MS_PER_DAY)), 0, 1);
  return {
    current,
    previousInRange: previous.timeInRanges?.inRange ?? null,
    first,
    last,
    newestMs: parseDateTime(newest.systemTime) ?? 0,
    offset,
  };
}

describe("the population view of a clinic", () => {
  const clinicId = randomUUID();
  const linked: Linked[] = [];
  let invitedId = "";
  let withdrawnId = "";

  it("syncs the clinic's patients, with the service's statistics once, and keeps the daily sums equal to the rows", async () => {
    const adminId = randomUUID();
    await database.insert(schema.users).values({ id: adminId, name: "Dr Population" });
    await database.insert(schema.clinics).values({ id: clinicId, name: "Population test clinic" });
    await database.insert(schema.clinicMembers).values({ clinicId, userId: adminId, role: "admin" });
    // User1: trips to far zones; User2: lows and sentinels; User3: mmol/L; User6: no data.
    for (const username of ["SandboxUser1", "SandboxUser2", "SandboxUser3", "SandboxUser6"]) {
      const connectionId = await client.connectPatient(username);
      const patientId = await addPatient(clinicId, `Patient ${username}`, {
        connectionId,
        birthDate: "1980-05-17",
        acceptedAt: new Date(),
      });
      linked.push({ patientId, connectionId, username });
    }
    invitedId = await addPatient(clinicId, "Invited Ivy", {
      inviteExpiresAt: new Date(Date.now() + 86_400_000),
    });
    withdrawnId = await addPatient(clinicId, "Withdrawn Walt", {
      acceptedAt: new Date(),
      withdrawnAt: new Date(),
    });

    const ids = linked.map((l) => l.connectionId);
    statisticsCalls.length = 0;
    const first = await sync.runSyncPass({
      connectionIds: ids,
      concurrency: 2,
      settings: { backfillDays: 30 },
    });
    expect(first).toMatchObject({ synced: 4, failed: 0 });
    // One statistics call for each patient with data (User6 has none: nothing to ask about).
    expect(statisticsCalls).toHaveLength(3);
    for (const o of first.outcomes) {
      if (o.result !== "synced") throw new Error(o.error);
      const withData = o.groups.length > 0;
      expect(o.calls).toBe(1 + o.groups.length + (withData ? 1 : 0));
    }

    // The next pass right after: at most dataRange and one EGV call each, and no statistics.
    statisticsCalls.length = 0;
    const second = await sync.runSyncPass({ connectionIds: ids, concurrency: 2 });
    expect(statisticsCalls).toHaveLength(0);
    for (const o of second.outcomes) expect(o.calls).toBeLessThanOrEqual(2);

    // The daily sums are those of the stored rows, day by day.
    for (const { connectionId } of linked) {
      const rows = await database
        .select()
        .from(schema.syncedEgvs)
        .where(orm.eq(schema.syncedEgvs.connectionId, connectionId));
      const stored = await database
        .select()
        .from(schema.syncedEgvDays)
        .where(orm.eq(schema.syncedEgvDays.connectionId, connectionId))
        .orderBy(schema.syncedEgvDays.day);
      const recount = dayRollups(rows);
      expect(stored.map(({ connectionId: _, updatedAt: __, sum, sumOfSquares, ...d }) => d)).toEqual(
        recount.map(({ sum, sumOfSquares, ...d }) => d),
      );
      stored.forEach((d, i) => {
        expect(d.sum).toBeCloseTo(recount[i]?.sum ?? Number.NaN, 6);
        expect(d.sumOfSquares).toBeCloseTo(recount[i]?.sumOfSquares ?? Number.NaN, 3);
      });
    }
  });

  it("shows each patient's metrics as lib/metrics computes them from the service's EGVs", async () => {
    const ids = linked.map((l) => l.connectionId);
    const newestOf = async () =>
      Promise.all(ids.map(async (id) => (await service.getDataRange(id)).egvs?.end.systemTime ?? null));
    /**
     * The sandbox is live: every 5 minutes a reading is released and an older one gets its smoothed
     * value. A snapshot (resync, the view, the service's records) taken across such a moment
     * compares a store and a service one tick apart, so it is taken again.
     */
    const snapshot = async () => {
      await sync.runSyncPass({ connectionIds: ids, concurrency: 2 });
      const now = new Date();
      const view = await population.populationOf(clinicId, now);
      const served = [];
      for (const l of linked) {
        const range = await service.getDataRange(l.connectionId);
        if (!range.egvs) {
          served.push({ l, end: 0, unit: "mg/dL" as const, egvs: [] as EgvV2[], risk: null });
          continue;
        }
        const end = parseDateTime(range.egvs.end.systemTime) ?? 0;
        // The readings as the dashboard reads them (CGM_API_VERSION); the risk always v2's own.
        const { unit, egvs } = await service.getEgvs(
          l.connectionId,
          service.configuredVersion(),
          windowOf(end - 30 * MS_PER_DAY, end),
        );
        // The service's own risk for the window the sync asked about.
        const w = statisticsWindow(end);
        const stats = await service.getStatistics(l.connectionId, "v2", windowOf(w.startMs, w.endMs), {
          targetRanges: [
            {
              name: "Whole day",
              startTime: "00:00:00",
              endTime: "00:00:00",
              egvRanges: [
                { name: "urgentLow", bound: unit === "mg/dL" ? 54 : 3 },
                { name: "low", bound: unit === "mg/dL" ? 70 : 3.9 },
                { name: "high", bound: unit === "mg/dL" ? 180 : 10 },
              ],
            },
          ],
        });
        served.push({ l, end, unit, egvs, risk: stats.hypoglycemiaRisk });
      }
      return { now, view, served };
    };
    const { now, view, served } = await (async () => {
      for (let attempt = 1; ; attempt++) {
        const before = await newestOf();
        const s = await snapshot();
        if (JSON.stringify(await newestOf()) === JSON.stringify(before) || attempt === 3) return s;
      }
    })();
    expect(view.thresholds).toMatchObject({ custom: false, veryLowPercent: 1, inRangeDropPoints: 15 });
    const byId = new Map(view.rows.map((r) => [r.id, r]));
    expect(view.rows).toHaveLength(6);
    expect(byId.get(invitedId)).toMatchObject({ status: "invited", metrics: null, flags: [] });
    expect(byId.get(withdrawnId)).toMatchObject({ status: "withdrawn", metrics: null, flags: [] });

    let checked = 0;
    for (const { l, end, unit, egvs, risk } of served) {
      const row = byId.get(l.patientId) as PopulationRow;
      expect(row.status).toBe("connected");
      if (!end) {
        // User6: synced, nothing to measure; zero sensor use is flagged.
        expect(row.metrics).toMatchObject({ nValues: 0, timeInRanges: null, sensorActivePercent: 0 });
        expect(row.flags).toEqual(["sensor"]);
        expect(row.riskKnown).toBe(false);
        continue;
      }
      const expected = expectedFrom(egvs, unit, now.getTime());
      expect(row.firstDay).toBe(expected.first);
      expect(row.lastDay).toBe(expected.last);
      const m = row.metrics;
      if (!m) throw new Error("no metrics");
      expect(m.nValues).toBe(expected.current.nValues);
      expect(m.nValues).toBeGreaterThan(1000);
      expect(m.timeInRanges).toEqual(expected.current.timeInRanges);
      // Issue 14: time in tight range from the rollup's 70–140 count, as lib/metrics counts the readings.
      expect(m.timeInTightRange).toBe(expected.current.timeInTightRange);
      expect(m.timeInTightRange).toBeGreaterThan(0);
      expect(m.mean).toBeCloseTo(expected.current.mean ?? Number.NaN, 9);
      expect(m.gmi).toBeCloseTo(expected.current.gmi ?? Number.NaN, 9);
      expect(m.cv).toBeCloseTo(expected.current.cv ?? Number.NaN, 6);
      expect(m.gri).toBeCloseTo(expected.current.gri ?? Number.NaN, 9);
      expect(m.sensorActivePercent).toBeCloseTo(expected.current.sensorActivePercent ?? Number.NaN, 9);
      expect(row.previousInRange).toBe(expected.previousInRange);
      expect(row.daysSinceLastData).toBe(Math.floor((now.getTime() - expected.newestMs) / MS_PER_DAY));
      expect(row.riskKnown).toBe(true);
      expect(row.hypoglycemiaRisk).toBe(risk);
      checked++;
    }
    expect(checked).toBe(3);
    // SandboxUser2's lows reach the flags.
    const user2 = byId.get(linked.find((l) => l.username === "SandboxUser2")?.patientId ?? "");
    expect(user2?.metrics?.timeInRanges?.veryLow).toBeGreaterThan(0);
  });

  it("counts each patient's level 2 lows over the view's period, as the patient's own summary API does", async () => {
    const ids = linked.map((l) => l.connectionId);
    const user2 = linked.find((l) => l.username === "SandboxUser2");
    if (!user2) throw new Error("no SandboxUser2");
    const session = await patientSignIn(base, "SandboxUser2");
    const newestOf = async () =>
      Promise.all(ids.map(async (id) => (await service.getDataRange(id)).egvs?.end.systemTime ?? null));
    /** The sync, the view, the stored counts, each patient's service EGVs and SandboxUser2's summary. */
    const snapshot = async () => {
      await sync.runSyncPass({ connectionIds: ids, concurrency: 2 });
      const now = new Date();
      const view = await population.populationOf(clinicId, now);
      const stored = await database
        .select()
        .from(schema.syncedEpisodes)
        .where(orm.inArray(schema.syncedEpisodes.connectionId, ids));
      const served = new Map<string, { unit: "mg/dL" | "mmol/L"; egvs: EgvV2[] }>();
      for (const l of linked) {
        const range = await service.getDataRange(l.connectionId);
        if (!range.egvs) continue;
        const end = parseDateTime(range.egvs.end.systemTime) ?? 0;
        served.set(
          l.connectionId,
          await service.getEgvs(l.connectionId, "v2", windowOf(end - 30 * MS_PER_DAY, end)),
        );
      }
      // The patient's summary for the row's period: its days on the patient's clock (whose
      // offset is that of the newest reading) are a window on systemTime from the first day's
      // 00:00 to the newest reading the sync stored.
      const row = view.rows.find((r) => r.id === user2.patientId);
      const own = served.get(user2.connectionId);
      if (!row?.firstDay || !row.lastDataAt || !own) throw new Error("SandboxUser2 has no period");
      const { offset } = expectedFrom(own.egvs, own.unit, now.getTime());
      const startMs = Date.parse(`${row.firstDay}T00:00:00Z`) - offset;
      const endMs = Date.parse(row.lastDataAt);
      const { startDate, endDate } = windowOf(startMs, endMs);
      const res = await fetch(`${base}/api/reports/summary?${new URLSearchParams({ startDate, endDate })}`, {
        headers: { Cookie: session.cookie },
      });
      expect(res.status).toBe(200);
      return { now, view, stored, served, summary: await res.json(), window: { startMs, endMs } };
    };
    const { view, stored, served, summary, window } = await (async () => {
      for (let attempt = 1; ; attempt++) {
        const before = await newestOf();
        const s = await snapshot();
        if (JSON.stringify(await newestOf()) === JSON.stringify(before) || attempt === 3) return s;
      }
    })();

    // Each patient's row shows the count stored for that patient's connection, made from that
    // patient's own readings of the row's days, never another's.
    const byConnection = new Map(stored.map((e) => [e.connectionId, e]));
    let counted = 0;
    for (const l of linked) {
      const row = view.rows.find((r) => r.id === l.patientId) as PopulationRow;
      const own = served.get(l.connectionId);
      if (!own) {
        // User6: no readings, nothing stored, nothing shown.
        expect(byConnection.has(l.connectionId)).toBe(false);
        expect(row.veryLowEpisodes).toBeNull();
        continue;
      }
      const e = byConnection.get(l.connectionId);
      expect(e).toMatchObject({
        firstDay: row.firstDay,
        lastDay: row.lastDay,
        nValues: row.metrics?.nValues,
      });
      const fromService = periodEpisodes(
        [...own.egvs]
          .sort((a, b) => (a.systemTime < b.systemTime ? -1 : 1))
          .map((r) => ({
            displayTime: r.displayTime,
            metricMgdl: metricValueMgdl(r.value, own.unit, r.status),
          })),
        { firstDay: row.firstDay ?? "", lastDay: row.lastDay ?? "" },
      );
      expect(e?.hypoLevel2Count).toBe(fromService.hypoLevel2Count);
      expect(e?.hypoLevel2PerDay).toBe(fromService.hypoLevel2PerDay);
      expect(row.veryLowEpisodes).toEqual({
        state: "known",
        perWeek: (fromService.hypoLevel2PerDay ?? Number.NaN) * 7,
        count: fromService.hypoLevel2Count,
        sensorDays: (fromService.validGridMinutes ?? Number.NaN) / 1440,
      });
      counted++;
    }
    expect(counted).toBe(3);

    // SandboxUser2: the summary API's period is the row's. The window holds exactly the readings
    // of the row's days (the patient's clock does not move in it), and as many as the row counts.
    const row = view.rows.find((r) => r.id === user2.patientId) as PopulationRow;
    const own = served.get(user2.connectionId)?.egvs ?? [];
    const byDay = own.filter(
      (r) =>
        r.displayTime.slice(0, 10) >= (row.firstDay ?? "") &&
        r.displayTime.slice(0, 10) <= (row.lastDay ?? ""),
    );
    const byWindow = own.filter((r) => {
      const t = parseDateTime(r.systemTime) ?? 0;
      return t >= window.startMs && t <= window.endMs;
    });
    expect(byWindow.map((r) => r.systemTime)).toEqual(byDay.map((r) => r.systemTime));
    expect(summary.nValues).toBe(row.metrics?.nValues);
    const level2 = summary.episodes.hypoLevel2;
    expect(level2.count).toBeGreaterThan(0);
    const shown = row.veryLowEpisodes;
    if (shown?.state !== "known") throw new Error("SandboxUser2's episodes are not shown");
    expect(shown.count).toBe(level2.count);
    expect(shown.perWeek).toBe(level2.perDay * 7);
    expect(shown.perWeek.toFixed(1)).toBe((level2.perDay * 7).toFixed(1));

    // A day later the stored count is of another period: the row waits for the next sync.
    const tomorrow = await population.populationOf(clinicId, new Date(Date.now() + MS_PER_DAY));
    expect(tomorrow.rows.find((r) => r.id === user2.patientId)?.veryLowEpisodes).toEqual({
      state: "pending",
    });
    // The next sync, with nothing new to write, counts the new period (at its own now).
    const refresh = await import("@/lib/sync/episodes-store");
    const later = await refresh.refreshPeriodEpisodes(
      database,
      user2.connectionId,
      { clinicPatient: true, egvsWritten: false },
      Date.now() + MS_PER_DAY,
    );
    expect(later?.lastDay).toBe(tomorrow.rows.find((r) => r.id === user2.patientId)?.lastDay);
    // Patients of no clinic are not counted.
    expect(
      await refresh.refreshPeriodEpisodes(database, user2.connectionId, {
        clinicPatient: false,
        egvsWritten: true,
      }),
    ).toBeNull();
    await refresh.refreshPeriodEpisodes(database, user2.connectionId, {
      clinicPatient: true,
      egvsWritten: true,
    });
  });

  it("saves a clinic's thresholds for administrators only, and flags with them", async () => {
    const [admin] = await database
      .select()
      .from(schema.clinicMembers)
      .where(orm.eq(schema.clinicMembers.clinicId, clinicId));
    const strict = {
      veryLowPercent: "0.1",
      lowPercent: "0.5",
      veryHighPercent: "0.1",
      highPercent: "1",
      inRangeBelowPercent: "99",
      inRangeDropPoints: "1",
      sensorBelowPercent: "99",
    };
    const bad = await triageSettings.saveTriageSettings(clinicId, admin?.userId ?? "", {
      ...strict,
      lowPercent: "0",
    });
    expect(bad).toEqual({
      ok: false,
      field: "lowPercent",
      message: "Time below 70 mg/dL: enter a percentage from 0.1 to 100, like 4 (the consensus default).",
    });
    const clinicianId = randomUUID();
    await database.insert(schema.users).values({ id: clinicianId, name: "Dr Not Admin" });
    await database.insert(schema.clinicMembers).values({ clinicId, userId: clinicianId, role: "clinician" });
    await expect(triageSettings.saveTriageSettings(clinicId, clinicianId, strict)).rejects.toMatchObject({
      status: 403,
    });
    expect(await clinics.roleIn(clinicianId, clinicId)).toBe("clinician");

    expect(await triageSettings.saveTriageSettings(clinicId, admin?.userId ?? "", strict)).toMatchObject({
      ok: true,
    });
    const view = await population.populationOf(clinicId);
    expect(view.thresholds).toMatchObject({ custom: true, veryLowPercent: 0.1, sensorBelowPercent: 99 });
    const user2 = view.rows.find((r) => r.name === "Patient SandboxUser2");
    expect(user2?.flags).toEqual(expect.arrayContaining(["veryLow", "low", "inRange"]));
    await triageSettings.resetTriageSettings(clinicId, admin?.userId ?? "");
    expect((await triageSettings.triageSettingsOf(clinicId)).custom).toBe(false);
  });
});

// ---- Over HTTP: the page and its form, as a browser would use them ----

const PASSWORD = "a long enough password";
let address = 0;
const freshIp = () => `203.0.113.${++address}`;

function post(path: string, fields: Record<string, string>, cookie?: string, origin: string | null = base) {
  return fetch(`${base}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      ...(origin ? { Origin: origin } : {}),
      ...(cookie ? { Cookie: cookie } : {}),
      "X-Forwarded-For": freshIp(),
    },
    body: new URLSearchParams(fields),
  });
}

const get = (path: string, cookie?: string) =>
  fetch(`${base}${path}`, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });

async function clinician(name: string) {
  const res = await post("/api/clinic/sign-up", {
    name,
    clinicName: `Clinic ${randomUUID().slice(0, 6)}`,
    email: `pop-${randomUUID().slice(0, 8)}@clinic.example`,
    password: PASSWORD,
  });
  const cookie = setCookieOf(res, "glucose.session")?.split(";")[0];
  if (res.status !== 303 || !cookie) throw new Error(`sign-up: ${res.status}`);
  const clinicId = new URL(res.headers.get("location") ?? "", base).searchParams.get("clinic") ?? "";
  return { cookie, clinicId };
}

const THRESHOLDS = {
  veryLowPercent: "2",
  lowPercent: "5",
  veryHighPercent: "6",
  highPercent: "30",
  inRangeBelowPercent: "60",
  inRangeDropPoints: "10",
  sensorBelowPercent: "50",
};

describe("the population page", () => {
  let a: { cookie: string; clinicId: string };
  let b: { cookie: string; clinicId: string };

  beforeAll(async () => {
    a = await clinician("Dr Alpha");
    b = await clinician("Dr Beta");
  });

  it("opens for the clinic's members and is a 404 for another clinic's, a 403 for a patient", async () => {
    const own = await get(`/clinic/population?clinic=${a.clinicId}`, a.cookie);
    expect(own.status).toBe(200);
    const html = await own.text();
    expect(html).toContain("population");
    expect(html).toContain("Triage thresholds");
    expect(html).toContain('name="inRangeDropPoints"');
    expect((await get(`/clinic/population?clinic=${a.clinicId}`, b.cookie)).status).toBe(404);
    expect((await get(`/clinic/population?clinic=no-such-clinic`, b.cookie)).status).toBe(404);
    const patient = await patientSignIn(base, "SandboxUser5");
    const refused = await get(`/clinic/population?clinic=${a.clinicId}`, patient.cookie);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("This page is for clinicians");
    expect((await get(`/clinic/population?clinic=${a.clinicId}`)).status).toBe(307);
  });

  it("lets the administrator change the thresholds, and words a wrong value", async () => {
    const wrong = await post(
      "/api/clinic/triage",
      { clinicId: a.clinicId, ...THRESHOLDS, sensorBelowPercent: "150" },
      a.cookie,
    );
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get("location")).toBe(
      `/clinic/population?clinic=${a.clinicId}&error=sensorBelowPercent#thresholds`,
    );
    const worded = await (await get(wrong.headers.get("location") ?? "", a.cookie)).text();
    expect(worded).toContain(
      "Sensor use: enter a percentage from 1 to 100, like 70 (the consensus default).",
    );

    const saved = await post("/api/clinic/triage", { clinicId: a.clinicId, ...THRESHOLDS }, a.cookie);
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe(`/clinic/population?clinic=${a.clinicId}&saved=1#thresholds`);
    const page = await (await get(saved.headers.get("location") ?? "", a.cookie)).text();
    expect(page).toContain("Thresholds saved.");
    expect(page).toMatch(/name="inRangeDropPoints"[^>]*value="10"/);
    expect(page).toContain("This clinic&#x27;s own thresholds.");

    // Another clinic's administrator, and a request from another site, are refused.
    const other = await post("/api/clinic/triage", { clinicId: a.clinicId, ...THRESHOLDS }, b.cookie);
    expect(other.status).toBe(403);
    const crossSite = await post(
      "/api/clinic/triage",
      { clinicId: a.clinicId, ...THRESHOLDS },
      a.cookie,
      "https://evil.example",
    );
    expect(crossSite.status).toBe(403);

    const reset = await post("/api/clinic/triage", { clinicId: a.clinicId, action: "reset" }, a.cookie);
    expect(reset.headers.get("location")).toBe(
      `/clinic/population?clinic=${a.clinicId}&saved=reset#thresholds`,
    );
    expect(await (await get(reset.headers.get("location") ?? "", a.cookie)).text()).toMatch(
      /name="inRangeDropPoints"[^>]*value="15"/,
    );
  });

  // The server reads the database this process synced into only when both are the PostgreSQL.
  it.runIf(process.env.TEST_DATABASE_URL)(
    "shows the synced patients' numbers, each row linking to the patient's pages",
    async () => {
      const ids: string[] = [];
      const linkedHere: { id: string; connectionId: string }[] = [];
      for (const username of ["SandboxUser2", "SandboxUser3"]) {
        const connectionId = await client.connectPatient(username);
        const id = await addPatient(a.clinicId, `Web ${username}`, { connectionId, acceptedAt: new Date() });
        ids.push(connectionId);
        linkedHere.push({ id, connectionId });
      }
      const pending = await addPatient(a.clinicId, "Web Pending");
      await sync.runSyncPass({ connectionIds: ids, settings: { backfillDays: 30 } });
      const view = await population.populationOf(a.clinicId);
      const html = await (await get(`/clinic/population?clinic=${a.clinicId}`, a.cookie)).text();
      // A patient who has not shared yet has no report to open.
      const pendingRow = new RegExp(`<tr[^>]*data-patient="${pending}"[\\s\\S]*?</tr>`).exec(html)?.[0] ?? "";
      expect(pendingRow).toContain("Web Pending");
      expect(pendingRow).not.toContain("/agp");
      expect(pendingRow).toContain("no report: not sharing data");
      for (const { id } of linkedHere) {
        const row = view.rows.find((r) => r.id === id);
        const t = row?.metrics?.timeInRanges;
        if (!row || !t) throw new Error("no metrics");
        const tr = new RegExp(`<tr[^>]*data-patient="${id}"[\\s\\S]*?</tr>`).exec(html)?.[0] ?? "";
        expect(tr).toContain(`href="/clinic/patients/${id}"`);
        expect(tr).toContain(`href="/clinic/patients/${id}/agp"`);
        const cellHtml = (col: string) =>
          new RegExp(`data-col="${col}"[^>]*>([\\s\\S]*?)</td>`).exec(tr)?.[1]?.replace(/<!-- -->/g, "");
        // A judged cell holds its value and, under it, the goal met or not in words.
        const cell = (col: string) => {
          const html = cellHtml(col);
          return /<span data-value="">([^<]*)<\/span>/.exec(html ?? "")?.[1] ?? html;
        };
        // One decimal, or more where one would round onto a flag's threshold (the clinic's are the consensus').
        const shown = (v: number, threshold: number) => `${percentBesideThresholds(v, [threshold])} %`;
        expect(cell("veryLow")).toBe(shown(t.veryLow, CONSENSUS_TRIAGE.veryLowPercent));
        expect(cell("low")).toBe(shown(t.veryLow + t.low, CONSENSUS_TRIAGE.lowPercent));
        expect(cell("inRange")).toBe(shown(t.inRange, CONSENSUS_TRIAGE.inRangeBelowPercent));
        const inRangeMet = row.metrics?.goals.find((g) => g.metric === "timeInRange")?.met;
        expect(cellHtml("inRange")).toContain(inRangeMet ? "met" : "not met");
        expect(cellHtml("inRange")).toContain(`data-met="${inRangeMet}"`);
        expect(cell("tightRange")).toBe(`${percentBesideThresholds(row.metrics!.timeInTightRange!, [])} %`);
        expect(cell("mean")).toBe(String(Math.round(row.metrics?.mean ?? Number.NaN)));
        expect(cell("gri")).toBe(row.metrics?.gri?.toFixed(1));
        // Level 2 lows per week, as synced for this patient (issue 14); 0 written as 0.
        const episodes = row.veryLowEpisodes;
        if (episodes?.state !== "known") throw new Error("no episodes counted");
        expect(cell("veryLowEpisodes")).toBe(episodes.count === 0 ? "0" : episodes.perWeek.toFixed(1));
        expect(cellHtml("veryLowEpisodes")).toContain(`data-count="${episodes.count}"`);
        // The newest reading's moment: written in UTC with the zone named, the viewer's clock once the page runs.
        const lastData = cellHtml("lastData") ?? "";
        expect(lastData).toMatch(new RegExp(`datetime="${row.lastDataAt}"`, "i"));
        expect(lastData).toMatch(/title="Last reading \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC"/);
        expect(lastData).not.toContain(`title="${row.lastDataAt}"`);
        for (const f of row.flags) expect(tr).toContain(`data-flag="${f}"`);
      }

      // The clinician switches to mmol/L: the edges and the mean follow, the percentages do not change.
      expect((await post("/api/preferences/unit", { unit: "stone" }, a.cookie)).status).toBe(400);
      const switched = await post(
        "/api/preferences/unit",
        { unit: "mmol/L", returnTo: `/clinic/population?clinic=${a.clinicId}` },
        a.cookie,
      );
      expect(switched.status).toBe(303);
      expect(switched.headers.get("location")).toBe(`/clinic/population?clinic=${a.clinicId}`);
      const mmol = (await (await get(`/clinic/population?clinic=${a.clinicId}`, a.cookie)).text()).replace(
        /<!-- -->/g,
        "",
      );
      expect(mmol).toMatch(/aria-pressed="true"[^>]*>mmol\/L</);
      expect(mmol).toContain("&lt; 3.0");
      expect(mmol).toContain("time below 3.9 mmol/L");
      for (const { id } of linkedHere) {
        const row = view.rows.find((r) => r.id === id);
        const tr = new RegExp(`<tr[^>]*data-patient="${id}"[\\s\\S]*?</tr>`).exec(mmol)?.[0] ?? "";
        const mean = /data-col="mean"[^>]*>([\s\S]*?)<\/td>/.exec(tr)?.[1];
        // mg/dL ÷ 18.0182 (lib/cgm/units.ts), to one decimal.
        expect(mean).toBe((Math.round(((row?.metrics?.mean ?? Number.NaN) / 18.0182) * 10) / 10).toFixed(1));
        if (row?.flags.includes("low")) expect(tr).toContain("Below 3.9 ≥ 4 %");
      }
      await post("/api/preferences/unit", { unit: "mg/dL" }, a.cookie);
    },
  );
});

describe("a patient whose background sync fails", () => {
  const failing = async (connectionId: string) => {
    refuse = (u) => u.pathname.endsWith("/egvs");
    try {
      const {
        outcomes: [outcome],
      } = await sync.runSyncPass({
        connectionIds: [connectionId],
        settings: { backfillDays: 2 },
        rateLimit: null,
      });
      expect(outcome?.result).toBe("failed");
    } finally {
      refuse = null;
    }
  };
  const recovered = async (connectionId: string) => {
    await database
      .update(schema.syncState)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(orm.eq(schema.syncState.connectionId, connectionId));
    const {
      outcomes: [outcome],
    } = await sync.runSyncPass({ connectionIds: [connectionId], rateLimit: null });
    expect(outcome?.result).toBe("synced");
  };

  it("is listed with the failure until a sync succeeds again", async () => {
    const { patientsOf } = await import("@/lib/clinic/domain/patients");
    const clinicId = randomUUID();
    await database.insert(schema.clinics).values({ id: clinicId, name: "Sync status clinic" });
    const connectionId = await client.connectPatient("SandboxUser4");
    const patientId = await addPatient(clinicId, "Failing Fay", { connectionId, acceptedAt: new Date() });
    const row = async () => (await patientsOf(clinicId)).find((p) => p.id === patientId);

    expect(await row()).toMatchObject({ status: "connected", lastSyncAt: null, syncFailure: null });
    await failing(connectionId);
    const failed = await row();
    expect(failed?.syncFailure).toMatchObject({ attempts: 1, detail: expect.stringContaining("400") });
    expect(failed?.syncFailure?.retryAt?.getTime()).toBeGreaterThan(Date.now());
    await recovered(connectionId);
    const after = await row();
    expect(after?.syncFailure).toBeNull();
    expect(after?.lastSyncAt).toBeInstanceOf(Date);
  });

  // The server reads the database this process synced into only when both are the PostgreSQL.
  it.runIf(process.env.TEST_DATABASE_URL)("shows the failure in words on the clinic page", async () => {
    const a = await clinician("Dr Status");
    const connectionId = await client.connectPatient("SandboxUser4");
    const patientId = await addPatient(a.clinicId, "Failing Fay", { connectionId, acceptedAt: new Date() });
    await failing(connectionId);
    const item = async () => {
      const html = (await (await get(`/clinic?clinic=${a.clinicId}`, a.cookie)).text()).replace(
        /<!-- -->/g,
        "",
      );
      return new RegExp(`<li[^>]*data-patient="${patientId}"[\\s\\S]*?</li>`).exec(html)?.[0] ?? "";
    };
    const failingItem = await item();
    expect(failingItem).toContain("Failing Fay");
    expect(failingItem).toMatch(/Sync failing since <time[^>]*>\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC<\/time>/);
    expect(failingItem).toContain("no data synced yet");
    expect(failingItem).toMatch(/Reason: <span[^>]*>upstream_error \(400\)/);
    await recovered(connectionId);
    const healthy = await item();
    expect(healthy).not.toContain("Sync failing");
    // Written in UTC with the zone named, shown on the viewer's clock once the page runs.
    expect(healthy).toMatch(/data synced <time[^>]*>\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC<\/time>/);
  });
});
