import { beforeAll, describe, expect, inject, it } from "vitest";
import { formatDateTime, parseDateTime } from "@/lib/cgm/datetime";
import { type EgvsV2Response, egvsV2ResponseSchema } from "@/lib/cgm/schemas";
import { metricValueMgdl } from "@/lib/cgm/values";
import { cgmEpisodes, EPISODE_KINDS } from "@/lib/metrics/episodes";
import { evaluateGoals } from "@/lib/metrics/goals";
import { TARGET_PRESETS } from "@/lib/metrics/targets";
import { type DashboardSession, signIn } from "../support/dashboard-client";
import { apiVersion, serviceOf, signInWithService } from "../support/service-reference";

/**
 * The reports' API over HTTP against the embedded sandbox: GET /api/reports/summary checked
 * against the service's own records for the same window (by hand for a small window, and for the
 * sentinels), its 400s; GET /api/reports/agp-pdf, a one-page PDF for the signed-in patient only.
 */

const base = inject("baseUrl");
const DAY = 86_400_000;
let user1: DashboardSession;
let user3: DashboardSession;

/** The keys the summary API answered before issue 14, as numbers (or null without readings). */
const NUMBER_KEYS = [
  "cv",
  "gmi",
  "gri",
  "griHyper",
  "griHypo",
  "hbgi",
  "lbgi",
  "mean",
  "nValues",
  "sd",
  "sensorActivePercent",
];
/** Issue 14's keys: time in tight range, GRI zone, episodes, target group and its goals. */
const ISSUE_14_KEYS = ["timeInTightRange", "griZone", "episodes", "targetGroup", "goals"];
/** Issue 18's key: the days of wear the FHIR export sends (lib/fhir). */
const ISSUE_18_KEYS = ["daysOfWear"];
const SUMMARY_KEYS = [
  ...NUMBER_KEYS,
  "startDate",
  "endDate",
  "timeInRanges",
  ...ISSUE_14_KEYS,
  ...ISSUE_18_KEYS,
].sort();

async function summary(s: DashboardSession | null, query: Record<string, string>) {
  const res = await fetch(`${base}/api/reports/summary?${new URLSearchParams(query)}`, {
    headers: s ? { Cookie: s.cookie } : {},
  });
  return { res, body: await res.json() };
}

async function newestEgvMs(s: DashboardSession): Promise<number> {
  const range = await (await serviceOf(s)("v2/users/self/dataRange")).json();
  return parseDateTime(range.egvs.end.systemTime)!;
}

async function egvs(s: DashboardSession, startMs: number, endMs: number): Promise<EgvsV2Response> {
  const q = new URLSearchParams({ startDate: formatDateTime(startMs), endDate: formatDateTime(endMs) });
  return egvsV2ResponseSchema.parse(await (await serviceOf(s)(`v2/users/self/egvs?${q}`)).json());
}

beforeAll(async () => {
  [user1, user3] = await Promise.all([
    signInWithService(base, "SandboxUser1"),
    signInWithService(base, "SandboxUser3"),
  ]);
});

describe("GET /api/reports/summary", () => {
  it("answers exactly the agreed keys, as numbers, private and never stored", async () => {
    const end = await newestEgvMs(user1);
    const { res, body } = await summary(user1, {
      startDate: formatDateTime(end - 14 * DAY),
      endDate: formatDateTime(end),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(Object.keys(body).sort()).toEqual(SUMMARY_KEYS);
    expect(Object.keys(body.timeInRanges).sort()).toEqual(["high", "inRange", "low", "veryHigh", "veryLow"]);
    for (const key of NUMBER_KEYS) expect(typeof body[key], key).toBe("number");
    const bands = Object.values(body.timeInRanges as Record<string, number>);
    expect(bands.reduce((a, b) => a + b, 0)).toBeCloseTo(100, 9);
    expect(body.sensorActivePercent).toBeGreaterThan(0);
    expect(body.sensorActivePercent).toBeLessThanOrEqual(100);
  });

  it("answers time in tight range, GRI zone, the episodes of the same readings and the standard goals (SandboxUser2)", async () => {
    const user2 = await signInWithService(base, "SandboxUser2");
    // Twenty minutes before the newest reading: a reading's value becomes its smoothed value 15
    // minutes after it (spec 2.1 rule 5), and one that changed between the summary's read and this
    // test's own would differ by it.
    const end = (await newestEgvMs(user2)) - 20 * 60_000;
    const start = end - 14 * DAY;
    const { body } = await summary(user2, { startDate: formatDateTime(start), endDate: formatDateTime(end) });
    const raw = await egvs(user2, start, end);
    const readings = raw.egvs.map((e) => ({
      displayMs: parseDateTime(e.displayTime)!,
      mgdl: metricValueMgdl(e.value, raw.unit, e.status),
    }));
    const values = readings.map((r) => r.mgdl);
    expect(body.nValues).toBe(readings.length);

    expect(typeof body.timeInTightRange).toBe("number");
    expect(body.timeInTightRange).toBeGreaterThanOrEqual(0);
    expect(body.timeInTightRange).toBeLessThanOrEqual(100);
    const tight = values.filter((v) => v >= 70 && v <= 140).length;
    expect(body.timeInTightRange).toBeCloseTo((100 * tight) / values.length, 9);
    // Tight range lies inside 70–180.
    expect(body.timeInTightRange).toBeLessThanOrEqual(body.timeInRanges.inRange);

    expect(["A", "B", "C", "D", "E"]).toContain(body.griZone);
    expect(body.griZone).toBe("ABCDE"[Math.min(4, Math.max(0, Math.ceil(body.gri / 20) - 1))]);

    expect(Object.keys(body.episodes)).toEqual([...EPISODE_KINDS]);
    for (const kind of EPISODE_KINDS) {
      const e = body.episodes[kind];
      expect(Object.keys(e).sort(), kind).toEqual(["count", "meanDurationMinutes", "meanGlucose", "perDay"]);
      expect(Number.isInteger(e.count), kind).toBe(true);
      expect(typeof e.perDay, kind).toBe("number");
      expect(typeof e.meanDurationMinutes, kind).toBe("number");
      expect(e.count === 0 ? e.meanGlucose === null : typeof e.meanGlucose === "number", kind).toBe(true);
    }
    // The service's records through lib/metrics' episode algorithm give exactly the same numbers.
    expect(body.episodes).toEqual(JSON.parse(JSON.stringify(cgmEpisodes(readings)!.episodes)));
    // SandboxUser2 has frequent lows: the summary must show them.
    expect(body.episodes.hypoLevel1.count).toBeGreaterThan(0);

    expect(body.targetGroup).toBe("standard");
    const expected = evaluateGoals(TARGET_PRESETS.standard, values, body.cv).map(
      ({ metric, value, goal, met }) => ({
        metric,
        value,
        goal,
        met,
      }),
    );
    expect(body.goals).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(body.goals.map((g: { metric: string }) => g.metric)).toEqual([
      "timeAbove250",
      "timeAbove180",
      "timeInRange",
      "timeBelow70",
      "timeBelow54",
      "cv",
    ]);
    expect(body.goals.find((g: { metric: string }) => g.metric === "timeBelow70").met).toBe(false);
  });

  it("agrees with the service's own readings of a 40-minute window, checked by hand", async () => {
    const end = await newestEgvMs(user1);
    const start = end - 40 * 60_000;
    const raw = (await egvs(user1, start, end)).egvs.map((e) => e.value);
    const { body } = await summary(user1, { startDate: formatDateTime(start), endDate: formatDateTime(end) });
    const n = raw.length;
    const mean = raw.reduce((a, b) => a + b, 0) / n;
    const sd = Math.sqrt(raw.reduce((a, v) => a + (v - mean) ** 2, 0) / n);
    expect(body.nValues).toBe(n);
    expect(body.mean).toBeCloseTo(mean, 9);
    expect(body.sd).toBeCloseTo(sd, 9);
    expect(body.cv).toBeCloseTo((100 * sd) / mean, 9);
    expect(body.gmi).toBeCloseTo(3.31 + 0.02392 * mean, 9);
    // 40 minutes expect 8 readings at one per 5 minutes; both ends are in the window.
    expect(body.sensorActivePercent).toBeCloseTo(Math.min(100, (100 * n) / 8), 9);
    const share = (test: (v: number) => boolean) => (100 * raw.filter(test).length) / n;
    expect(body.timeInRanges.inRange).toBeCloseTo(
      share((v) => v >= 70 && v <= 180),
      9,
    );
  });

  it("converts mmol/L readings to mg/dL before every metric (SandboxUser3)", async () => {
    const end = await newestEgvMs(user3);
    const start = end - 60 * 60_000;
    const raw = await egvs(user3, start, end);
    expect(raw.unit).toBe("mmol/L");
    // Each mmol/L value × 18.0182, to the nearest whole mg/dL (a sensor measures whole mg/dL).
    const values = raw.egvs.filter((e) => e.status === null).map((e) => Math.round(e.value * 18.0182));
    const { body } = await summary(user3, { startDate: formatDateTime(start), endDate: formatDateTime(end) });
    expect(body.nValues).toBe(raw.egvs.length);
    // With API v3 the dashboard reads the same readings in whole mg/dL, as measured, not converted back.
    if (values.length === raw.egvs.length && apiVersion() === "v2") {
      expect(body.mean).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 6);
    }
    // v2 rounds each mmol/L value to a tenth: converted back, a reading may be 0.05 × 18.0182 mg/dL
    // off, and half a mg/dL more once rounded to whole mg/dL; so may their mean (an hour with
    // one or two readings, at a sensor's start, has no others to even it out).
    if (values.length === raw.egvs.length)
      expect(Math.abs(body.mean - values.reduce((a, b) => a + b, 0) / values.length)).toBeLessThanOrEqual(
        0.05 * 18.0182 + 0.5,
      );
    expect(body.mean).toBeGreaterThan(40);
  });

  it("counts a LOW or HIGH reading as exactly 39 or 401 mg/dL, whatever unit it came in", async () => {
    let found = 0;
    for (const s of [user1, user3, await signInWithService(base, "SandboxUser2")]) {
      const end = await newestEgvMs(s);
      const { egvs: records } = await egvs(s, end - 90 * DAY, end);
      const sentinel = records.find((e) => e.status === "low" || e.status === "high");
      if (!sentinel) continue;
      found++;
      const t = parseDateTime(sentinel.systemTime)!;
      // The one-second window [t − 1 s, t] holds that reading alone.
      const { body } = await summary(s, { startDate: formatDateTime(t - 1000), endDate: formatDateTime(t) });
      expect(body.nValues).toBe(1);
      expect(body.mean).toBe(sentinel.status === "low" ? 39 : 401);
      expect(body.timeInRanges[sentinel.status === "low" ? "veryLow" : "veryHigh"]).toBe(100);
    }
    expect(found, "the sandbox's users have LOW or HIGH readings in 90 days").toBeGreaterThan(0);
  });

  it("answers nulls, not errors, for a window without readings", async () => {
    const end = await newestEgvMs(user1);
    const { res, body } = await summary(user1, {
      startDate: formatDateTime(end + DAY),
      endDate: formatDateTime(end + 2 * DAY),
    });
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      nValues: 0,
      sensorActivePercent: 0,
      mean: null,
      timeInRanges: null,
      gri: null,
      timeInTightRange: null,
      griZone: null,
      goals: [],
      targetGroup: "standard",
    });
    expect(body.episodes.hypoLevel2).toEqual({
      count: 0,
      perDay: 0,
      meanDurationMinutes: 0,
      meanGlucose: null,
    });
  });

  it.each([
    [{}, /startDate is required/],
    [{ startDate: "2026-11-01T00:00:00" }, /endDate is required/],
    [
      { startDate: "2026-11-10T00:00:00", endDate: "2026-11-01T00:00:00" },
      /startDate must be before endDate/,
    ],
    [{ startDate: "2026-11-01", endDate: "2026-11-10T00:00:00" }, /startDate/],
    [{ startDate: "2026-02-30T00:00:00", endDate: "2026-03-10T00:00:00" }, /startDate/],
    [{ startDate: "2026-01-01T00:00:00", endDate: "2026-11-01T00:00:00" }, /at most 90 days/],
  ])("answers 400 with what to change for %o", async (query, message) => {
    const { res, body } = await summary(user1, query as Record<string, string>);
    expect(res.status).toBe(400);
    expect(body.message).toMatch(message);
  });

  it("answers 401 without a session", async () => {
    const { res } = await summary(null, { startDate: "2026-11-01T00:00:00", endDate: "2026-11-10T00:00:00" });
    expect(res.status).toBe(401);
  });
});

describe("GET /api/reports/agp-pdf", () => {
  const pdf = (s: DashboardSession | null, query: string) =>
    fetch(`${base}/api/reports/agp-pdf?${query}`, { headers: s ? { Cookie: s.cookie } : {} });

  // SandboxUser3 reads mmol/L (longer labels) and SandboxUser5's sensor ran 23% of the time (the
  // report's warning note): both printed on two Letter pages before the print layout made room.
  it.each([
    ["SandboxUser1", "a4"],
    ["SandboxUser1", "letter"],
    ["SandboxUser3", "a4"],
    ["SandboxUser3", "letter"],
    ["SandboxUser5", "a4"],
    ["SandboxUser5", "letter"],
  ])("prints %s's AGP report on one %s page", async (username, paper) => {
    const session =
      username === "SandboxUser1"
        ? user1
        : username === "SandboxUser3"
          ? user3
          : await signIn(base, username);
    const res = await pdf(session, `days=14&paper=${paper}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="(agp_Patient_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.pdf)"; filename\*=UTF-8''\1$/,
    );
    const text = Buffer.from(await res.arrayBuffer()).toString("latin1");
    expect(text.startsWith("%PDF-")).toBe(true);
    // Page objects, not the /Pages tree: exactly one.
    expect(text.match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1);
    const [w, h] = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\]/.exec(text)!.slice(1).map(Number);
    if (paper === "a4") expect([Math.round(w!), Math.round(h!)]).toEqual([596, 843]);
    else expect([w, h]).toEqual([612, 792]);
  });

  it("answers 400 for a bad paper or period, 401 signed out, 404 for an account without data", async () => {
    expect((await pdf(user1, "paper=a3")).status).toBe(400);
    const badPeriod = await pdf(user1, "days=365");
    expect(badPeriod.status).toBe(400);
    expect((await badPeriod.json()).message).toMatch(/at most 90 days/);
    expect((await pdf(user1, "targets=children")).status).toBe(400);
    expect((await pdf(null, "days=14")).status).toBe(401);
    const empty = await pdf(await signIn(base, "SandboxUser6"), "days=14");
    expect(empty.status).toBe(404);
    expect((await empty.json()).message).toMatch(/No glucose readings/);
  });
});
