import { describe, expect, it } from "vitest";
import { axisTicks } from "@/lib/trace/format";
import {
  displayValue,
  formatGlucoseNumber,
  glucoseRangeText,
  glucoseText,
  mgdlRangeText,
  mgdlText,
  pointText,
  withGlucoseUnit,
} from "./glucose-text";
import { classifyValue } from "./values";

/** Spec 2.1: 39 and 401 are "below 40" and "above 400", shown as words, never as numbers. */

describe("displayValue", () => {
  it.each([
    [39, "mg/dL", "low", "LOW"],
    [401, "mg/dL", "high", "HIGH"],
    // Without a status the measuring range (40–400 mg/dL) decides.
    [39, "mg/dL", null, "LOW"],
    [401, "mg/dL", null, "HIGH"],
    [40, "mg/dL", null, "40"],
    [400, "mg/dL", null, "400"],
    [123.4, "mg/dL", null, "123"],
    // mmol/L sentinels: 39 → 2.2 and 401 → 22.3 (÷ 18.0182, one decimal).
    [2.2, "mmol/L", "low", "LOW"],
    [22.3, "mmol/L", "high", "HIGH"],
    [2.2, "mmol/L", null, "LOW"],
    [22.3, "mmol/L", null, "HIGH"],
    [2.3, "mmol/L", null, "2.3"],
    [10, "mmol/L", null, "10.0"],
    [5.55, "mmol/L", null, "5.6"],
  ] as const)("%s %s with status %s reads %s", (value, unit, status, text) => {
    expect(displayValue(value, unit, status)).toBe(text);
  });

  it("lets status decide over the value", () => {
    expect(displayValue(120, "mg/dL", "low")).toBe("LOW");
    expect(classifyValue(120, "mg/dL", "high")).toBe("high");
  });
});

describe("value rules (39 and 401)", () => {
  it("are never shown as numbers", () => {
    expect(displayValue(39, "mg/dL")).toBe("LOW");
    expect(displayValue(401, "mg/dL")).toBe("HIGH");
    expect(displayValue(2.2, "mmol/L", "low")).toBe("LOW");
    expect(displayValue(22.3, "mmol/L", "high")).toBe("HIGH");
    expect(displayValue(40, "mg/dL")).toBe("40");
    expect(displayValue(400, "mg/dL")).toBe("400");
    expect(displayValue(5.04, "mmol/L")).toBe("5.0");
  });
});

describe("formatGlucoseNumber", () => {
  it("writes mg/dL whole and mmol/L always with one decimal", () => {
    expect(formatGlucoseNumber(180, "mg/dL")).toBe("180");
    expect(formatGlucoseNumber(69.6, "mg/dL")).toBe("70");
    expect(formatGlucoseNumber(10, "mmol/L")).toBe("10.0");
    expect(formatGlucoseNumber(3, "mmol/L")).toBe("3.0");
    expect(formatGlucoseNumber(3.885, "mmol/L")).toBe("3.9");
    expect(axisTicks("mmol/L").map((t) => formatGlucoseNumber(t, "mmol/L"))).toEqual([
      "2.2",
      "3.0",
      "3.9",
      "10.0",
      "13.9",
      "22.2",
    ]);
  });
});

describe("glucoseText", () => {
  it("shows a value with its unit, and the out-of-range readings as words", () => {
    expect(glucoseText(101, "mg/dL")).toBe("101 mg/dL");
    expect(glucoseText(5.6, "mmol/L")).toBe("5.6 mmol/L");
    expect(glucoseText(10, "mmol/L")).toBe("10.0 mmol/L");
    expect(glucoseText(39, "mg/dL")).toBe("LOW");
    expect(glucoseText(401, "mg/dL")).toBe("HIGH");
    // 22.3 × 18.0182 = 401.8 mg/dL
    expect(glucoseText(22.3, "mmol/L")).toBe("HIGH");
  });
});

describe("units and ranges", () => {
  it("adds the unit to numbers, never to LOW and HIGH", () => {
    expect(withGlucoseUnit("101", "mg/dL")).toBe("101 mg/dL");
    expect(withGlucoseUnit("LOW", "mg/dL")).toBe("LOW");
    expect(withGlucoseUnit("HIGH", "mmol/L")).toBe("HIGH");
  });

  it("writes mg/dL bounds and ranges in the unit on screen", () => {
    expect(mgdlText(70, "mg/dL")).toBe("70 mg/dL");
    expect(mgdlText(70, "mmol/L")).toBe("3.9 mmol/L");
    expect(mgdlRangeText(70, 180, "mg/dL")).toBe("70–180 mg/dL");
    expect(mgdlRangeText(70, 180, "mmol/L")).toBe("3.9–10.0 mmol/L");
    expect(glucoseRangeText(3.9, 10, "mmol/L")).toBe("3.9–10.0 mmol/L");
  });

  it("writes a chart point by its sentinel, not by its value in the unit on screen", () => {
    expect(pointText({ value: 2.2, sentinel: null }, "mmol/L")).toBe("2.2");
    expect(pointText({ value: 2.2, sentinel: "low" }, "mmol/L")).toBe("LOW");
    expect(pointText({ value: 401, sentinel: "high" }, "mg/dL")).toBe("HIGH");
  });
});
