import { describe, expect, it } from "vitest";
import type { Calibration } from "@/lib/cgm";
import { DEFAULT_PREFERENCES, type Preferences } from "@/lib/preferences/schema";
import { calibrationRows, calibrationsEmptyText } from "./calibrations";

const prefs = (unit: Preferences["unit"]): Preferences => ({ ...DEFAULT_PREFERENCES, unit });
const cal = (systemTime: string, value: number, unit: Calibration["unit"]): Calibration => ({
  systemTime,
  displayTime: systemTime.replace("T0", "T1"),
  value,
  unit,
});

describe("calibrationRows", () => {
  const mmol = [cal("2026-03-01T07:00:00", 5.6, "mmol/L"), cal("2026-03-01T09:30:00", 7.2, "mmol/L")];

  it("lists newest first in the data's unit when the patient chose none", () => {
    const rows = calibrationRows(mmol, prefs(null));
    expect(rows.map((r) => [r.systemTime, r.valueText, r.enteredText])).toEqual([
      ["2026-03-01T09:30:00", "7.2 mmol/L", null],
      ["2026-03-01T07:00:00", "5.6 mmol/L", null],
    ]);
    expect(rows[0]?.displayTime).toBe("2026-03-01T19:30:00");
  });

  it("converts to the chosen unit and keeps the value as entered", () => {
    // 7.2 × 18.0182 = 129.7 → 130; 5.6 × 18.0182 = 100.9 → 101
    expect(calibrationRows(mmol, prefs("mg/dL")).map((r) => [r.valueText, r.enteredText])).toEqual([
      ["130 mg/dL", "7.2 mmol/L"],
      ["101 mg/dL", "5.6 mmol/L"],
    ]);
    // 101 / 18.0182 = 5.61 → 5.6; 180 / 18.0182 = 9.99 → 10.0
    const mgdl = [cal("2026-03-02T07:00:00", 101, "mg/dL"), cal("2026-03-02T08:00:00", 180, "mg/dL")];
    expect(calibrationRows(mgdl, prefs("mmol/L")).map((r) => r.valueText)).toEqual([
      "10.0 mmol/L",
      "5.6 mmol/L",
    ]);
  });

  it("converts each record from its own unit", () => {
    const mixed = [cal("2026-03-02T07:00:00", 101, "mg/dL"), cal("2026-03-02T08:00:00", 5.6, "mmol/L")];
    expect(calibrationRows(mixed, prefs("mg/dL")).map((r) => [r.valueText, r.enteredText])).toEqual([
      ["101 mg/dL", "5.6 mmol/L"],
      ["101 mg/dL", null],
    ]);
  });
});

describe("calibrationsEmptyText", () => {
  it("says that factory-calibrated sensors need none", () => {
    expect(calibrationsEmptyText("g7")).toContain("Your G7 sensor is calibrated at the factory");
    expect(calibrationsEmptyText("G6")).toContain("Your G6 sensor is calibrated at the factory");
    // API v3's names: a G7 15-day (SandboxUser7) and a Dexcom ONE+ (SandboxUser8).
    expect(calibrationsEmptyText("g715day")).toContain("Your G7 15-day sensor is calibrated at the factory");
    expect(calibrationsEmptyText("d1+")).toContain("Your Dexcom ONE+ sensor is calibrated at the factory");
  });

  it("says plainly that none are recorded otherwise", () => {
    for (const g of ["g5", "g4", null, ""]) {
      expect(calibrationsEmptyText(g)).toMatch(/^No calibrations are recorded in your CGM account\./);
    }
  });
});
