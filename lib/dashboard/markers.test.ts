import { describe, expect, it } from "vitest";
import { markerRows } from "./markers";
import type { CalibrationMarker, EventMarker } from "./overview-model";

const event = (t: number, e: Partial<EventMarker>): EventMarker => ({
  t,
  displayTime: `2026-11-20T0${t}:00:00`,
  type: "carbs",
  subType: null,
  value: 30,
  unit: "grams",
  text: null,
  ...e,
});
const calibration = (t: number, value: number): CalibrationMarker => ({
  t,
  displayTime: `2026-11-20T0${t}:00:00`,
  value,
});

describe("markerRows", () => {
  it("lists events and calibrations newest first, each with its value and unit", () => {
    const rows = markerRows(
      [
        event(1, {}),
        event(3, { type: "exercise", subType: "medium", value: 30, unit: "minutes" }),
        event(4, { type: "health", subType: "stress", value: null, unit: null }),
      ],
      [calibration(2, 5.6)],
      "mmol/L",
    );
    expect(rows.map((r) => [r.what, r.valueText])).toEqual([
      ["Health (Stress)", null],
      ["Exercise (Medium)", "30 minutes"],
      ["Calibration", "5.6 mmol/L"],
      ["Carbs", "30 grams"],
    ]);
  });

  it("writes calibrations in the unit on screen, whole mg/dL or mmol/L to one decimal", () => {
    expect(markerRows([], [calibration(1, 101)], "mg/dL")[0]?.valueText).toBe("101 mg/dL");
    expect(markerRows([], [calibration(1, 10)], "mmol/L")[0]?.valueText).toBe("10.0 mmol/L");
    expect(
      markerRows([event(1, { type: "insulin", value: 1, unit: "units" })], [], "mg/dL")[0]?.valueText,
    ).toBe("1 unit");
  });

  it("shows a note's text, a meter reading in the unit on screen, and the alerts that sounded", () => {
    const rows = markerRows(
      [
        event(1, { type: "notes", value: null, unit: null, text: "Pizza night" }),
        event(2, { type: "bloodGlucose", value: 180, unit: "mg/dL" }),
      ],
      [],
      "mmol/L",
      [
        {
          alertName: "high",
          t: 3,
          systemTime: "2026-11-20T03:00:00",
          displayTime: "2026-11-20T03:00:00",
          end: "acknowledged",
          seconds: 125,
          repeat: false,
          snoozed: true,
        },
        {
          alertName: "outOfRange",
          t: 4,
          systemTime: "2026-11-20T04:00:00",
          displayTime: "2026-11-20T04:00:00",
          end: "cleared",
          seconds: 600,
          repeat: true,
          snoozed: false,
        },
      ],
    );
    expect(rows.map((r) => [r.what, r.valueText])).toEqual([
      ["Signal loss alert (again)", "Cleared after 10 min"],
      ["High alert", "Acknowledged after 2 min 5 s"],
      ["Blood glucose", "10.0 mmol/L"],
      ["Note", "Pizza night"],
    ]);
  });
});
