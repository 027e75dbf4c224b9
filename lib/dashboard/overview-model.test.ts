import { describe, expect, it } from "vitest";
import type { Calibration, EgvV2, EventV2, StatisticsV2Response } from "@/lib/cgm";
import { DEFAULT_PREFERENCES } from "@/lib/preferences";
import {
  buildOverview,
  consensusStatisticsRequest,
  type OverviewInput,
  overviewEpisodes,
  overviewWindows,
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
  });
});

describe("consensusStatisticsRequest", () => {
  it("asks for 54/70/180 mg/dL over the whole day, and 3.0/3.9/10.0 for mmol/L data", () => {
    const bounds = (unit: "mg/dL" | "mmol/L") => {
      const [range] = consensusStatisticsRequest(unit).targetRanges;
      expect(range).toMatchObject({ startTime: "00:00:00", endTime: "00:00:00" });
      return range!.egvRanges.map((r) => r.bound);
    };
    expect(bounds("mg/dL")).toEqual([54, 70, 180]);
    expect(bounds("mmol/L")).toEqual([3, 3.9, 10]);
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
    const e = overviewEpisodes({ ...input().egvs, egvs }, "mg/dL")!;
    expect(e.firstDisplayTime).toBe(iso(END - 40 * MIN - 300 * MIN));
    expect(e.lastDisplayTime).toBe(iso(END - 300 * MIN));
    // 07:00 receiver's clock is not night; one 20-minute low at 60.
    expect(e.view!.lows).toEqual({ count: 1, atNight: 0, meanDurationMinutes: 20, veryLow: 0, extended: 0 });
    expect(e.view!.rows.find((r) => r.kind === "hypoLevel1")!.meanGlucoseText).toBe("60 mg/dL");
  });

  it("no readings: null", () => {
    expect(overviewEpisodes({ ...input().egvs, egvs: [] }, "mg/dL")).toBeNull();
    expect(buildOverview(input({ egvs: { ...input().egvs, egvs: [] } })).summary.episodes).toBeNull();
  });
});
