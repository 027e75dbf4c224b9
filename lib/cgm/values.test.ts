import { describe, expect, it } from "vitest";
import { metricValueMgdl, sentinelValue } from "./values";

/** Spec 2.1: 39 and 401 are "below 40" and "above 400", shown as words, never as numbers. */

describe("sentinelValue", () => {
  it("is 39/401 in mg/dL and 2.2/22.3 in mmol/L", () => {
    expect(sentinelValue("low", "mg/dL")).toBe(39);
    expect(sentinelValue("high", "mg/dL")).toBe(401);
    expect(sentinelValue("low", "mmol/L")).toBe(2.2);
    expect(sentinelValue("high", "mmol/L")).toBe(22.3);
  });
});

describe("metricValueMgdl", () => {
  it("takes the sentinels as exactly 39 and 401, in either unit", () => {
    expect(metricValueMgdl(39, "mg/dL", "low")).toBe(39);
    expect(metricValueMgdl(401, "mg/dL", "high")).toBe(401);
    // 2.2 and 22.3 mmol/L are 39.6 and 401.8 mg/dL when converted; as sentinels they are 39 and 401.
    expect(metricValueMgdl(2.2, "mmol/L", null)).toBe(39);
    expect(metricValueMgdl(22.3, "mmol/L", "high")).toBe(401);
  });

  it("converts other mmol/L values to the nearest whole mg/dL (18.0182 mg/dL per mmol/L)", () => {
    // 5.5 × 18.0182 = 99.1001 → 99; 5.6 × 18.0182 = 100.90192 → 101.
    expect(metricValueMgdl(5.5, "mmol/L")).toBe(99);
    expect(metricValueMgdl(5.6, "mmol/L")).toBe(101);
    // The consensus edges in mmol/L land on their band's side: 3.0 → 54.0546 → 54 (low, not very
    // low), 3.9 → 70.27098 → 70 (in range), 10.0 → 180.182 → 180 (in range, not high),
    // 13.9 → 250.45298 → 250 (high, not very high); one step past each is past the edge:
    // 2.9 → 52.25278 → 52, 3.8 → 68.46916 → 68, 10.1 → 181.98382 → 182, 14.0 → 252.2548 → 252.
    expect([3.0, 3.9, 10.0, 13.9].map((v) => metricValueMgdl(v, "mmol/L"))).toEqual([54, 70, 180, 250]);
    expect([2.9, 3.8, 10.1, 14.0].map((v) => metricValueMgdl(v, "mmol/L"))).toEqual([52, 68, 182, 252]);
    expect(metricValueMgdl(120, "mg/dL")).toBe(120);
  });
});
