import { describe, expect, it } from "vitest";
import { type Calibration, type EgvV2, type EventV2, type StatisticsV2Response, toReadings } from "@/lib/cgm";
import { TARGET_PRESETS } from "@/lib/metrics/targets";
import { DEFAULT_PREFERENCES } from "@/lib/preferences";
import { shadingNote } from "./judged-ranges";
import {
  buildOverview,
  clockEnds,
  type OverviewInput,
  overviewEpisodes,
  overviewWindows,
  summaryPeriodText,
} from "./overview-model";

/**
 * The overview from five hand-made readings, every consensus band hit once:
 * 39 (LOW), 65, 100, 200, 401 (HIGH) mg/dL, 5 minutes apart, ending 2026-03-08 12:00 UTC.
 * Hand-computed: mean 805 / 5 = 161; population SD √(86942 / 5) = 131.865; CV 81.9 %;
 * GMI 3.31 + 0.02392 × 161 = 7.161 %; 20 % in each band.
 */

const END = Date.UTC(2026, 2, 8, 12, 0, 0);
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);

function egv(
  minutesBeforeEnd: number,
  value: number,
  offsetMinutes: number,
  status: EgvV2["status"] = null,
): EgvV2 {
  const t = END - minutesBeforeEnd * MIN;
  return {
    systemTime: iso(t),
    displayTime: iso(t + offsetMinutes * MIN),
    value,
    realtimeValue: value,
    smoothedValue: null,
    status,
    trend: "flat",
    trendRate: 0.4,
  };
}

// The patient's clock moves from UTC−5 to UTC−4 between the third and fourth reading.
const EGVS: EgvV2[] = [
  egv(20, 39, -300, "low"),
  egv(15, 65, -300),
  egv(10, 100, -300),
  egv(5, 200, -240),
  egv(0, 401, -240, "high"),
];

function event(minutesBeforeEnd: number, eventStatus: EventV2["eventStatus"], id: string): EventV2 {
  const t = END - minutesBeforeEnd * MIN;
  return {
    systemTime: iso(t),
    displayTime: iso(t - 300 * MIN),
    eventType: "carbs",
    eventSubType: null,
    value: 45,
    unit: "grams",
    eventId: id,
    eventStatus,
  };
}

const STATISTICS = {
  hypoglycemiaRisk: "high",
  mean: 161,
  stdDev: 50,
  percentUrgentLow: 20,
  percentBelowRange: 40,
  percentWithinRange: 20,
  percentAboveRange: 40,
  utilizationPercent: 0.9,
  nValues: 5,
  nDays: 1,
} as unknown as StatisticsV2Response;

const input = (over: Partial<OverviewInput> = {}): OverviewInput => ({
  range: "3h",
  preferences: DEFAULT_PREFERENCES,
  dataEndMs: END,
  nowMs: END + 10 * MIN,
  expectedDelayMinutes: 0,
  egvs: { unit: "mg/dL", rateUnit: "mg/dL/min", egvs: EGVS },
  events: [event(12, "created", "a"), event(8, "deleted", "b"), event(4 * 60, "created", "c")],
  calibrations: [
    {
      systemTime: iso(END - 7 * MIN),
      displayTime: iso(END - 307 * MIN),
      value: 100,
      unit: "mg/dL",
    } as Calibration,
  ],
  statistics: STATISTICS,
  preset: TARGET_PRESETS.standard,
  ...over,
});

describe("overviewWindows", () => {
  it("ends a second past the newest reading and counts back exactly the range (90 days: the longest window)", () => {
    const w = overviewWindows("90d", END);
    expect(w.trace).toEqual({ startMs: END + 1000 - 90 * 86_400_000, endMs: END + 1000 });
    expect(w.summary).toEqual(w.trace);
  });

  it("summarizes a short trace over the consensus's 14 days", () => {
    const w = overviewWindows("24h", END);
    expect(w.trace.endMs - w.trace.startMs).toBe(86_400_000);
    expect(w.summary.endMs - w.summary.startMs).toBe(14 * 86_400_000);
  });
});

describe("buildOverview", () => {
  it("computes the summary by hand-checked values, every band 20 %", () => {
    const o = buildOverview(input());
    expect(o.summary.ours.nValues).toBe(5);
    expect(o.summary.ours.mean).toBe(161);
    expect(o.summary.ours.sd).toBe(132);
    expect(o.summary.ours.cv).toBeCloseTo(81.9, 1);
    expect(o.summary.ours.gmi).toBeCloseTo(7.161, 3);
    expect(o.summary.ours.timeInRanges).toEqual({
      veryLow: 20,
      low: 20,
      inRange: 20,
      high: 20,
      veryHigh: 20,
    });
  });

  it("shows the newest reading, 401, as HIGH with its trend in words", () => {
    const o = buildOverview(input());
    expect(o.latest).toMatchObject({
      text: "HIGH",
      sentinel: "high",
      trend: "flat",
      trendDescription: "steady",
    });
    expect(o.latest?.displayTime).toBe(iso(END - 240 * MIN));
  });

  it("classifies the newest reading in its own unit: an mmol/L LOW of 2.2 without a status, in mg/dL", () => {
    // 2.2 mmol/L is 39.6 mg/dL, which would round to an in-range "40" if classified after converting.
    const o = buildOverview(
      input({
        preferences: { ...DEFAULT_PREFERENCES, unit: "mg/dL" },
        egvs: { unit: "mmol/L", rateUnit: "mmol/L/min", egvs: [egv(5, 5.5, 0), egv(0, 2.2, 0)] },
        statistics: null,
      }),
    );
    expect(o.latest).toMatchObject({ text: "LOW", sentinel: "low" });
  });

  it("shows a real 40 mg/dL as a number in mmol/L, not as LOW", () => {
    // 40 / 18.0182 = 2.22 → 2.2 mmol/L, the value an mmol/L response gives LOW; yet this reading is real.
    const o = buildOverview(
      input({
        preferences: { ...DEFAULT_PREFERENCES, unit: "mmol/L" },
        egvs: { unit: "mg/dL", rateUnit: "mg/dL/min", egvs: [egv(5, 100, 0), egv(0, 40, 0)] },
      }),
    );
    expect(o.latest).toMatchObject({ text: "2.2", sentinel: null });
  });

  it("warns of stale data only past the expected delay plus 15 minutes", () => {
    expect(buildOverview(input({ nowMs: END + 15 * MIN })).freshness?.stale).toBe(false);
    expect(buildOverview(input({ nowMs: END + 16 * MIN })).freshness?.stale).toBe(true);
    expect(buildOverview(input({ nowMs: END + 190 * MIN, expectedDelayMinutes: 180 })).freshness?.stale).toBe(
      false,
    );
  });

  it("keeps events in the window, drops deleted ones", () => {
    const o = buildOverview(input());
    expect(o.events.map((e) => e.value)).toEqual([45]);
    expect(o.events).toHaveLength(1);
  });

  it("keeps the alerts that sounded in the trace's window, oldest first; none without (API v2)", () => {
    const sounding = (minutesBeforeEnd: number) => {
      const t = END - minutesBeforeEnd * MIN;
      return {
        alertName: "low" as const,
        t,
        systemTime: iso(t),
        displayTime: iso(t - 300 * MIN),
        end: "acknowledged" as const,
        seconds: 90,
        repeat: false,
        snoozed: true,
      };
    };
    const o = buildOverview(input({ alerts: [sounding(10), sounding(4 * 60), sounding(30)] }));
    expect(o.alerts.map((a) => a.t)).toEqual([END - 30 * MIN, END - 10 * MIN]);
    expect(buildOverview(input()).alerts).toEqual([]);
  });

  it("marks the clock change from UTC−5 to UTC−4", () => {
    const o = buildOverview(input());
    expect(o.clockChanges).toEqual([{ t: END - 5 * MIN, fromMinutes: -300, toMinutes: -240 }]);
  });

  it("converts every number to mmol/L when the patient chose it", () => {
    const o = buildOverview(input({ preferences: { ...DEFAULT_PREFERENCES, unit: "mmol/L" } }));
    expect(o.unit).toBe("mmol/L");
    expect(o.dataUnit).toBe("mg/dL");
    // 70 / 18.0182 = 3.885 → 3.9; 180 / 18.0182 = 9.990 → 10.0; 161 → 8.935 → 8.9; 100 → 5.550 → 5.5
    expect(o.target).toEqual({ low: 3.9, high: 10 });
    expect(o.summary.ours.mean).toBe(8.9);
    expect(o.calibrations.map((c) => c.value)).toEqual([5.5]);
    expect(o.summary.service?.mean).toBe(8.9);
    // Percentages and GMI do not depend on the unit.
    expect(o.summary.ours.gmi).toBeCloseTo(7.161, 3);
  });

  it("derives the service's CV and GMI from its mean and SD", () => {
    const s = buildOverview(input()).summary.service!;
    expect(s.cv).toBeCloseTo((100 * 50) / 161, 6);
    expect(s.gmi).toBeCloseTo(7.161, 3);
    expect(s.hypoglycemiaRisk).toBe("high");
    expect(buildOverview(input()).summary.hypoglycemiaRisk).toEqual({ risk: "high", by: "service" });
  });

  it("with API v3 (no statistics) shows no service column, and the risk the loader computed", () => {
    const o = buildOverview(input({ statistics: null, statisticsBy: "dashboard", dashboardRisk: "low" }));
    expect(o.summary.service).toBeNull();
    expect(o.summary.hypoglycemiaRisk).toEqual({ risk: "low", by: "dashboard" });
    // Even a service answer given by mistake is not shown as the service's.
    const mixed = buildOverview(input({ statisticsBy: "dashboard", dashboardRisk: null }));
    expect(mixed.summary.service).toBeNull();
    expect(mixed.summary.hypoglycemiaRisk).toEqual({ risk: null, by: "dashboard" });
  });
});

describe("summaryPeriodText", () => {
  it("names the summary's days and its last day on the receiver's clock, however old the newest reading", () => {
    // The newest reading: 12:00 UTC, 08:00 on the patient's clock (UTC−4), Sunday 8 March.
    const old = input({ nowMs: END + 10 * 86_400_000 });
    expect(summaryPeriodText(buildOverview(old))).toBe("14 days to Sun 8 Mar");
    expect(summaryPeriodText(buildOverview({ ...old, range: "90d" }))).toBe("90 days to Sun 8 Mar");
    // 03:00 UTC on Sunday is 22:00 on Saturday at UTC−5: the receiver's day is the one named.
    const evening = egv(9 * 60, 120, -300);
    expect(
      summaryPeriodText(
        buildOverview(input({ egvs: { unit: "mg/dL", rateUnit: "mg/dL/min", egvs: [evening] } })),
      ),
    ).toBe("14 days to Sat 7 Mar");
  });
});

/** `counts` readings of each value, 5 minutes apart, ending at END. */
function readings(counts: Array<[value: number, n: number]>): EgvV2[] {
  const values = counts.flatMap(([value, n]) => Array<number>(n).fill(value));
  return values.map((v, i) => egv((values.length - 1 - i) * 5, v, 0));
}
const withReadings = (counts: Array<[number, number]>, over: Partial<OverviewInput> = {}) =>
  buildOverview(
    input({ egvs: { unit: "mg/dL", rateUnit: "mg/dL/min", egvs: readings(counts) }, range: "14d", ...over }),
  );

describe("buildOverview: the consensus goals", () => {
  it("says first how far time below 54 mg/dL is above its goal (SandboxUser2's pattern: 9% below 54, 18% below 70)", () => {
    const o = withReadings([
      [50, 9],
      [60, 9],
      [120, 82],
    ]);
    expect(o.summary.days).toBe(14);
    expect(o.summary.headline).toEqual({
      met: false,
      sentence: "Time below 54 mg/dL is 9% — nine times the goal of under 1%.",
      others: "1 other goal not met: time below 70 mg/dL 18% (goal under 4%).",
    });
    const goals = o.summary.goals!;
    expect(goals.unmet.map((g) => g.metric)).toEqual(["timeBelow54", "timeBelow70"]);
    // The cumulative goal: below 70 includes below 54.
    expect(goals.goals.find((g) => g.metric === "timeBelow70")).toMatchObject({
      label: "Below 70 mg/dL",
      goal: "under 4%",
      valueText: "18%",
      met: false,
    });
    expect(goals.goals.find((g) => g.metric === "timeInRange")).toMatchObject({
      valueText: "82%",
      met: true,
    });
  });

  it("does not let a low band look met when the cumulative below 70 is not (SandboxUser1's pattern: 4% low, 0.9% very low)", () => {
    const o = withReadings([
      [50, 9],
      [60, 40],
      [120, 951],
    ]);
    const goals = o.summary.goals!;
    const shown = Object.fromEntries(goals.bands.map((b) => [b.key, b.percentText]));
    // 0.9% shown as "1%" would read as missing "under 1%"; one decimal everywhere, summing to 100.
    expect(shown).toEqual({ veryHigh: "0.0%", high: "0.0%", inRange: "95.1%", low: "4.0%", veryLow: "0.9%" });
    expect(goals.goals.map((g) => [g.metric, g.valueText, g.met])).toEqual([
      ["timeAbove250", "0.0%", true],
      ["timeAbove180", "0.0%", true],
      ["timeInRange", "95.1%", true],
      ["timeBelow70", "4.9%", false],
      ["timeBelow54", "0.9%", true],
      ["cv", expect.any(String), true],
    ]);
    expect(o.summary.headline?.sentence).toBe("Time below 70 mg/dL is 4.9%, above the goal of under 4%.");
    expect(o.summary.headline?.others).toBeNull();
  });

  it("says calmly that every goal was met in the period", () => {
    const o = withReadings([[120, 288]]);
    expect(o.summary.headline).toEqual({
      met: true,
      sentence: "All consensus goals met in the 14 days to Sun 8 Mar.",
      others: null,
    });
    expect(o.summary.goals!.unmet).toEqual([]);
  });

  it("names every other unmet goal after the worst, and counts the bands' readings", () => {
    const o = buildOverview(input());
    expect(o.summary.headline?.sentence).toBe("Time below 54 mg/dL is 20% — 20 times the goal of under 1%.");
    expect(o.summary.headline?.others).toBe(
      "5 other goals not met: time below 70 mg/dL 40% (goal under 4%); time above 250 mg/dL 20% (goal under 5%); " +
        "time above 180 mg/dL 40% (goal under 25%); time in range 70–180 mg/dL 20% (goal over 70%); " +
        "glucose variability (CV) 82% (goal 36% or less).",
    );
    expect(o.summary.goals!.bands.map((b) => [b.name, b.range, b.readings])).toEqual([
      ["Very high", "above 250", 1],
      ["High", "181–250", 1],
      ["In range", "70–180", 1],
      ["Low", "54–69", 1],
      ["Very low", "below 54", 1],
    ]);
  });

  it("judges by the target group passed in, in the unit on screen", () => {
    const o = buildOverview(
      input({ preset: TARGET_PRESETS.pregnancy, preferences: { ...DEFAULT_PREFERENCES, unit: "mmol/L" } }),
    );
    const goals = o.summary.goals!;
    expect(goals.group).toBe("pregnancy");
    expect(goals.bands.map((b) => b.range)).toEqual(["above 7.8", "3.5–7.8", "3.0–3.4", "below 3.0"]);
    expect(goals.goals.map((g) => g.label)).toEqual([
      "Above 7.8 mmol/L",
      "3.5–7.8 mmol/L",
      "Below 3.5 mmol/L",
      "Below 3.0 mmol/L",
    ]);
  });
});

describe("shadingNote", () => {
  it("says a custom display band shades the trace only, and which range the numbers use", () => {
    expect(shadingNote({ low: 80, high: 140 }, "mg/dL", "70–180")).toBe(
      "Target range 80–140 mg/dL shaded: your display setting, shading only. " +
        "Time in ranges and goals use the consensus range 70–180 mg/dL.",
    );
    expect(shadingNote({ low: 3.9, high: 10 }, "mmol/L", "3.9–10.0")).toBe(
      "Target range 3.9–10.0 mmol/L shaded.",
    );
  });

  it("is the overview's: a custom band of 80–140 leaves the numbers on the consensus ranges, and says so", () => {
    const o = buildOverview(
      input({ preferences: { ...DEFAULT_PREFERENCES, targetLowMgdl: 80, targetHighMgdl: 140 } }),
    );
    expect(o.shading).toContain(
      "shading only. Time in ranges and goals use the consensus range 70–180 mg/dL.",
    );
    expect(o.summary.goals!.bands.find((b) => b.key === "inRange")).toMatchObject({
      range: "70–180",
      percent: 20,
    });
    expect(buildOverview(input()).shading).toBe("Target range 70–180 mg/dL shaded.");
  });
});

describe("overviewEpisodes and time in tight range (issue 14)", () => {
  it("time in tight range of the five readings: 100 only, 20 %", () => {
    expect(buildOverview(input()).summary.ours.timeInTightRange).toBe(20);
  });

  it("counts the lows on the receiver's clock and names the period by the first and last displayTime", () => {
    // 02:00–02:40 receiver's clock (UTC−5): 100, four lows of 60 (20 minutes), four at 100.
    const values = [100, 60, 60, 60, 60, 100, 100, 100, 100];
    const egvs = values.map((v, i) => egv((values.length - 1 - i) * 5, v, -300));
    const e = overviewEpisodes(toReadings(egvs, "mg/dL"), "mg/dL")!;
    expect(e.firstDisplayTime).toBe(iso(END - 40 * MIN - 300 * MIN));
    expect(e.lastDisplayTime).toBe(iso(END - 300 * MIN));
    // 07:00 receiver's clock is not night; one 20-minute low at 60.
    expect(e.view!.lows).toEqual({
      count: 1,
      atNight: 0,
      atNightPercent: 0,
      meanDurationMinutes: 20,
      veryLow: 0,
      extended: 0,
    });
    expect(e.view!.rows.find((r) => r.kind === "hypoLevel1")!.meanGlucoseText).toBe("60 mg/dL");
  });

  it("names the period by the ends a stable sort by the clock gives: of equal times the first and the last", () => {
    // The clock put back an hour midway, times repeated, newest first and in time order.
    const times = [5, 10, 10, 15, 20, 20, 25, 0, 5, 5, 30, 30, 30, 10, 0];
    const orders = [times, [...times].reverse(), [...times].sort((a, b) => a - b)];
    for (const order of orders) {
      const readings = order.map((m, id) => ({ displayMs: END + m * MIN, id }));
      const sorted = [...readings].sort((a, b) => a.displayMs - b.displayMs);
      expect(clockEnds(readings)).toEqual({ first: sorted[0], last: sorted.at(-1) });
    }
    const one = [{ displayMs: END }];
    expect(clockEnds(one)).toEqual({ first: one[0], last: one[0] });
  });

  it("no readings: null", () => {
    expect(overviewEpisodes(toReadings([], "mg/dL"), "mg/dL")).toBeNull();
    expect(buildOverview(input({ egvs: { ...input().egvs, egvs: [] } })).summary.episodes).toBeNull();
  });
});
