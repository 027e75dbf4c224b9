import { describe, expect, it } from "vitest";
import { daysOfWeek } from "@/lib/cgm";
import {
  alertNameLabel,
  alertSoundText,
  alertValueText,
  DEVICE_DAYS,
  deviceInUse,
  deviceLookupWindow,
  deviceTitle,
  displayDeviceLabel,
  generationLabel,
  newestUploadFirst,
  orderAlertSettings,
  overrideText,
  scheduleDaysText,
  scheduleHoursText,
  scheduleName,
  snoozeText,
} from "./devices";

describe("scheduleDaysText", () => {
  it("names the usual sets", () => {
    expect(scheduleDaysText([...daysOfWeek])).toBe("Every day");
    expect(scheduleDaysText(["monday", "tuesday", "wednesday", "thursday", "friday"])).toBe("Weekdays");
    expect(scheduleDaysText(["sunday", "saturday"])).toBe("Weekends");
  });

  it("writes a run of three or more days as a range, also across the weekend", () => {
    expect(scheduleDaysText(["sunday", "monday", "tuesday", "wednesday", "thursday"])).toBe(
      "Sunday to Thursday",
    );
    expect(scheduleDaysText(["monday", "friday", "saturday", "sunday"])).toBe("Friday to Monday");
    expect(scheduleDaysText(["monday", "monday", "tuesday", "wednesday"])).toBe("Monday to Wednesday");
    // Every day but Wednesday: the run starts on Thursday.
    expect(scheduleDaysText(["sunday", "monday", "tuesday", "thursday", "friday", "saturday"])).toBe(
      "Thursday to Tuesday",
    );
  });

  it("lists other sets in week order", () => {
    expect(scheduleDaysText(["friday", "monday", "wednesday"])).toBe("Monday, Wednesday, Friday");
    expect(scheduleDaysText(["tuesday", "monday"])).toBe("Monday, Tuesday");
    expect(scheduleDaysText(["tuesday"])).toBe("Tuesday");
    expect(scheduleDaysText([])).toBe("No days");
  });
});

describe("scheduleHoursText", () => {
  it("reads start equal to end as the whole day", () => {
    expect(scheduleHoursText("00:00:00", "00:00:00")).toBe("All day");
    expect(scheduleHoursText("06:00:00", "06:00:00")).toBe("All day");
    expect(scheduleHoursText("00:00:00", "23:59:59")).toBe("All day");
  });

  it("marks a schedule that runs past midnight", () => {
    expect(scheduleHoursText("22:00:00", "06:00:00")).toBe("22:00 to 06:00 (overnight)");
    expect(scheduleHoursText("08:00:00", "17:30:00")).toBe("08:00 to 17:30");
  });
});

describe("alertValueText", () => {
  it("converts glucose thresholds to the display unit", () => {
    expect(alertValueText({ value: 70, unit: "mg/dL" }, "mg/dL")).toBe("70 mg/dL");
    // 70 / 18.0182 = 3.885; 55 → 3.052; 250 → 13.875; 400 → 22.2
    expect(alertValueText({ value: 70, unit: "mg/dL" }, "mmol/L")).toBe("3.9 mmol/L");
    expect(alertValueText({ value: 55, unit: "mg/dL" }, "mmol/L")).toBe("3.1 mmol/L");
    expect(alertValueText({ value: 250, unit: "mg/dL" }, "mmol/L")).toBe("13.9 mmol/L");
    expect(alertValueText({ value: 400, unit: "mg/dL" }, "mmol/L")).toBe("22.2 mmol/L");
    // 3.9 × 18.0182 = 70.27
    expect(alertValueText({ value: 3.9, unit: "mmol/L" }, "mg/dL")).toBe("70 mg/dL");
  });

  it("keeps rates rates (2 mg/dL/min is no LOW reading) in the matching rate unit", () => {
    expect(alertValueText({ value: 2, unit: "mg/dL/min" }, "mg/dL")).toBe("2 mg/dL/min");
    expect(alertValueText({ value: 3, unit: "mg/dL/min" }, "mg/dL")).toBe("3 mg/dL/min");
    // 2 / 18.0182 = 0.111; 3 / 18.0182 = 0.1665
    expect(alertValueText({ value: 2, unit: "mg/dL/min" }, "mmol/L")).toBe("0.11 mmol/L/min");
    expect(alertValueText({ value: 3, unit: "mg/dL/min" }, "mmol/L")).toBe("0.17 mmol/L/min");
    // 0.11 × 18.0182 = 1.98 → 2.0
    expect(alertValueText({ value: 0.11, unit: "mmol/L/min" }, "mg/dL")).toBe("2 mg/dL/min");
  });

  it("an API v3 unit no alert can have (grams, units, unknown) is the bare number, never a rate", () => {
    expect(alertValueText({ value: 55, unit: "unknown" }, "mmol/L")).toBe("55");
    expect(alertValueText({ value: 2, unit: "grams" }, "mmol/L")).toBe("2");
    expect(alertValueText({ value: 2, unit: null }, "mg/dL")).toBe("2");
  });

  it("keeps minutes minutes, and has nothing to show without a value", () => {
    expect(alertValueText({ value: 20, unit: "minutes" }, "mmol/L")).toBe("20 minutes");
    expect(alertValueText({ value: 240, unit: "minutes" }, "mg/dL")).toBe("240 minutes");
    expect(alertValueText({ value: null, unit: "mg/dL" }, "mg/dL")).toBeNull();
    expect(alertValueText({ value: 5, unit: null }, "mg/dL")).toBe("5");
  });
});

describe("alert names, order and snooze", () => {
  it("names each alert", () => {
    expect(alertNameLabel("fixedLow")).toBe("Urgent low (fixed)");
    expect(alertNameLabel("outOfRange")).toBe("Signal loss");
    expect(alertNameLabel("rise")).toBe("Rise rate");
  });

  it("orders urgent low, low, high, rise, fall, signal loss", () => {
    const names = ["high", "low", "rise", "fall", "outOfRange", "fixedLow"] as const;
    expect(orderAlertSettings(names.map((alertName) => ({ alertName }))).map((s) => s.alertName)).toEqual([
      "fixedLow",
      "low",
      "high",
      "rise",
      "fall",
      "outOfRange",
    ]);
  });

  it("writes snooze minutes", () => {
    expect(snoozeText(null)).toBeNull();
    expect(snoozeText(0)).toBe("0 minutes");
    expect(snoozeText(1)).toBe("1 minute");
    expect(snoozeText(30)).toBe("30 minutes");
  });
});

describe("device labels", () => {
  it("names transmitter generations and display devices", () => {
    expect(generationLabel("g7")).toBe("G7");
    expect(generationLabel("G6")).toBe("G6");
    expect(generationLabel("g10")).toBe("G10");
    expect(generationLabel("dexcomOne")).toBe("dexcomOne");
    // API v3's names (service-v3-notes.md §4), the variant of a G7 15-day among them.
    expect(generationLabel("g715day")).toBe("G7 15-day");
    expect(generationLabel("g6 pro")).toBe("G6 Pro");
    expect(generationLabel("g6Pro")).toBe("G6 Pro");
    expect(generationLabel("d1+")).toBe("Dexcom ONE+");
    expect(generationLabel("")).toBeNull();
    expect(generationLabel(null)).toBeNull();
    expect(displayDeviceLabel("iOS")).toBe("iOS app");
    expect(displayDeviceLabel("android")).toBe("Android app");
    expect(displayDeviceLabel("receiver")).toBe("Receiver");
    expect(displayDeviceLabel("watch")).toBe("watch");
    expect(displayDeviceLabel(null)).toBeNull();
  });

  it("titles a device by what is known of it", () => {
    expect(deviceTitle({ transmitterGeneration: "g7", displayDevice: "iOS" })).toBe(
      "G7 transmitter · iOS app",
    );
    expect(deviceTitle({ transmitterGeneration: "g4", displayDevice: null })).toBe("G4 transmitter");
    expect(deviceTitle({ transmitterGeneration: null, displayDevice: "android" })).toBe("Android app");
    expect(deviceTitle({ transmitterGeneration: null, displayDevice: null })).toBe("Device");
  });
});

describe("overrideText", () => {
  it("says whether the override is on, its mode and until when", () => {
    const on = { isOverrideEnabled: true, mode: "vibrate", endTime: "2026-03-03T09:30:00" } as const;
    expect(overrideText(on, "2026-03-03T11:30:00")).toBe(
      "On: vibrate only, until Tue 3 Mar 2026, 11:30 (receiver's clock)",
    );
    expect(overrideText(on, undefined)).toBe("On: vibrate only, until Tue 3 Mar 2026, 09:30 UTC");
    expect(overrideText({ ...on, endTime: null }, undefined)).toBe("On: vibrate only, no end time given");
    expect(overrideText({ isOverrideEnabled: false, mode: "quiet", endTime: null }, undefined)).toBe(
      "Off (when on: quiet)",
    );
    expect(overrideText(null, undefined)).toBeNull();
  });
});

describe("alertSoundText", () => {
  it("names the output and the theme", () => {
    expect(alertSoundText({ soundOutputMode: "sound", soundTheme: "modern" })).toBe("Sound (modern)");
    expect(alertSoundText({ soundOutputMode: "match", soundTheme: null })).toBe("Match phone");
    expect(alertSoundText({ soundOutputMode: null, soundTheme: "classic" })).toBe("Classic sounds");
    expect(alertSoundText({ soundOutputMode: undefined, soundTheme: undefined })).toBeNull();
  });
});

describe("scheduleName", () => {
  it("names a schedule by its name, and the default schedule (v3 sends it without one) as the default", () => {
    expect(scheduleName({ alertScheduleName: "Night", isDefaultSchedule: false })).toEqual({
      heading: "Alert schedule “Night”",
      settingsCaption: "Alert settings of the “Night” schedule",
    });
    expect(scheduleName({ alertScheduleName: "", isDefaultSchedule: true })).toEqual({
      heading: "Default alert schedule",
      settingsCaption: "Alert settings of the default schedule",
    });
    expect(scheduleName({ alertScheduleName: " ", isDefaultSchedule: false }).heading).toBe(
      "Alert schedule without a name",
    );
  });
});

describe("the device in use and where to look for it", () => {
  const DAY = 86_400_000;
  const d = (lastUploadDate: string, name: string) => ({ lastUploadDate, name });

  it("looks at the period's last 30 days at most: one window of the service's", () => {
    const end = Date.UTC(2026, 0, 31);
    expect(deviceLookupWindow({ startMs: end - 90 * DAY, endMs: end })).toEqual({
      startMs: end - DEVICE_DAYS * DAY,
      endMs: end,
    });
    expect(deviceLookupWindow({ startMs: end - 7 * DAY, endMs: end })).toEqual({
      startMs: end - 7 * DAY,
      endMs: end,
    });
  });

  it("is the one that uploaded last; the others follow newest first", () => {
    const devices = [
      d("2026-01-02T00:00:00", "a"),
      d("2026-01-20T08:00:00", "b"),
      d("2026-01-09T00:00:00", "c"),
    ];
    expect(deviceInUse(devices)?.name).toBe("b");
    expect(newestUploadFirst(devices).map((x) => x.name)).toEqual(["b", "c", "a"]);
    expect(devices.map((x) => x.name)).toEqual(["a", "b", "c"]);
    expect(deviceInUse([])).toBeNull();
  });
});
