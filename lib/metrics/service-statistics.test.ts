import { describe, expect, it } from "vitest";
import {
  type EgvV2,
  formatDateTime,
  MS_PER_DAY,
  parseDateTime,
  type StatisticsV1Request,
  type StatisticsV2Request,
  statisticsV1ResponseSchema,
  statisticsV2ResponseSchema,
  toReadings,
} from "@/lib/cgm";
import {
  computeStatisticsV1,
  computeStatisticsV2,
  enoughQualifyingDays,
  hypoglycemiaRiskOf,
  hypoglycemiaRiskOfReadings,
  meetsHypoglycemiaRiskMinimum,
  type ServedEgv,
  servedEgvsOf,
  utilizationPercent,
  windowDays,
} from "./service-statistics";

const MIN5 = 5 * 60_000;
const SOME_EGV: EgvV2 = {
  systemTime: "2026-10-01T00:00:00",
  displayTime: "2026-10-01T00:00:00",
  value: 100,
  realtimeValue: 100,
  smoothedValue: null,
  status: null,
  trend: null,
  trendRate: null,
};
const HOUR = 3_600_000;

function at(dateTime: string): number {
  const ms = parseDateTime(dateTime);
  if (ms === null) throw new Error(`bad DateTime ${dateTime}`);
  return ms;
}

/** An EGV at a systemTime, displayed `offsetHours` later (the patient's clock). */
function egv(systemTime: string, value: number, offsetHours = 0): ServedEgv {
  const systemMs = at(systemTime);
  return { systemMs, displayMs: systemMs + offsetHours * HOUR, value };
}

/** Readings every 5 minutes from `fromMs` while < `toMs` (or ≤ with `inclusive`), display = system. */
function grid(fromMs: number, toMs: number, value: (i: number) => number, inclusive = false): ServedEgv[] {
  const out: ServedEgv[] = [];
  for (let t = fromMs, i = 0; inclusive ? t <= toMs : t < toMs; t += MIN5, i++) {
    out.push({ systemMs: t, displayMs: t, value: value(i) });
  }
  return out;
}

const v2Range = (
  name: string,
  startTime: string,
  endTime: string,
  urgentLow: number,
  low: number,
  high: number,
) => ({
  name,
  startTime,
  endTime,
  egvRanges: [
    { name: "urgentLow" as const, bound: urgentLow },
    { name: "low" as const, bound: low },
    { name: "high" as const, bound: high },
  ],
});

const DAY_NIGHT_V2: StatisticsV2Request = {
  targetRanges: [
    v2Range("day", "06:00:00", "22:00:00", 55, 70, 180),
    v2Range("night", "22:00:00", "06:00:00", 55, 80, 200),
  ],
};
const ALL_DAY_V2: StatisticsV2Request = {
  targetRanges: [v2Range("all", "00:00:00", "00:00:00", 55, 70, 180)],
};
const ALL_DAY_V1: StatisticsV1Request = {
  targetRanges: [
    { name: "all", startTime: "00:00:00", endTime: "00:00:00", egvRange: { min: 70, max: 180 } },
  ],
};

function v2(egvs: ServedEgv[], opts: Partial<Parameters<typeof computeStatisticsV2>[0]> = {}) {
  const result = computeStatisticsV2({
    egvs,
    calibrationCount: 0,
    unit: "mg/dL",
    windowStartMs: at("2026-10-01T00:00:00"),
    windowEndMs: at("2026-10-02T00:00:00"),
    request: ALL_DAY_V2,
    ...opts,
  });
  // Every answer has exactly the response schema's shape.
  statisticsV2ResponseSchema.strict().parse(result);
  return result;
}

function v1(egvs: ServedEgv[], opts: Partial<Parameters<typeof computeStatisticsV1>[0]> = {}) {
  const result = computeStatisticsV1({
    egvs,
    calibrationCount: 0,
    unit: "mg/dL",
    windowStartMs: at("2026-10-01T00:00:00"),
    windowEndMs: at("2026-10-02T00:00:00"),
    request: ALL_DAY_V1,
    ...opts,
  });
  statisticsV1ResponseSchema.strict().parse(result);
  return result;
}

describe("a hand-computed v2 result, every field", () => {
  // Window 20:00–21:00 systemTime (1 hour = 12 five-minute slots); the patient's clock is 3 hours
  // ahead, so the readings are displayed 23:45 and 23:50 on Oct 1, 23:55 on Oct 1 and 00:00 on Oct 2
  // (the last reading is at the window's closed end). All fall in the night range (55, 80, 200).
  const egvs = [
    egv("2026-10-01T20:45:00", 150, 3),
    egv("2026-10-01T20:50:00", 50, 3),
    egv("2026-10-01T20:55:00", 300, 3),
    egv("2026-10-01T21:00:00", 100, 3),
  ];
  const stats = v2(egvs, {
    calibrationCount: 3,
    windowStartMs: at("2026-10-01T20:00:00"),
    windowEndMs: at("2026-10-01T21:00:00"),
    request: DAY_NIGHT_V2,
  });

  it("n, sum, mean: 4 values, 150 + 50 + 300 + 100 = 600, 600 / 4 = 150", () => {
    expect(stats.nValues).toBe(4);
    expect(stats.sum).toBe(600);
    expect(stats.mean).toBe(150);
  });
  it("population variance (0² + 100² + 150² + 50²) / 4 = 8750; stdDev √8750", () => {
    expect(stats.variance).toBe(8750);
    expect(stats.stdDev).toBe(Math.sqrt(8750));
  });
  it("min 50, max 300; sorted 50, 100, 150, 300: q1 = 50 + 0.75 × 50 = 87.5, median = q2 = 125, q3 = 150 + 0.25 × 150 = 187.5", () => {
    expect([stats.min, stats.max]).toEqual([50, 300]);
    expect([stats.q1, stats.q2, stats.q3, stats.median]).toEqual([87.5, 125, 187.5, 125]);
  });
  it("night groups: 50 < 55 urgent; 100 and 150 within [80, 200]; 300 > 200 above → 1/0/2/1 = 25/0/50/25 %", () => {
    expect([stats.nUrgentLow, stats.nBelowRange, stats.nWithinRange, stats.nAboveRange]).toEqual([
      1, 0, 2, 1,
    ]);
    expect([
      stats.percentUrgentLow,
      stats.percentBelowRange,
      stats.percentWithinRange,
      stats.percentAboveRange,
    ]).toEqual([25, 0, 50, 25]);
  });
  it("utilization 4 × 5 min / 60 min × 100 = 33.33… %", () => {
    expect(stats.utilizationPercent).toBeCloseTo((4 * 5 * 100) / 60, 12);
  });
  it("nDays 2 (display dates Oct 1 and Oct 2), meanDailyCalibrations 3 / 2 = 1.5", () => {
    expect(stats.nDays).toBe(2);
    expect(stats.meanDailyCalibrations).toBe(1.5);
  });
  it("hypoglycemiaRisk null: a 1-hour window has fewer than 12 qualifying days", () => {
    expect(stats.hypoglycemiaRisk).toBeNull();
  });
  it("v1 has the same common fields", () => {
    const s1 = v1(egvs, {
      calibrationCount: 3,
      windowStartMs: at("2026-10-01T20:00:00"),
      windowEndMs: at("2026-10-01T21:00:00"),
    });
    const common = [
      "hypoglycemiaRisk",
      "min",
      "max",
      "mean",
      "median",
      "variance",
      "stdDev",
      "sum",
      "q1",
      "q2",
      "q3",
      "utilizationPercent",
      "meanDailyCalibrations",
      "nDays",
      "nValues",
    ] as const;
    for (const key of common) expect(s1[key]).toEqual(stats[key]);
    // v1 [70, 180]: 50 below; 100, 150 within; 300 above.
    expect([s1.nBelowRange, s1.nWithinRange, s1.nAboveRange]).toEqual([1, 2, 1]);
    expect([s1.percentBelowRange, s1.percentWithinRange, s1.percentAboveRange]).toEqual([25, 50, 25]);
  });
});

describe("time-of-day ranges apply to displayTime and wrap past midnight", () => {
  // day 06:00–22:00 (55, 70, 180), night 22:00–06:00 (55, 80, 200); systemTime is displayTime − 2 h.
  const stats = v2(
    [
      egv("2026-10-01T19:59:59", 75, 2), // display 21:59:59 → day: 70 ≤ 75 ≤ 180 → within
      egv("2026-10-01T20:00:00", 75, 2), // display 22:00:00 → night: 55 ≤ 75 < 80 → below
      egv("2026-10-01T03:59:59", 190, 2), // display 05:59:59 → night: 80 ≤ 190 ≤ 200 → within
      egv("2026-10-01T04:00:00", 190, 2), // display 06:00:00 → day: 190 > 180 → above
      egv("2026-10-01T22:30:00", 54, 2), // display 00:30:00 (next date) → night: 54 < 55 → urgent
    ],
    { request: DAY_NIGHT_V2 },
  );
  it("each EGV is classified with the bounds of its own range; one aggregated result", () => {
    expect([stats.nUrgentLow, stats.nBelowRange, stats.nWithinRange, stats.nAboveRange]).toEqual([
      1, 1, 2, 1,
    ]);
    expect(stats.percentWithinRange).toBe(40);
    expect(
      stats.percentUrgentLow + stats.percentBelowRange + stats.percentWithinRange + stats.percentAboveRange,
    ).toBe(100);
  });
  it("a 22:00:00 reading is night in v1 too (night [80, 200], day [70, 180])", () => {
    const request: StatisticsV1Request = {
      targetRanges: [
        { name: "day", startTime: "06:00:00", endTime: "22:00:00", egvRange: { min: 70, max: 180 } },
        { name: "night", startTime: "22:00:00", endTime: "06:00:00", egvRange: { min: 80, max: 200 } },
      ],
    };
    const s = v1([egv("2026-10-01T20:00:00", 75, 2), egv("2026-10-01T19:59:59", 75, 2)], { request });
    expect([s.nBelowRange, s.nWithinRange, s.nAboveRange]).toEqual([1, 1, 0]);
  });
  it("an unvalidated request that leaves a reading uncovered throws", () => {
    const request = { targetRanges: [v2Range("day", "06:00:00", "22:00:00", 55, 70, 180)] };
    expect(() => v2([egv("2026-10-01T23:00:00", 100)], { request })).toThrow(/not validated/);
  });
});

describe("group edges", () => {
  it("v2 (55, 70, 180): 54.9 urgent; 55 and 69.9 below; 70 and 180 within; 180.1 above", () => {
    const values = [54.9, 55, 69.9, 70, 180, 180.1];
    const s = v2(values.map((v, i) => egv(`2026-10-01T0${i}:00:00`, v)));
    expect([s.nUrgentLow, s.nBelowRange, s.nWithinRange, s.nAboveRange]).toEqual([1, 2, 2, 1]);
    expect(s.percentUrgentLow).toBeCloseTo(100 / 6, 12);
    expect(s.percentBelowRange).toBeCloseTo(200 / 6, 12);
  });
  it("v1 [70, 180] inclusive: 69 below; 70 and 180 within; 181 above; sentinels 39 below, 401 above", () => {
    const values = [69, 70, 180, 181, 39, 401];
    const s = v1(values.map((v, i) => egv(`2026-10-01T0${i}:00:00`, v)));
    expect([s.nBelowRange, s.nWithinRange, s.nAboveRange]).toEqual([2, 2, 2]);
    expect(s.min).toBe(39);
    expect(s.max).toBe(401);
    expect(s.sum).toBe(69 + 70 + 180 + 181 + 39 + 401);
  });
});

describe("empty window", () => {
  it("v2: every numeric field 0, hypoglycemiaRisk null", () => {
    const s = v2([], { calibrationCount: 4 });
    expect(s).toEqual({
      hypoglycemiaRisk: null,
      min: 0,
      max: 0,
      mean: 0,
      median: 0,
      variance: 0,
      stdDev: 0,
      sum: 0,
      q1: 0,
      q2: 0,
      q3: 0,
      utilizationPercent: 0,
      meanDailyCalibrations: 0,
      nDays: 0,
      nValues: 0,
      nUrgentLow: 0,
      nBelowRange: 0,
      nWithinRange: 0,
      nAboveRange: 0,
      percentUrgentLow: 0,
      percentBelowRange: 0,
      percentWithinRange: 0,
      percentAboveRange: 0,
    });
  });
  it("v1 likewise", () => {
    const s = v1([]);
    expect([s.nValues, s.percentBelowRange, s.percentWithinRange, s.percentAboveRange, s.mean]).toEqual([
      0, 0, 0, 0, 0,
    ]);
    expect(s.hypoglycemiaRisk).toBeNull();
  });
});

describe("utilizationPercent", () => {
  const start = at("2026-10-01T00:00:00");
  const end = start + HOUR;
  it("a 5-minute grid hitting both ends of a 1-hour window: 13 readings for 12 slots → capped at 100", () => {
    expect(
      v2(
        grid(start, end, () => 100, true),
        { windowStartMs: start, windowEndMs: end },
      ).utilizationPercent,
    ).toBe(100);
  });
  it("a grid offset by 2 minutes: 12 readings for 12 slots → exactly 100", () => {
    expect(
      v2(
        grid(start + 120_000, end, () => 100),
        { windowStartMs: start, windowEndMs: end },
      ).utilizationPercent,
    ).toBe(100);
  });
  it("6 readings in the hour: 6 × 5 / 60 × 100 = 50", () => {
    expect(utilizationPercent(6, start, end)).toBe(50);
  });
});

describe("nDays and meanDailyCalibrations", () => {
  it("distinct display dates with data: 3 readings on 2 dates, 5 calibrations → 2.5 per day", () => {
    // display = system + 5 h: 18:00 → 23:00 Oct 1; 19:00 → 00:00 Oct 2; 20:00 → 01:00 Oct 2.
    const s = v2(
      [
        egv("2026-10-01T18:00:00", 100, 5),
        egv("2026-10-01T19:00:00", 100, 5),
        egv("2026-10-01T20:00:00", 100, 5),
      ],
      { calibrationCount: 5 },
    );
    expect(s.nDays).toBe(2);
    expect(s.meanDailyCalibrations).toBe(2.5);
  });
});

describe("mmol/L input", () => {
  const MMOL_V2: StatisticsV2Request = {
    targetRanges: [v2Range("all", "00:00:00", "00:00:00", 3.0, 3.9, 10.0)],
  };
  it("statistics and bounds in mmol/L: 2.2 urgent (< 3.0); 3.9 (= low) and 10.0 (= high) within; 10.1 above", () => {
    const s = v2(
      [2.2, 3.9, 5.5, 10.0, 10.1].map((v, i) => egv(`2026-10-01T0${i}:00:00`, v)),
      { unit: "mmol/L", request: MMOL_V2 },
    );
    expect([s.nUrgentLow, s.nBelowRange, s.nWithinRange, s.nAboveRange]).toEqual([1, 0, 3, 1]);
    // sum 2.2 + 3.9 + 5.5 + 10.0 + 10.1 = 31.7; mean 6.34; median 5.5; q1 3.9; q3 10.0
    expect(s.sum).toBeCloseTo(31.7, 12);
    expect(s.mean).toBeCloseTo(6.34, 12);
    expect([s.min, s.q1, s.median, s.q3, s.max]).toEqual([2.2, 3.9, 5.5, 10.0, 10.1]);
  });

  // A full 14-day grid meets the minimum; LBGI must be computed after conversion to mg/dL
  // (1 mmol/L = 18.0182 mg/dL). Without conversion every one of these would be "high" (r > 270).
  //   6.0 mmol/L = 108.109 mg/dL: f = −0.0745, LBGI = 10 f² ≈ 0.055 → minimal
  //   5.0 mmol/L =  90.091 mg/dL: f = −0.4134, LBGI ≈ 1.709 → low
  //   4.5 mmol/L =  81.082 mg/dL: f = −0.6088, LBGI ≈ 3.706 → moderate
  //   4.0 mmol/L =  72.073 mg/dL: f = −0.8267, LBGI ≈ 6.835 → high
  const start = at("2026-10-01T00:00:00");
  const end = start + 14 * MS_PER_DAY;
  it.each([
    [6.0, "minimal"],
    [5.0, "low"],
    [4.5, "moderate"],
    [4.0, "high"],
  ] as const)("%s mmol/L throughout → %s", (value, risk) => {
    const s = v2(
      grid(start, end, () => value),
      { unit: "mmol/L", request: MMOL_V2, windowStartMs: start, windowEndMs: end },
    );
    expect(s.hypoglycemiaRisk).toBe(risk);
  });
  it("the same readings in mg/dL give the same category (72 mg/dL → high, 108 → minimal)", () => {
    const opts = { windowStartMs: start, windowEndMs: end };
    expect(
      v2(
        grid(start, end, () => 72),
        opts,
      ).hypoglycemiaRisk,
    ).toBe("high");
    expect(
      v2(
        grid(start, end, () => 108),
        opts,
      ).hypoglycemiaRisk,
    ).toBe("minimal");
  });
});

describe("hypoglycemia-risk minimum (spec 2.6)", () => {
  const start = at("2026-10-01T00:00:00");

  /** Full 5-minute grids on the days listed, nothing on the others. */
  function daysWithData(days: number[]): ServedEgv[] {
    return days.flatMap((d) => grid(start + d * MS_PER_DAY, start + (d + 1) * MS_PER_DAY, () => 60));
  }
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);

  it("14-day window: 11 qualifying days → null; 12 → a category", () => {
    const end = start + 14 * MS_PER_DAY;
    const opts = { windowStartMs: start, windowEndMs: end };
    expect(v2(daysWithData(range(11)), opts).hypoglycemiaRisk).toBeNull();
    // 60 mg/dL throughout: f(60) ≈ −1.16, LBGI ≈ 13.5 → high
    expect(v2(daysWithData(range(12)), opts).hypoglycemiaRisk).toBe("high");
    expect(
      meetsHypoglycemiaRiskMinimum(
        daysWithData(range(11)).map((e) => e.systemMs),
        start,
        end,
      ),
    ).toBe(false);
    expect(
      meetsHypoglycemiaRiskMinimum(
        daysWithData(range(12)).map((e) => e.systemMs),
        start,
        end,
      ),
    ).toBe(true);
  });

  it("30-day window needs 60% of 30 = 18 days: 17 (56.7%) → null; 18 (60%) → a category", () => {
    const end = start + 30 * MS_PER_DAY;
    const opts = { windowStartMs: start, windowEndMs: end };
    expect(v2(daysWithData(range(17)), opts).hypoglycemiaRisk).toBeNull();
    expect(v2(daysWithData(range(18)), opts).hypoglycemiaRisk).toBe("high");
  });

  it("59% vs 60% exactly (a 100-day window): 59 days fail, 60 pass", () => {
    expect(enoughQualifyingDays(59, 100 * MS_PER_DAY)).toBe(false);
    expect(enoughQualifyingDays(60, 100 * MS_PER_DAY)).toBe(true);
  });

  it("the 20-day switch: under 20 days 12 suffice; at 20 days 60% of 20 = 12; at 25 days 15", () => {
    expect(enoughQualifyingDays(12, 20 * MS_PER_DAY - 1)).toBe(true);
    expect(enoughQualifyingDays(11, 20 * MS_PER_DAY)).toBe(false);
    expect(enoughQualifyingDays(12, 20 * MS_PER_DAY)).toBe(true);
    expect(enoughQualifyingDays(14, 25 * MS_PER_DAY)).toBe(false);
    expect(enoughQualifyingDays(15, 25 * MS_PER_DAY)).toBe(true);
    // 20.5 days → ⌈20.5⌉ = 21 days; 60% of 21 = 12.6 → 13 needed
    expect(enoughQualifyingDays(12, 20.5 * MS_PER_DAY)).toBe(false);
    expect(enoughQualifyingDays(13, 20.5 * MS_PER_DAY)).toBe(true);
  });

  it("a window shorter than 12 days can never qualify", () => {
    const end = start + 10 * MS_PER_DAY;
    expect(
      meetsHypoglycemiaRiskMinimum(
        grid(start, end, () => 60, true).map((e) => e.systemMs),
        start,
        end,
      ),
    ).toBe(false);
  });

  it("a day qualifies at 66% of its slots: 288 slots × 0.66 = 190.08 → 190 readings fail, 191 pass", () => {
    const end = start + MS_PER_DAY;
    const times = (n: number) => Array.from({ length: n }, (_, i) => start + i * MIN5);
    expect(windowDays(times(190), start, end)[0]!.qualifies).toBe(false);
    expect(windowDays(times(191), start, end)[0]!.qualifies).toBe(true);
  });

  it("exactly 66% qualifies: a partial last day of 250 min (50 slots) with 33 readings (33 / 50 = 66%)", () => {
    const end = start + MS_PER_DAY + 250 * 60_000;
    const day2 = start + MS_PER_DAY;
    const times = (n: number) => Array.from({ length: n }, (_, i) => day2 + i * MIN5);
    const days = windowDays(times(33), start, end);
    expect(days).toHaveLength(2);
    expect(days[1]).toMatchObject({ startMs: day2, endMs: end, count: 33, qualifies: true });
    expect(days[1]!.utilizationPercent).toBeCloseTo(66, 12);
    expect(windowDays(times(32), start, end)[1]!.qualifies).toBe(false);
  });

  it("days run from windowStartMs (not midnight); a reading at windowEndMs belongs to the last day", () => {
    const s = start + 7 * HOUR;
    const end = s + 2 * MS_PER_DAY;
    const days = windowDays([s, s + MS_PER_DAY - 1, s + MS_PER_DAY, end, end + 1, s - 1], s, end);
    expect(days.map((d) => d.count)).toEqual([2, 2]);
    expect(days.map((d) => [d.startMs, d.endMs])).toEqual([
      [s, s + MS_PER_DAY],
      [s + MS_PER_DAY, end],
    ]);
  });
});

describe("the risk alone, as the dashboard computes it where API v3 gives none", () => {
  const start = at("2026-10-01T00:00:00");
  const end = start + 14 * MS_PER_DAY;
  const opts = { windowStartMs: start, windowEndMs: end };
  // A sawtooth across the low range, with gaps: some days qualify and some do not.
  const readings = grid(start, end, (i) => 50 + (i % 90)).filter((_, i) => i % 288 < 200 || i > 2000);

  it("is the statistics' own hypoglycemiaRisk, for a window that meets the minimum and one that does not", () => {
    for (const egvs of [readings, readings.slice(0, 1500)]) {
      expect(hypoglycemiaRiskOf(egvs, "mg/dL", start, end)).toBe(v2(egvs, opts).hypoglycemiaRisk);
    }
    expect(hypoglycemiaRiskOf(readings, "mg/dL", start, end)).not.toBeNull();
    expect(hypoglycemiaRiskOf(readings.slice(0, 1500), "mg/dL", start, end)).toBeNull();
    expect(hypoglycemiaRiskOf([], "mg/dL", start, end)).toBeNull();
  });

  it("from the readings the overview has read already: the risk of the same EGVs served", () => {
    // An answer as the service sends it, newest first, in either unit, each band from a
    // minimal to a high risk, and a record whose time does not read (left out by both).
    const answer = (unit: "mg/dL" | "mmol/L", floor: number): EgvV2[] =>
      readings
        .map((e): EgvV2 => {
          const mgdl = floor + (e.value % 90);
          const value = unit === "mg/dL" ? mgdl : Math.round(mgdl / 1.8) / 10;
          return {
            systemTime: formatDateTime(e.systemMs),
            displayTime: formatDateTime(e.displayMs + 2 * HOUR),
            value,
            realtimeValue: value,
            smoothedValue: null,
            status: null,
            trend: null,
            trendRate: null,
          };
        })
        .concat([{ ...SOME_EGV, systemTime: "2026-10-01T24:00:00" }])
        .reverse();
    const risks = new Set<string | null>();
    for (const unit of ["mg/dL", "mmol/L"] as const) {
      for (const floor of [30, 50, 60, 90]) {
        for (const egvs of [answer(unit, floor), answer(unit, floor).slice(0, 1500)]) {
          const served = hypoglycemiaRiskOf(servedEgvsOf(egvs), unit, start, end);
          expect(hypoglycemiaRiskOfReadings(toReadings(egvs, unit), unit, start, end)).toBe(served);
          risks.add(served);
        }
      }
    }
    expect(risks).toEqual(new Set([null, "minimal", "low", "moderate", "high"]));
  });

  it("reads an EGV answer's DateTimes (systemTime for the window, displayTime for the clock)", () => {
    expect(
      servedEgvsOf([
        { systemTime: "2026-10-01T00:00:00", displayTime: "2026-10-01T02:00:00", value: 39 },
        { systemTime: "not a time", displayTime: "2026-10-01T02:05:00", value: 120 },
      ]),
    ).toEqual([{ systemMs: start, displayMs: start + 2 * HOUR, value: 39 }]);
  });
});
