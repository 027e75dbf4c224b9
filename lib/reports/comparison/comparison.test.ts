import { describe, expect, it } from "vitest";
import { MS_PER_DAY } from "@/lib/cgm/datetime";
import { periodMetrics, reportMetrics } from "@/lib/metrics/report";
import { lastDays, previousPeriod } from "../period/period";
import type { Reading } from "../period/readings";
import {
  attributionSentence,
  type BandAttribution,
  BLOCKS_PER_DAY,
  bandLabel,
  blockClock,
  blockOf,
  COMPARED_BANDS,
  compareReadings,
  isNotableChange,
  metricChanges,
  placeOfChange,
  roundTenth,
  signedPoints,
  spanText,
} from "./comparison";

const DAY0 = Date.UTC(2026, 0, 5);
const recentPeriod = lastDays(DAY0 + 14 * MS_PER_DAY, 14);
const earlierPeriod = previousPeriod(recentPeriod);

/** A reading at `hh:mm` of day `day` on the patient's clock (systemTime one hour earlier). */
function at(day: number, hhmm: string, mgdl: number): Reading {
  const [h, m] = hhmm.split(":").map(Number) as [number, number];
  const displayMs = DAY0 + day * MS_PER_DAY + (h * 60 + m) * 60_000;
  return {
    t: displayMs - 3_600_000,
    displayTime: new Date(displayMs).toISOString().slice(0, 19),
    displayMs,
    mgdl,
  };
}

/** One reading at hh:30 of each block's first hour, values per block. */
const oneEachBlock = (day: number, values: number[]) =>
  values.map((v, i) => at(day, `${String(i * 3).padStart(2, "0")}:30`, v));

describe("time-of-day blocks", () => {
  it("cuts the day at every 3 hours of displayTime", () => {
    expect(BLOCKS_PER_DAY).toBe(8);
    expect(blockOf(at(0, "00:00", 100).displayMs)).toBe(0);
    expect(blockOf(at(0, "02:59", 100).displayMs)).toBe(0);
    expect(blockOf(at(0, "03:00", 100).displayMs)).toBe(1);
    expect(blockOf(at(3, "23:59", 100).displayMs)).toBe(7);
    expect(blockClock(0)).toBe("00:00");
    expect(blockClock(7)).toBe("21:00");
    expect(blockClock(8)).toBe("24:00");
  });

  it("words spans on the clock, across midnight too", () => {
    expect(spanText({ start: 0, length: 2 })).toBe("between 00:00 and 06:00");
    expect(spanText({ start: 6, length: 2 })).toBe("between 18:00 and 24:00");
    expect(spanText({ start: 7, length: 2 })).toBe("between 21:00 and 03:00");
  });
});

describe("metricChanges", () => {
  it("is recent − earlier for every metric, in points for percentages", () => {
    // Earlier [100, 200]: mean 150, in range 50 %, high 50 %. Recent [100, 100, 60, 300]:
    // mean 140, in range 50 %, low 25 %, very high 25 %.
    const earlier = reportMetrics([100, 200], 0, 600_000);
    const recent = reportMetrics([100, 100, 60, 300], 0, 600_000);
    const c = metricChanges(earlier, recent);
    expect(c.nValues).toBe(2);
    expect(c.mean).toBe(-10);
    expect(c.sd).toBeCloseTo((recent.sd as number) - (earlier.sd as number), 12);
    expect(c.timeInRanges).toEqual({ veryLow: 0, low: 25, inRange: 0, high: -50, veryHigh: 25 });
    expect(c.bands).toEqual({ inRange: 0, belowRange: 25, veryLow: 0, aboveRange: -25, veryHigh: 25 });
    // 2 of 2 expected readings vs 4 of 2 (capped at 100 %): no change.
    expect(c.sensorActivePercent).toBe(0);
  });

  it("is null when either side is null (a period without readings)", () => {
    const empty = reportMetrics([], 0, MS_PER_DAY);
    const some = reportMetrics([100, 120], 0, MS_PER_DAY);
    const c = metricChanges(empty, some);
    expect(c.mean).toBeNull();
    expect(c.cv).toBeNull();
    expect(c.gri).toBeNull();
    expect(c.timeInRanges).toBeNull();
    expect(c.bands).toEqual({
      inRange: null,
      belowRange: null,
      veryLow: null,
      aboveRange: null,
      veryHigh: null,
    });
    // Counts and sensor time exist for an empty period: 0 readings, 0 % of 288 expected.
    expect(c.nValues).toBe(2);
    expect(c.sensorActivePercent).toBeCloseTo((100 * 2) / 288, 12);
  });
});

describe("compareReadings: a change that comes entirely from the night", () => {
  // Earlier: two readings in each block (16); between 00:00 and 06:00 one of each pair is low
  // (60 mg/dL): in range 14/16 = 87.5 %. Recent: one reading per block (8), all 120: 100 %.
  const earlierReadings = [
    ...oneEachBlock(-10, [60, 60, 120, 120, 120, 120, 120, 120]),
    ...oneEachBlock(-9, [120, 120, 120, 120, 120, 120, 120, 120]),
  ];
  const recentReadings = oneEachBlock(3, [120, 120, 120, 120, 120, 120, 120, 120]);
  const c = compareReadings(earlierPeriod, earlierReadings, recentPeriod, recentReadings);

  it("computes each period's metrics as the summary does", () => {
    expect(c.earlier).toEqual({
      startDate: earlierPeriod.startDate,
      endDate: earlierPeriod.endDate,
      ...periodMetrics(earlierReadings, earlierPeriod.startMs, earlierPeriod.endMs),
    });
    expect(c.recent.nValues).toBe(8);
    expect(c.earlier.timeInRanges?.inRange).toBe(87.5);
    expect(c.recent.timeInRanges?.inRange).toBe(100);
  });

  it("in range +12.5 points: +6.25 from each night block, 0 from every other block", () => {
    expect(c.changes.bands.inRange).toBe(12.5);
    // Block 0: w = 2/16, s = 1/2 before; w' = 1/8, s' = 1 after: 12.5 × 1 − 12.5 × 0.5 = 6.25.
    expect(c.blocks[0]?.earlier).toMatchObject({ readings: 2, weight: 12.5 });
    expect(c.blocks[0]?.earlier.shares.inRange).toBe(50);
    expect(c.blocks[0]?.recent).toMatchObject({ readings: 1, weight: 12.5 });
    expect(c.blocks[0]?.recent.shares.inRange).toBe(100);
    const inRange = c.blocks.map((b) => b.contributions.inRange);
    expect(inRange).toEqual([6.25, 6.25, 0, 0, 0, 0, 0, 0]);
    expect(c.blocks.map((b) => b.contributions.belowRange)).toEqual([-6.25, -6.25, 0, 0, 0, 0, 0, 0]);
  });

  it("names 00:00–06:00 (neither block alone holds more than half of the +12.5)", () => {
    const a = c.attribution.find((x) => x.band === "inRange") as BandAttribution;
    expect(a.place).toEqual({ kind: "spans", spans: [{ start: 0, length: 2 }], points: 12.5 });
    expect(attributionSentence(a, "mg/dL")).toBe(
      "Time in range (70–180 mg/dL) +12.5 percentage points, mostly between 00:00 and 06:00 (+12.5 points there).",
    );
    const below = c.attribution.find((x) => x.band === "belowRange") as BandAttribution;
    expect(attributionSentence(below, "mmol/L")).toBe(
      "Time below 3.9 mmol/L −12.5 percentage points, mostly between 00:00 and 06:00 (−12.5 points there).",
    );
  });

  it("has no sentence for bands that did not change", () => {
    for (const band of ["veryLow", "aboveRange", "veryHigh"] as const) {
      const a = c.attribution.find((x) => x.band === band) as BandAttribution;
      expect(a.change).toBe(0);
      expect(a.place).toBeNull();
      expect(attributionSentence(a, "mg/dL")).toBeNull();
    }
  });
});

describe("the decomposition sums exactly", () => {
  // A deterministic mix: readings every 5 minutes over several days, values by a small LCG.
  function readings(seed: number, days: number, startDay: number, skipNight: boolean): Reading[] {
    let x = seed;
    const out: Reading[] = [];
    for (let i = 0; i < days * 288; i++) {
      x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
      const minute = (i % 288) * 5;
      if (skipNight && minute < 240 && x % 3 === 0) continue; // missing night readings shift weights
      const hh = String(Math.floor(minute / 60)).padStart(2, "0");
      const mm = String(minute % 60).padStart(2, "0");
      const value = [39, 50, 60, 65, 90, 120, 150, 175, 185, 240, 260, 401][x % 12] as number;
      out.push(at(startDay + Math.floor(i / 288), `${hh}:${mm}`, value));
    }
    return out;
  }
  const c = compareReadings(
    earlierPeriod,
    readings(7, 5, -12, true),
    recentPeriod,
    readings(11, 4, 2, false),
  );

  it.each(COMPARED_BANDS)("%s: Σ contributions = the change in the band's share", (band) => {
    const total = c.changes.bands[band] as number;
    const sum = c.blocks.reduce((s, b) => s + (b.contributions[band] as number), 0);
    expect(sum).toBeCloseTo(total, 10);
    // And each term is w'_b s'_b − w_b s_b (percent × percent / 100 = points).
    for (const b of c.blocks) {
      const term =
        ((b.recent.weight as number) * (b.recent.shares[band] ?? 0)) / 100 -
        ((b.earlier.weight as number) * (b.earlier.shares[band] ?? 0)) / 100;
      expect(b.contributions[band]).toBeCloseTo(term, 10);
    }
  });

  it("weights of each period add up to 100 %", () => {
    expect(c.blocks.reduce((s, b) => s + (b.earlier.weight as number), 0)).toBeCloseTo(100, 10);
    expect(c.blocks.reduce((s, b) => s + (b.recent.weight as number), 0)).toBeCloseTo(100, 10);
  });

  it("counts the sentinels: 39 as below 54, 401 as above 250", () => {
    const s = compareReadings(earlierPeriod, [at(-5, "01:00", 39)], recentPeriod, [at(5, "01:00", 401)]);
    expect(s.changes.bands).toEqual({
      inRange: 0,
      belowRange: -100,
      veryLow: -100,
      aboveRange: 100,
      veryHigh: 100,
    });
  });
});

describe("placeOfChange", () => {
  it("a single block holding more than half of the change", () => {
    expect(placeOfChange([0, 0, 0, 0, 5, 1, 0, 1], 7)).toEqual({
      kind: "spans",
      spans: [{ start: 4, length: 1 }],
      points: 5,
    });
  });

  it("merges across midnight: 21:00–03:00", () => {
    const place = placeOfChange([3, 0, 0, 0, 0, 0, 0, 3], 6);
    expect(place).toEqual({ kind: "spans", spans: [{ start: 7, length: 2 }], points: 6 });
    const a: BandAttribution = { band: "inRange", change: 6, contributions: null, place };
    expect(attributionSentence(a, "mg/dL")).toBe(
      "Time in range (70–180 mg/dL) +6.0 percentage points, mostly between 21:00 and 03:00 (+6.0 points there).",
    );
  });

  it("measures against the change in its direction: blocks that moved the other way do not count", () => {
    // Total +2, but +6 gained between 00:00 and 03:00 and 4 lost between 03:00 and 15:00.
    expect(placeOfChange([6, -1, -1, -1, -1, 0, 0, 0], 2)).toEqual({
      kind: "spans",
      spans: [{ start: 0, length: 1 }],
      points: 6,
    });
  });

  it("a fall: the span that holds more than half of the loss", () => {
    expect(placeOfChange([-2, -2, 0, 0, 0, 0, 0, 1], -3)).toEqual({
      kind: "spans",
      spans: [{ start: 0, length: 2 }],
      points: -4,
    });
  });

  it("exactly half is not more than half", () => {
    // Gross 8: 0–03 holds 4, not > 4; 0–06 holds 5.
    expect(placeOfChange([4, 1, 1, 1, 1, 0, 0, 0], 8)).toEqual({
      kind: "spans",
      spans: [{ start: 0, length: 2 }],
      points: 5,
    });
  });

  it("the top two spans when no single span of up to half the day holds enough", () => {
    const place = placeOfChange([3, 0, 0, 0, 3, 0, 0, 0], 6);
    expect(place).toEqual({
      kind: "spans",
      spans: [
        { start: 0, length: 1 },
        { start: 4, length: 1 },
      ],
      points: 6,
    });
    const fall = placeOfChange([-3, 0, 0, 0, -3, 0, 0, 0], -6);
    const a: BandAttribution = { band: "aboveRange", change: -6, contributions: null, place: fall };
    expect(attributionSentence(a, "mg/dL")).toBe(
      "Time above 180 mg/dL −6.0 percentage points, mostly between 00:00 and 03:00 and between 12:00 and 15:00 (−6.0 points there).",
    );
  });

  it("spread over the day when neither one nor two spans of up to 12 hours hold more than half", () => {
    expect(placeOfChange([1, 1, 1, 1, 1, 1, 1, 1], 8)).toEqual({ kind: "spread" });
    const a: BandAttribution = { band: "inRange", change: 8, contributions: null, place: { kind: "spread" } };
    expect(attributionSentence(a, "mg/dL")).toBe(
      "Time in range (70–180 mg/dL) +8.0 percentage points, spread over the day.",
    );
  });
});

describe("the threshold: changes of at least 1 percentage point, as shown", () => {
  it.each([
    [0.94, false],
    [0.95, true],
    [-0.95, true],
    [1, true],
    [-3, true],
    [0, false],
    [null, false],
  ] as const)("%s points → explained: %s", (points, notable) => {
    expect(isNotableChange(points)).toBe(notable);
  });

  it("1 of 100 readings leaving the range is explained; 1 of 200 is not", () => {
    const all = (day: number, n: number, out: number) =>
      Array.from({ length: n }, (_, i) =>
        at(day, `${String(i % 24).padStart(2, "0")}:10`, i < out ? 200 : 120),
      );
    const big = compareReadings(earlierPeriod, all(-5, 100, 0), recentPeriod, all(5, 100, 1));
    expect(big.changes.bands.inRange).toBe(-1);
    expect(big.attribution[0]?.place).toEqual({
      kind: "spans",
      spans: [{ start: 0, length: 1 }],
      points: expect.closeTo(-1, 10),
    });
    const small = compareReadings(earlierPeriod, all(-5, 200, 0), recentPeriod, all(5, 200, 1));
    expect(small.changes.bands.inRange).toBe(-0.5);
    expect(small.attribution[0]?.place).toBeNull();
    expect(attributionSentence(small.attribution[0] as BandAttribution, "mg/dL")).toBeNull();
  });
});

describe("an empty period", () => {
  it("has no changes of shares, no contributions and no attribution", () => {
    const c = compareReadings(
      earlierPeriod,
      [],
      recentPeriod,
      oneEachBlock(2, [60, 120, 120, 120, 120, 120, 120, 300]),
    );
    expect(c.earlier.nValues).toBe(0);
    expect(c.earlier.timeInRanges).toBeNull();
    expect(c.changes.bands.inRange).toBeNull();
    expect(c.blocks[0]?.earlier).toEqual({
      readings: 0,
      weight: null,
      shares: { inRange: null, belowRange: null, veryLow: null, aboveRange: null, veryHigh: null },
    });
    expect(c.blocks[0]?.recent.shares.belowRange).toBe(100);
    expect(c.blocks[0]?.contributions.inRange).toBeNull();
    for (const a of c.attribution) {
      expect(a).toMatchObject({ change: null, contributions: null, place: null });
      expect(attributionSentence(a, "mg/dL")).toBeNull();
    }
  });

  it("a block without readings in one period contributes only through the other's", () => {
    // Earlier: all 4 readings between 06:00 and 09:00, in range. Recent: 2 there in range, 2 at
    // 00:00–03:00 high. In range 100 % → 50 %: block 0 contributes 0 − 0, block 2 50 − 100.
    const c = compareReadings(
      earlierPeriod,
      [at(-5, "06:10", 100), at(-5, "06:20", 100), at(-4, "06:10", 100), at(-4, "06:20", 100)],
      recentPeriod,
      [at(5, "06:10", 100), at(5, "06:20", 100), at(5, "00:10", 200), at(5, "00:20", 200)],
    );
    expect(c.blocks[0]?.earlier.shares.inRange).toBeNull();
    expect(c.blocks[0]?.contributions.inRange).toBe(0);
    expect(c.blocks[2]?.contributions.inRange).toBe(-50);
    expect(c.blocks[0]?.contributions.aboveRange).toBe(50);
  });
});

describe("wording", () => {
  it("signs and rounds halves away from zero", () => {
    expect(signedPoints(6.25)).toBe("+6.3");
    expect(signedPoints(-6.25)).toBe("−6.3");
    expect(signedPoints(0.04)).toBe("0.0");
    expect(signedPoints(-0.04)).toBe("0.0");
    expect(roundTenth(-0.05)).toBe(-0.1);
  });

  it("labels the bands in either unit", () => {
    expect(bandLabel("veryLow", "mg/dL")).toBe("Time below 54 mg/dL");
    expect(bandLabel("veryLow", "mmol/L")).toBe("Time below 3.0 mmol/L");
    expect(bandLabel("veryHigh", "mmol/L")).toBe("Time above 13.9 mmol/L");
    expect(bandLabel("inRange", "mmol/L")).toBe("Time in range (3.9–10.0 mmol/L)");
  });
});
