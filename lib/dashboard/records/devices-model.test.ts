import { describe, expect, it } from "vitest";
import type { CgmDevice } from "@/lib/cgm/app-records";
import type { DeviceV1 } from "@/lib/cgm/schemas";
import { DEFAULT_PREFERENCES } from "@/lib/preferences/schema";
import { type DevicesData, devicesModel, utcTimesToPlace } from "./devices-model";

const schedule = (
  alertScheduleName: string,
  extra: Partial<CgmDevice["alertScheduleList"][number]["alertScheduleSettings"]> = {},
): CgmDevice["alertScheduleList"][number] => ({
  alertScheduleSettings: {
    alertScheduleName,
    isEnabled: true,
    isDefaultSchedule: alertScheduleName === "",
    startTime: "00:00",
    endTime: "00:00",
    daysOfWeek: ["monday", "tuesday", "wednesday", "thursday", "friday"],
    ...extra,
  },
  alertSettings: null,
});

const G7: CgmDevice = {
  transmitterGeneration: "g7",
  displayDevice: "iOS",
  lastUploadDate: "2026-03-02T10:00:00",
  alertScheduleList: [
    schedule("", {
      isActive: true,
      override: { isOverrideEnabled: true, mode: "vibrate", endTime: "2026-03-02T12:00:00" },
    }),
    schedule("Night", { isEnabled: false }),
  ],
};
const RECEIVER: DeviceV1 = { model: "Unknown", lastUploadDate: "2026-03-01T09:00:00", alertSettings: null };

const data = (extra: Partial<DevicesData> = {}): DevicesData => ({
  v2: [G7],
  v1: [RECEIVER],
  receiverTimes: new Map([
    ["2026-03-02T10:00:00", "2026-03-02T11:00:00"],
    ["2026-03-02T12:00:00", "2026-03-02T13:00:00"],
  ]),
  readingUnit: "mmol/L",
  windowEnd: "2026-03-02T11:05:00",
  patientDays: { firstDay: "2026-02-01", lastDay: "2026-03-02" },
  ...extra,
});

describe("utcTimesToPlace", () => {
  it("asks for every upload and every override's end once", () => {
    expect(utcTimesToPlace([G7, G7], [RECEIVER])).toEqual([
      "2026-03-02T10:00:00",
      "2026-03-01T09:00:00",
      "2026-03-02T12:00:00",
    ]);
    expect(utcTimesToPlace([], null)).toEqual([]);
  });
});

describe("devicesModel", () => {
  it("shows glucose in the patient's unit, else the readings', else mg/dL", () => {
    expect(devicesModel(data(), DEFAULT_PREFERENCES).glucoseUnit).toBe("mmol/L");
    expect(devicesModel(data(), { ...DEFAULT_PREFERENCES, unit: "mg/dL" }).glucoseUnit).toBe("mg/dL");
    expect(devicesModel(data({ readingUnit: null }), DEFAULT_PREFERENCES).glucoseUnit).toBe("mg/dL");
  });

  it("names the period by the receiver's days when a reading tells them, else the last 30 days", () => {
    expect(devicesModel(data(), DEFAULT_PREFERENCES).period).toMatch(
      /^Sun 1 Feb 2026 – Mon 2 Mar 2026 \(30 days\) on your receiver's clock, up to your latest reading at /,
    );
    expect(devicesModel(data({ windowEnd: null, patientDays: undefined }), DEFAULT_PREFERENCES).period).toBe(
      "the last 30 days",
    );
  });

  it("says each device and schedule in words, times on the receiver's clock where known", () => {
    const m = devicesModel(data(), DEFAULT_PREFERENCES);
    expect(m.empty).toBe(false);
    const [device] = m.devices;
    expect(device?.title).toBe("G7 transmitter · iOS app");
    expect(device?.upload).toEqual({ utc: "2026-03-02T10:00:00", receiver: "2026-03-02T11:00:00" });
    expect(
      device?.schedules.map((s) => [
        s.heading,
        s.isDefault,
        s.isEnabled,
        s.isActive,
        s.daysText,
        s.hoursText,
      ]),
    ).toEqual([
      ["Default alert schedule", true, true, true, "Weekdays", "All day"],
      ["Alert schedule “Night”", false, false, undefined, "Weekdays", "All day"],
    ]);
    expect(device?.schedules[0]?.override).toMatch(/^On: vibrate only, until .* \(receiver's clock\)$/);
    expect(device?.schedules[0]?.overrideMode).toBe("vibrate");
    expect(device?.schedules[1]?.override).toBeNull();
  });

  it("names a v1 device whose model is not reported, and puts an unplaced upload in UTC only", () => {
    const m = devicesModel(data(), DEFAULT_PREFERENCES);
    expect(m.v1).toEqual([
      {
        title: "Device (model not reported)",
        settingsCaption: "Alert settings of this device (v1)",
        upload: { utc: "2026-03-01T09:00:00", receiver: undefined },
        settings: [],
      },
    ]);
    expect(devicesModel(data({ v1: null }), DEFAULT_PREFERENCES).v1).toBeNull();
  });

  it("is empty when neither interface lists a device", () => {
    expect(devicesModel(data({ v2: [], v1: [] }), DEFAULT_PREFERENCES).empty).toBe(true);
    expect(devicesModel(data({ v2: [], v1: null }), DEFAULT_PREFERENCES).empty).toBe(true);
    expect(devicesModel(data({ v2: [] }), DEFAULT_PREFERENCES).empty).toBe(false);
  });
});
