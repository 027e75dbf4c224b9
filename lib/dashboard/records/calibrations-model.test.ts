import { describe, expect, it } from "vitest";
import type { Calibration, CgmDevice } from "@/lib/cgm";
import { DEFAULT_PREFERENCES } from "@/lib/preferences/schema";
import { calibrationsModel } from "./calibrations-model";

const cal = (systemTime: string, value: number): Calibration => ({
  systemTime,
  displayTime: systemTime,
  value,
  unit: "mg/dL",
});
const device = (transmitterGeneration: string, lastUploadDate: string): CgmDevice => ({
  transmitterGeneration,
  displayDevice: "receiver",
  lastUploadDate,
  alertScheduleList: [],
});
const list = (calibrations: Calibration[], devices: CgmDevice[]) =>
  ({
    kind: "list",
    calibrations,
    devices,
    patientDays: { firstDay: "2026-02-24", lastDay: "2026-03-02" },
    latestDisplayTime: "2026-03-02T07:00:00",
  }) as const;

describe("calibrationsModel", () => {
  it("says why there is nothing to list, by the sensor's generation", () => {
    const m = calibrationsModel({ kind: "none", generation: "g7" }, 14, DEFAULT_PREFERENCES);
    expect(m).toEqual({ kind: "none", emptyText: expect.stringContaining("calibrated at the factory") });
  });

  it("lists newest first, names each device of the period once, and counts in the caption", () => {
    const m = calibrationsModel(
      list(
        [cal("2026-03-01T07:00:00", 110), cal("2026-03-02T07:00:00", 120)],
        [device("g4", "2026-03-01T00:00:00"), device("g4", "2026-03-02T00:00:00")],
      ),
      7,
      DEFAULT_PREFERENCES,
    );
    if (m.kind !== "list") throw new Error("expected a list");
    expect(m.rows.map((r) => r.systemTime)).toEqual(["2026-03-02T07:00:00", "2026-03-01T07:00:00"]);
    expect(m.deviceNames).toEqual(["G4 transmitter · Receiver"]);
    expect(m.caption).toBe("2 calibrations, newest first");
    expect(m.periodChoices.find((c) => c.current)?.href).toBe("/dashboard/calibrations?days=7");
    expect(m.periodChoices.find((c) => c.label === "14 days")?.href).toBe("/dashboard/calibrations");
  });

  it("counts one calibration in the singular", () => {
    const m = calibrationsModel(list([cal("2026-03-01T07:00:00", 110)], []), 14, DEFAULT_PREFERENCES);
    expect(m.kind === "list" && [m.caption, m.deviceNames]).toEqual(["1 calibration, newest first", []]);
  });
});
