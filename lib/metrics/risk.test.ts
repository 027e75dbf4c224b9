import { describe, expect, it } from "vitest";
import { gmi } from "./gmi";
import {
  glucoseRisk,
  hbgi,
  highGlucoseRisk,
  lbgi,
  lbgiRiskCategory,
  lowGlucoseRisk,
  symmetrizedGlucose,
} from "./risk-index";

// f(BG) = 1.509 × ((ln BG)^1.084 − 5.381); r = 10 f². Hand values (4 decimals):
//   BG   ln BG    (ln BG)^1.084   f(BG)     r(BG)
//   50   3.91202  4.38695         −1.50001  22.5004
//   100  4.60517  5.23550         −0.21956   0.4821
//   150  5.01064  5.73699          0.53718   2.8857
//   300  5.70378  6.60208          1.84261  33.9520
const f = (bg: number) => 1.509 * (Math.log(bg) ** 1.084 - 5.381);

describe("Kovatchev's symmetrized scale", () => {
  it("f as in the table", () => {
    expect(symmetrizedGlucose(50)).toBeCloseTo(-1.50001, 5);
    expect(symmetrizedGlucose(100)).toBeCloseTo(-0.21956, 5);
    expect(symmetrizedGlucose(150)).toBeCloseTo(0.53718, 5);
    expect(symmetrizedGlucose(300)).toBeCloseTo(1.84261, 5);
    expect(symmetrizedGlucose(300)).toBe(f(300));
  });
  it("f ≈ 0 at 112.5 mg/dL, the centre of the scale", () => {
    expect(Math.abs(symmetrizedGlucose(112.5))).toBeLessThan(0.001);
  });
  it("r ≈ 100 at the scale's ends, 20 and 600 mg/dL", () => {
    expect(glucoseRisk(20)).toBeCloseTo(100, 0);
    expect(glucoseRisk(600)).toBeCloseTo(100, 0);
  });
  it("rl only below the centre, rh only above", () => {
    expect(lowGlucoseRisk(50)).toBeCloseTo(22.5004, 4);
    expect(highGlucoseRisk(50)).toBe(0);
    expect(lowGlucoseRisk(300)).toBe(0);
    expect(highGlucoseRisk(300)).toBeCloseTo(33.952, 4);
  });
  it("sentinels take part: rl(39) = 10 × f(39)² ≈ 38.2022, rh(401) ≈ 57.2731", () => {
    expect(lowGlucoseRisk(39)).toBeCloseTo(10 * f(39) ** 2, 12);
    expect(lowGlucoseRisk(39)).toBeCloseTo(38.2022, 4);
    expect(highGlucoseRisk(401)).toBeCloseTo(57.2731, 4);
  });
  it("a value below 1 mg/dL is not glucose", () => {
    expect(() => symmetrizedGlucose(0)).toThrow(RangeError);
    expect(() => lbgi([100, -5])).toThrow(RangeError);
  });
});

describe("LBGI and HBGI of [150, 50, 300, 100]", () => {
  const FOUR = [150, 50, 300, 100];
  it("LBGI = (rl(50) + rl(100) + 0 + 0) / 4 = (22.5004 + 0.4821) / 4 ≈ 5.7456", () => {
    expect(lbgi(FOUR)).toBeCloseTo((10 * f(50) ** 2 + 10 * f(100) ** 2) / 4, 12);
    expect(lbgi(FOUR)).toBeCloseTo(5.7456, 4);
  });
  it("HBGI = (rh(150) + rh(300)) / 4 = (2.8857 + 33.9520) / 4 ≈ 9.2094", () => {
    expect(hbgi(FOUR)).toBeCloseTo((10 * f(150) ** 2 + 10 * f(300) ** 2) / 4, 12);
    expect(hbgi(FOUR)).toBeCloseTo(9.2094, 4);
  });
  it("no readings: null", () => {
    expect(lbgi([])).toBeNull();
    expect(hbgi([])).toBeNull();
  });
});

describe("LBGI risk categories (upper edges inclusive)", () => {
  it.each([
    [0, "minimal"],
    [1.1, "minimal"],
    [1.1000001, "low"],
    [2.5, "low"],
    [2.5000001, "moderate"],
    [5.0, "moderate"],
    [5.0000001, "high"],
    [5.7456, "high"],
  ] as const)("LBGI %s → %s", (value, category) => {
    expect(lbgiRiskCategory(value)).toBe(category);
  });
});

describe("GMI", () => {
  it("mean 150 mg/dL: 3.31 + 0.02392 × 150 = 3.31 + 3.588 = 6.898 %", () => {
    expect(gmi(150)).toBeCloseTo(6.898, 12);
  });
  it("mean 100: 3.31 + 2.392 = 5.702 %", () => {
    expect(gmi(100)).toBeCloseTo(5.702, 12);
  });
  it("no mean: null", () => {
    expect(gmi(null)).toBeNull();
  });
});
