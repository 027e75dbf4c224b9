import { describe, expect, it } from "vitest";
import {
  evaluateGoals,
  goalValueText,
  largestRemainder,
  roundShares,
  timesTheGoal,
  unmetGoals,
} from "./goals";
import { type BandKey, bandsOf, TARGET_PRESETS } from "./targets";

const standard = TARGET_PRESETS.standard;
const pregnancy = TARGET_PRESETS.pregnancy;
const shares = (veryLow: number, low: number, inRange: number, high: number, veryHigh: number) => ({
  veryLow,
  low,
  inRange,
  high,
  veryHigh,
});
/** `n` readings of each value. */
const readings = (...pairs: Array<[number, number]>) => pairs.flatMap(([value, n]) => Array(n).fill(value));

describe("evaluateGoals", () => {
  it("judges below 70 cumulatively: 3% low and 2% very low is 5%, not met, though each band is under 4%", () => {
    const values = readings([50, 2], [60, 3], [120, 80], [200, 15]);
    const byMetric = Object.fromEntries(evaluateGoals(standard, values, 30).map((r) => [r.metric, r]));
    expect(byMetric.timeBelow70).toMatchObject({ value: 5, goal: 4, comparison: "under", met: false });
    expect(byMetric.timeBelow54).toMatchObject({ value: 2, goal: 1, met: false });
    expect(byMetric.timeAbove180).toMatchObject({ value: 15, met: true });
    expect(byMetric.timeInRange).toMatchObject({ value: 80, comparison: "over", met: true });
    expect(byMetric.cv).toMatchObject({ value: 30, comparison: "atMost", met: true });
  });

  it("judges pregnancy on 63–140: a reading of 150 is above range, one of 65 in range", () => {
    const values = readings([65, 70], [150, 30]);
    const byMetric = Object.fromEntries(evaluateGoals(pregnancy, values, 20).map((r) => [r.metric, r]));
    expect(byMetric.timeInRange).toMatchObject({ value: 70, met: false }); // over 70 is strict
    expect(byMetric.timeAbove140).toMatchObject({ value: 30, met: false });
    expect(byMetric.cv).toBeUndefined(); // no CV goal in pregnancy
    // The standard goals judge the same readings on 70–180: 65 is low there, 150 in range.
    expect(evaluateGoals(standard, values, 20).find((r) => r.metric === "timeInRange")?.value).toBe(30);
  });

  it("is empty without readings and leaves out an unknown CV", () => {
    expect(evaluateGoals(standard, [], null)).toEqual([]);
    expect(evaluateGoals(standard, [100], null).map((r) => r.metric)).not.toContain("cv");
  });

  it("orders unmet goals by consensus priority: lows first, time in range after highs", () => {
    const values = readings([45, 9], [60, 9], [120, 40], [200, 30], [300, 12]);
    expect(unmetGoals(evaluateGoals(standard, values, 50)).map((r) => r.metric)).toEqual([
      "timeBelow54",
      "timeBelow70",
      "timeAbove250",
      "timeAbove180",
      "timeInRange",
      "cv",
    ]);
  });

  it("says a multiple from twice the goal on: 9% against under 1% is nine times", () => {
    const [r] = evaluateGoals(standard, readings([45, 9], [120, 91]), 20).filter(
      (x) => x.metric === "timeBelow54",
    );
    expect(timesTheGoal(r!)).toBe(9);
    const [below70] = evaluateGoals(standard, readings([60, 5], [120, 95]), 20).filter(
      (x) => x.metric === "timeBelow70",
    );
    expect(timesTheGoal(below70!)).toBeNull(); // 5 % is 1.25 times: "above the goal"
  });
});

describe("largestRemainder", () => {
  const keys: BandKey[] = ["veryHigh", "high", "inRange", "low", "veryLow"];
  it("sums to exactly 100 where rounding each would not", () => {
    // Each rounded alone: 2 + 2 + 91 + 2 + 2 = 99.
    const r = largestRemainder(shares(2.4, 2.4, 90.8, 2.2, 2.2), keys, 0);
    expect(keys.reduce((s, k) => s + r[k], 0)).toBe(100);
    expect(r).toEqual(shares(2, 3, 91, 2, 2)); // the unit left over goes to the largest remainder (0.8 of 90.8)
  });

  it("works in tenths", () => {
    const r = largestRemainder(shares(1 / 3, 1 / 3, 1 / 3, 0, 99), keys, 1);
    expect(Math.round(keys.reduce((s, k) => s + r[k], 0) * 10)).toBe(1000);
  });
});

describe("roundShares", () => {
  const bands = bandsOf(standard.edges);
  it("shows whole percentages when they tell the truth, goals as sums of the shown bands", () => {
    const r = roundShares(shares(0.6, 2.4, 80, 12, 5), bands, standard.goals);
    // 0.6 → 1, and "1%" against "under 1%" would say not met while 0.6 is met: one decimal instead.
    expect(r.decimals).toBe(1);
    const whole = roundShares(shares(2.2, 2.9, 72.6, 14.7, 7.6), bands, standard.goals);
    expect(whole.decimals).toBe(0);
    expect(whole.goals.timeAbove180).toBe(whole.bands.high + whole.bands.veryHigh);
    expect(whole.goals.timeBelow70).toBe(whole.bands.low + whole.bands.veryLow);
  });

  it("never shows time spent below 54 as 0%", () => {
    const r = roundShares(shares(0.4, 1.6, 75, 18, 5), bands, standard.goals);
    expect(r.decimals).toBeGreaterThan(0);
    expect(r.bands.veryLow).toBe(0.4);
  });

  it("does not round 3.6% below 70 up to the goal of 4%", () => {
    const r = roundShares(shares(1.1, 2.5, 76.4, 15, 5), bands, standard.goals);
    expect(r.goals.timeBelow70).toBeLessThan(4);
  });

  it("keeps the parts and the sum in agreement: no '2% + 2%' beside 'above 180: 3%'", () => {
    const r = roundShares(shares(0.9, 3, 93.6, 1.25, 1.25), bands, standard.goals);
    expect(r.goals.timeAbove180).toBeCloseTo(r.bands.high + r.bands.veryHigh, 9);
  });
});

describe("roundShares with a least number of decimals", () => {
  const bands = bandsOf(standard.edges);
  it("keeps one decimal where the page's other percentages have it, and still adds up", () => {
    const r = roundShares(shares(2.2, 2.9, 72.6, 14.7, 7.6), bands, standard.goals, 1);
    expect(r.decimals).toBe(1);
    expect(r.bands).toEqual({ veryLow: 2.2, low: 2.9, inRange: 72.6, high: 14.7, veryHigh: 7.6 });
    expect(r.goals.timeBelow70).toBe(5.1);
    expect(goalValueText(41.23, { comparison: "atMost", percent: 36 }, 1)).toBe("41.2");
  });
});

describe("goalValueText", () => {
  it("keeps a CV of 36.04% from reading as the met 36%", () => {
    const cv = { comparison: "atMost" as const, percent: 36 };
    expect(goalValueText(36.04, cv)).toBe("36.04");
    expect(goalValueText(36.4, cv)).toBe("36.4");
    expect(goalValueText(41.2, cv)).toBe("41");
  });
});
