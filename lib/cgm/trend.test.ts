import { describe, expect, it } from "vitest";
import { TREND_DESCRIPTIONS, TRENDS, trendForRate } from "./trend";

describe("trendForRate follows the table of spec section 2.1 at every edge", () => {
  it.each([
    [8, "doubleUp"],
    [3, "doubleUp"],
    [2.99, "singleUp"],
    [2, "singleUp"],
    [1.99, "fortyFiveUp"],
    [1, "fortyFiveUp"],
    [0.99, "flat"],
    [0, "flat"],
    [-0.99, "flat"],
    [-1, "fortyFiveDown"],
    [-1.99, "fortyFiveDown"],
    [-2, "singleDown"],
    [-2.99, "singleDown"],
    [-3, "doubleDown"],
    [-7.99, "doubleDown"],
    [-8, "rateOutOfRange"],
    [8.01, "rateOutOfRange"],
    [Number.NaN, "rateOutOfRange"],
  ])("%d mg/dL/min → %s", (rate, trend) => {
    expect(trendForRate(rate)).toBe(trend);
  });

  it("describes every trend for screen readers", () => {
    for (const t of TRENDS) expect(TREND_DESCRIPTIONS[t].length).toBeGreaterThan(3);
    expect(TREND_DESCRIPTIONS.doubleUp).toBe("rising quickly");
  });
});
