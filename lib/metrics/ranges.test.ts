import { describe, expect, it } from "vitest";
import { metricValueMgdl } from "@/lib/cgm/values";
import { glycemiaRiskIndex, glycemiaRiskIndexOf, griZone } from "./gri";
import { summarize } from "./summary";
import { consensusRangeOf, rangePercentages, timeInRanges, timeInTightRange } from "./time-in-ranges";

describe("consensus range edges (Battelino 2019)", () => {
  it.each([
    [39, "veryLow"],
    [53.9, "veryLow"],
    [54, "low"],
    [69.9, "low"],
    [70, "inRange"],
    [180, "inRange"],
    [180.1, "high"],
    [250, "high"],
    [250.1, "veryHigh"],
    [401, "veryHigh"],
  ] as const)("%s mg/dL → %s", (value, range) => {
    expect(consensusRangeOf(value)).toBe(range);
  });
});

describe("timeInRanges", () => {
  it("ten readings, two per range: 2 / 10 × 100 = 20 % each", () => {
    const t = timeInRanges([39, 53.9, 54, 69.9, 70, 180, 180.1, 250, 250.1, 401]);
    expect(t.n).toBe(10);
    expect(t.counts).toEqual({ veryLow: 2, low: 2, inRange: 2, high: 2, veryHigh: 2 });
    expect(t.percentages).toEqual({ veryLow: 20, low: 20, inRange: 20, high: 20, veryHigh: 20 });
  });
  it("[150, 50, 300, 100]: veryLow 1 (50), inRange 2 (100, 150), veryHigh 1 (300) → 25/50/25 %", () => {
    const t = timeInRanges([150, 50, 300, 100]);
    expect(t.counts).toEqual({ veryLow: 1, low: 0, inRange: 2, high: 0, veryHigh: 1 });
    expect(t.percentages).toEqual({ veryLow: 25, low: 0, inRange: 50, high: 0, veryHigh: 25 });
  });
  it("mmol/L readings at and one step past each consensus edge, converted first (metricValueMgdl)", () => {
    // 2.9, 3.0, 3.8, 3.9, 10.0, 10.1, 13.9, 14.0 mmol/L × 18.0182, to whole mg/dL:
    // 52.25 → 52, 54.05 → 54, 68.47 → 68, 70.27 → 70, 180.18 → 180, 181.98 → 182, 250.45 → 250,
    // 252.25 → 252. Bands: veryLow {52}; low {54, 68}; inRange {70, 180}; high {182, 250};
    // veryHigh {252}: 1/8 = 12.5 %, 2/8 = 25 %.
    const mmol = [2.9, 3.0, 3.8, 3.9, 10.0, 10.1, 13.9, 14.0];
    const t = timeInRanges(mmol.map((v) => metricValueMgdl(v, "mmol/L")));
    expect(t.counts).toEqual({ veryLow: 1, low: 2, inRange: 2, high: 2, veryHigh: 1 });
    expect(t.percentages).toEqual({ veryLow: 12.5, low: 25, inRange: 25, high: 25, veryHigh: 12.5 });
  });
  it("no readings: zero counts, null percentages", () => {
    expect(timeInRanges([])).toEqual({
      n: 0,
      counts: { veryLow: 0, low: 0, inRange: 0, high: 0, veryHigh: 0 },
      percentages: null,
    });
  });
});

describe("Glycemia Risk Index (Klonoff 2023)", () => {
  it("VLow 1, Low 3, High 20, VHigh 5 %: hypo = 1 + 0.8×3 = 3.4; hyper = 5 + 0.5×20 = 15; GRI = 3×1 + 2.4×3 + 1.6×5 + 0.8×20 = 3 + 7.2 + 8 + 16 = 34.2 (zone B)", () => {
    const g = glycemiaRiskIndex({ veryLow: 1, low: 3, high: 20, veryHigh: 5 });
    expect(g.hypoComponent).toBeCloseTo(3.4, 12);
    expect(g.hyperComponent).toBe(15);
    expect(g.gri).toBeCloseTo(34.2, 12);
    expect(g.zone).toBe("B");
  });
  it("20 % in every out-of-range band: 3×20 + 2.4×20 + 1.6×20 + 0.8×20 = 156 → capped at 100; components uncapped (36, 30)", () => {
    const g = glycemiaRiskIndexOf([39, 53.9, 54, 69.9, 70, 180, 180.1, 250, 250.1, 401]);
    expect(g).not.toBeNull();
    expect(g!.gri).toBe(100);
    expect(g!.hypoComponent).toBe(36);
    expect(g!.hyperComponent).toBe(30);
    expect(g!.zone).toBe("E");
  });
  it("[150, 50, 300, 100]: VLow 25, VHigh 25 → 3×25 + 1.6×25 = 75 + 40 = 115 → 100", () => {
    expect(glycemiaRiskIndexOf([150, 50, 300, 100])!.gri).toBe(100);
  });
  it("all in range: 0, zone A", () => {
    expect(glycemiaRiskIndexOf([100, 120])).toEqual({
      hypoComponent: 0,
      hyperComponent: 0,
      gri: 0,
      zone: "A",
    });
  });
  it("zones: quintiles with inclusive upper edges", () => {
    expect([0, 20, 20.1, 40, 40.1, 60, 60.1, 80, 80.1, 100].map(griZone)).toEqual([
      "A",
      "A",
      "B",
      "B",
      "C",
      "C",
      "D",
      "D",
      "E",
      "E",
    ]);
  });
  it("no readings: null", () => {
    expect(glycemiaRiskIndexOf([])).toBeNull();
  });
});

describe("summarize", () => {
  it("[150, 50, 300, 100] in one object (see descriptive and quantiles tests for the arithmetic)", () => {
    expect(summarize([150, 50, 300, 100])).toEqual({
      n: 4,
      sum: 600,
      mean: 150,
      variance: 8750,
      standardDeviation: Math.sqrt(8750),
      min: 50,
      max: 300,
      q1: 87.5,
      median: 125,
      q3: 187.5,
    });
  });
  it("no readings: null", () => {
    expect(summarize([])).toBeNull();
  });
});

describe("rangePercentages", () => {
  it("gives timeInRanges' percentages from the counts alone", () => {
    const values = [39, 53.9, 54, 69.9, 70, 180, 180.1, 250, 250.1, 401, 120];
    const t = timeInRanges(values);
    expect(rangePercentages(t.counts)).toEqual(t.percentages);
    expect(rangePercentages({ veryLow: 1, low: 3, inRange: 96, high: 0, veryHigh: 0 })).toEqual({
      veryLow: 1,
      low: 3,
      inRange: 96,
      high: 0,
      veryHigh: 0,
    });
    expect(rangePercentages({ veryLow: 0, low: 0, inRange: 0, high: 0, veryHigh: 0 })).toBeNull();
  });
});

describe("timeInTightRange (70–140 mg/dL inclusive, Battelino 2023)", () => {
  it("both ends are in: 70 and 140 count, 69.9 and 140.1 do not; 3 of 6 = 50 %", () => {
    expect(timeInTightRange([69.9, 70, 100, 140, 140.1, 180])).toBe(50);
  });
  it("the sentinels 39 and 401 are outside; 1 of 3 readings ≈ 33.33 %", () => {
    expect(timeInTightRange([39, 120, 401])).toBeCloseTo(100 / 3, 12);
  });
  it("null for no readings", () => {
    expect(timeInTightRange([])).toBeNull();
  });
});
