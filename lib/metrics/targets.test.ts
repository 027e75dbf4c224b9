import { describe, expect, it } from "vitest";
import {
  bandOf,
  bandsOf,
  goalTime,
  meetsGoal,
  parseTargetGroup,
  TARGET_PRESETS,
  timeInBands,
} from "./targets";
import { timeInRanges } from "./time-in-ranges";

const standard = TARGET_PRESETS.standard.edges;
const pregnancy = TARGET_PRESETS.pregnancy.edges;

describe("bands by population", () => {
  it("puts the consensus edges where the consensus does: 54 low, 70 and 180 in range, 250 high", () => {
    expect([39, 53.9, 54, 69.9, 70, 180, 180.1, 250, 250.1, 401].map((v) => bandOf(v, standard))).toEqual([
      "veryLow",
      "veryLow",
      "low",
      "low",
      "inRange",
      "inRange",
      "high",
      "high",
      "veryHigh",
      "veryHigh",
    ]);
  });

  it("gives the same shares as the consensus time in ranges for the standard preset", () => {
    const values = [39, 54, 62, 69, 70, 100, 180, 181, 250, 251, 401, 120];
    expect(timeInBands(values, standard)).toEqual(timeInRanges(values).percentages);
  });

  it("uses 63–140 mg/dL in pregnancy, with everything above 140 high and no very-high band", () => {
    expect([53, 54, 62.9, 63, 140, 140.1, 401].map((v) => bandOf(v, pregnancy))).toEqual([
      "veryLow",
      "low",
      "low",
      "inRange",
      "inRange",
      "high",
      "high",
    ]);
    expect(bandsOf(pregnancy)).toEqual(["high", "inRange", "low", "veryLow"]);
    // 8 readings: 1 very low, 1 low, 4 in range, 2 high → 12.5, 12.5, 50, 25, 0.
    expect(timeInBands([50, 60, 63, 100, 120, 140, 141, 300], pregnancy)).toEqual({
      veryLow: 12.5,
      low: 12.5,
      inRange: 50,
      high: 25,
      veryHigh: 0,
    });
  });

  it("sums goals over their bands and compares strictly", () => {
    const [, above180, tir, below70, below54, cv] = TARGET_PRESETS.standard.goals;
    const p = { veryLow: 1, low: 2.9, inRange: 70, high: 20, veryHigh: 6.1 };
    const met = (g: typeof tir) => meetsGoal(g!, goalTime(g!, p));
    expect(met(tir)).toBe(false); // > 70 % required
    expect(met(below70)).toBe(true); // 3.9 < 4
    expect(met(below54)).toBe(false); // 1 is not < 1
    expect(met(above180)).toBe(false); // 26.1 above 180
    expect(goalTime(above180!, p)).toBeCloseTo(26.1, 10);
    expect(meetsGoal(cv!, 36)).toBe(true); // CV ≤ 36 % includes 36
    expect(meetsGoal(cv!, 36.01)).toBe(false);
  });

  it("names each goal by what it measures, cumulative below 70 and above 180", () => {
    expect(TARGET_PRESETS.standard.goals.map((g) => [g.metric, g.bands])).toEqual([
      ["timeAbove250", ["veryHigh"]],
      ["timeAbove180", ["high", "veryHigh"]],
      ["timeInRange", ["inRange"]],
      ["timeBelow70", ["low", "veryLow"]],
      ["timeBelow54", ["veryLow"]],
      ["cv", []],
    ]);
    expect(TARGET_PRESETS.olderHighRisk.goals.map((g) => [g.metric, g.comparison, g.percent])).toEqual([
      ["timeAbove250", "under", 10],
      ["timeInRange", "over", 50],
      ["timeBelow70", "under", 1],
      ["cv", "atMost", 36],
    ]);
    expect(TARGET_PRESETS.pregnancy.goals.map((g) => g.metric)).toEqual([
      "timeAbove140",
      "timeInRange",
      "timeBelow63",
      "timeBelow54",
    ]);
  });

  it("reads target groups, the AGP's former 'older' as olderHighRisk", () => {
    expect(parseTargetGroup("older")).toBe("olderHighRisk");
    expect(parseTargetGroup("pregnancy")).toBe("pregnancy");
    expect(parseTargetGroup("elderly")).toBeNull();
  });

  it("is empty for no readings", () => {
    expect(timeInBands([], standard)).toBeNull();
  });
});
