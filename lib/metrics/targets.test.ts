import { describe, expect, it } from "vitest";
import { bandOf, bandsOf, goalMet, TARGET_PRESETS, timeInBands } from "./targets";
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
    const [, , tir, below70, below54] = TARGET_PRESETS.standard.goals;
    const p = { veryLow: 1, low: 2.9, inRange: 70, high: 20, veryHigh: 6.1 };
    expect(goalMet(tir!, p)).toBe(false); // > 70 % required
    expect(goalMet(below70!, p)).toBe(true); // 3.9 < 4
    expect(goalMet(below54!, p)).toBe(false); // 1 is not < 1
    expect(goalMet(TARGET_PRESETS.standard.goals[1]!, p)).toBe(false); // 26.1 above 180
  });

  it("is empty for no readings", () => {
    expect(timeInBands([], standard)).toBeNull();
  });
});
