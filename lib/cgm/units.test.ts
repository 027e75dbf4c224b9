import { describe, expect, it } from "vitest";
import { convertGlucose, fromMgdlRounded, MGDL_PER_MMOLL, mgdlToMmoll, roundForUnit } from "./units";
import { classifyValue, sentinelValue } from "./values";

describe("units", () => {
  it("converts with 18.0182 mg/dL per mmol/L", () => {
    // 180 / 18.0182 = 9.98990...
    expect(mgdlToMmoll(180)).toBeCloseTo(9.9899, 4);
    expect(convertGlucose(10, "mmol/L", "mg/dL")).toBeCloseTo(180.182, 6);
    expect(convertGlucose(123, "mg/dL", "mg/dL")).toBe(123);
    expect(convertGlucose(convertGlucose(97, "mg/dL", "mmol/L"), "mmol/L", "mg/dL")).toBeCloseTo(97, 10);
    expect(MGDL_PER_MMOLL).toBe(18.0182);
  });

  it("rounds like a device: whole mg/dL, one decimal of mmol/L", () => {
    expect(roundForUnit(99.5, "mg/dL")).toBe(100);
    expect(roundForUnit(5.55, "mmol/L")).toBe(5.6);
    expect(roundForUnit(mgdlToMmoll(70), "mmol/L")).toBe(3.9);
  });
});

describe("value rules (39 and 401)", () => {
  it("the sentinels in each unit", () => {
    expect(sentinelValue("low", "mg/dL")).toBe(39);
    expect(sentinelValue("high", "mg/dL")).toBe(401);
    // 39 / 18.0182 = 2.164 → 2.2; 401 / 18.0182 = 22.255 → 22.3
    expect(sentinelValue("low", "mmol/L")).toBe(2.2);
    expect(sentinelValue("high", "mmol/L")).toBe(22.3);
  });

  it("classifies by status first, then by the measuring range", () => {
    expect(classifyValue(100, "mg/dL", "low")).toBe("low");
    expect(classifyValue(39, "mg/dL", null)).toBe("low");
    expect(classifyValue(40, "mg/dL", null)).toBe("inRange");
    expect(classifyValue(401, "mg/dL", null)).toBe("high");
  });
});

describe("fromMgdlRounded", () => {
  it("shows a mg/dL value in the unit as devices round it", () => {
    expect(fromMgdlRounded(180, "mmol/L")).toBe(10);
    expect(fromMgdlRounded(70, "mmol/L")).toBe(3.9);
    expect(fromMgdlRounded(180.4, "mg/dL")).toBe(180);
  });
});
