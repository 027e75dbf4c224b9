import { describe, expect, it } from "vitest";
import { formatServiceTime, parseServiceTime, serviceTimeUtcMs } from "./datetime";
import odd from "./fixtures/v3-odd-responses.json";
import {
  alertsV3ReadSchema,
  calibrationsV3ReadSchema,
  dataRangeV3ReadSchema,
  devicesV3ReadSchema,
  egvsV3ReadSchema,
  eventsV3ReadSchema,
  scheduleTimeOf,
} from "./v3-read";

/**
 * The lenient v3 readers against a recorded set of odd responses (fixtures/v3-odd-responses.json),
 * built from what service-v3-notes.md §2–§5 says real responses contain: every record is kept
 * (but the two that cannot be placed), every repair of the notes is made.
 */

describe("v3 times (notes §3, §5 item 4)", () => {
  it.each([
    ["2024-05-30T14:15:22Z", Date.UTC(2024, 4, 30, 14, 15, 22), 0],
    ["2024-05-30T16:15:22+02:00", Date.UTC(2024, 4, 30, 16, 15, 22), 120],
    ["2021-02-03T14:15Z", Date.UTC(2021, 1, 3, 14, 15), 0],
    ["2021-2-3T8:15-06:00", Date.UTC(2021, 1, 3, 8, 15), -360],
    ["2022-12-05T15:00:25.438Z", Date.UTC(2022, 11, 5, 15, 0, 25), 0],
    ["2021-04-05T10:52:48-06:59:59", Date.UTC(2021, 3, 5, 10, 52, 48), -420],
    ["2021-04-05T10:52:48-06:59:29", Date.UTC(2021, 3, 5, 10, 52, 48), -419],
    ["2023-06-30T22:00:00", Date.UTC(2023, 5, 30, 22), null],
    ["2023-06-30 22:00:00+0530", Date.UTC(2023, 5, 30, 22), 330],
    ["2023-06-30T22:00:00+05", Date.UTC(2023, 5, 30, 22), 300],
  ])("reads %s", (text, clockMs, offsetMinutes) => {
    expect(parseServiceTime(text)).toEqual({ clockMs, offsetMinutes });
  });

  it.each([
    "",
    "yesterday",
    "2023-02-30T00:00:00",
    "2023-13-01T00:00:00",
    "2023-01-01T24:00:00",
    "2023-01-01T00:00:00+19:00",
  ])("refuses %j", (text) => {
    expect(parseServiceTime(text)).toBeNull();
  });

  it("the UTC instant is the clock less the offset; without an offset the clock is UTC", () => {
    expect(serviceTimeUtcMs(parseServiceTime("2021-04-05T10:52:48-06:59:59")!)).toBe(
      Date.UTC(2021, 3, 5, 17, 52, 48),
    );
    expect(serviceTimeUtcMs(parseServiceTime("2023-06-30T22:00:00")!)).toBe(Date.UTC(2023, 5, 30, 22));
  });

  it("writes Z, an offset or nothing", () => {
    const t = Date.UTC(2026, 2, 29, 1, 30);
    expect(formatServiceTime(t, "Z")).toBe("2026-03-29T01:30:00Z");
    expect(formatServiceTime(t, 120)).toBe("2026-03-29T01:30:00+02:00");
    expect(formatServiceTime(t, -330)).toBe("2026-03-29T01:30:00-05:30");
    expect(formatServiceTime(t, 0)).toBe("2026-03-29T01:30:00+00:00");
    expect(formatServiceTime(t, null)).toBe("2026-03-29T01:30:00");
  });
});

describe("EGVs", () => {
  const read = egvsV3ReadSchema.parse(odd.egvs);

  it("keeps every record it can place and says why it left out the others", () => {
    expect(read.recordType).toBe("egvs");
    expect(read.userId).toBe("6a1c8f0e-4b3d-4c52-9e0f-2f6b1d7a9c31");
    expect(read.records.map((r) => r.recordId.slice(-1))).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(read.dropped).toEqual([
      { index: 6, reason: "recordId is missing" },
      { index: 7, reason: 'systemTime "yesterday" cannot be read' },
    ]);
  });

  it("normalises times: systemTime in UTC, displayTime as the clock showed it, the offset beside it", () => {
    expect(read.records.map((r) => [r.systemTime, r.displayTime, r.displayOffsetMinutes])).toEqual([
      ["2024-05-30T14:15:22", "2024-05-30T16:15:22", 120],
      ["2021-02-03T14:15:00", "2021-02-03T08:15:00", -360],
      ["2022-12-05T15:00:25", "2022-12-05T10:00:25", -300],
      ["2021-04-05T17:52:48", "2021-04-05T10:52:48", -420],
      ["2023-07-01T03:00:00", "2023-06-30T22:00:00", null],
      ["2023-07-01T03:05:00", "2023-06-30T22:05:00", null],
    ]);
  });

  it("keeps values and sentinels; an enumeration value outside its list is unknown", () => {
    const [phone, noSeconds, fifteenDay, low, high, odder] = read.records;
    expect(phone).toMatchObject({ value: 142, status: null, trend: "flat", trendRate: 0.4, unit: "mg/dL" });
    expect(noSeconds).toMatchObject({ status: null, transmitterId: "", transmitterGeneration: "g6 pro" });
    expect(fifteenDay).toMatchObject({
      status: "ok",
      trend: null,
      trendRate: null,
      transmitterId: null,
      transmitterGeneration: "g715day",
      transmitterGenerationVariant: "g715day",
      displayApp: "D1G7",
    });
    expect(low).toMatchObject({ value: 39, status: "low", trend: "notComputable", transmitterId: null });
    expect(high).toMatchObject({
      value: 401,
      status: "high",
      trend: "unknown",
      displayDevice: "touchscreenReceiver",
    });
    expect(odder).toMatchObject({
      status: "unknown",
      unit: "unknown",
      // Open strings: kept as sent.
      displayDevice: "watchOS",
      transmitterGeneration: "g8",
      transmitterGenerationVariant: "g8long",
      displayApp: "Follow",
    });
  });

  it("reads an enumeration value named like an object's property as unknown, never as that property", () => {
    const egv = (trend: string, eventType: string) => ({
      recordType: "egv",
      recordVersion: "3.0",
      userId: "u",
      records: [{ recordId: "r1", systemTime: "2024-05-30T14:15:22Z", trend, eventType, value: 100 }],
    });
    const [e] = egvsV3ReadSchema.parse(egv("constructor", "toString")).records;
    expect(e).toMatchObject({ trend: "unknown" });
    const [ev] = eventsV3ReadSchema.parse(egv("x", "toString")).records;
    expect(ev).toMatchObject({ eventType: "unknown" });
  });
});

describe("calibrations", () => {
  it("reads the plural recordType and a null unit", () => {
    const read = calibrationsV3ReadSchema.parse(odd.calibrations);
    expect(read.recordType).toBe("calibrations");
    expect(read.records).toEqual([
      expect.objectContaining({
        value: 124,
        unit: "mg/dL",
        transmitterTicks: 118800,
        displayDevice: "receiver",
      }),
    ]);
  });
});

describe("events (notes §3.3, §5 item 7)", () => {
  const read = eventsV3ReadSchema.parse(odd.events);
  const byId = (n: number) => read.records.find((r) => r.recordId.endsWith(`0${n}`))!;

  it("keeps every event", () => {
    expect(read.records).toHaveLength(10);
    expect(read.dropped).toEqual([]);
  });

  it("reads value strings and numbers as numbers", () => {
    expect(byId(201)).toMatchObject({
      eventType: "insulin",
      eventSubType: "fastActing",
      value: 4.5,
      unit: "units",
    });
    expect(byId(202)).toMatchObject({ eventType: "bloodGlucose", value: 400, unit: "mg/dL" });
    expect(byId(210)).toMatchObject({ eventType: "bloodGlucose", value: 5.4, unit: "mmol/L" });
  });

  it("fills the unit of insulin, carbs and exercise; a missing value stays unknown", () => {
    expect(byId(203)).toMatchObject({ eventType: "carbs", value: 45, unit: "grams", eventStatus: "updated" });
    expect(byId(208)).toMatchObject({
      eventType: "insulin",
      value: null,
      unit: "units",
      eventStatus: "deleted",
    });
  });

  it("exercise of -1 is an unknown duration", () => {
    expect(byId(204)).toMatchObject({ eventType: "exercise", value: null, unit: "minutes" });
    expect(byId(205)).toMatchObject({
      eventType: "exercise",
      eventSubType: "light",
      value: null,
      unit: "minutes",
    });
  });

  it("drops a health event's value; note is notes, with its value as text", () => {
    expect(byId(206)).toMatchObject({ eventType: "health", eventSubType: "stress", value: null, unit: null });
    expect(byId(207)).toMatchObject({
      eventType: "notes",
      value: null,
      unit: null,
      text: "Pizza night, 2 slices",
    });
  });

  it("an eventType, subtype, unit or status outside the lists is unknown, and the event is kept", () => {
    expect(byId(209)).toMatchObject({
      eventType: "unknown",
      eventSubType: "unknown",
      eventStatus: "unknown",
      unit: "unknown",
      value: 1,
    });
  });
});

describe("recordedSystemTime and recordedDisplayTime (notes §3.3, meaning undocumented)", () => {
  const [first] = odd.events.records;
  const envelope = (records: unknown[]) => ({ ...odd.events, records });

  it.each([
    ["a day apart from systemTime", "2024-05-31T07:00:00Z", "2024-05-31T09:00:00+02:00"],
    ["null", null, null],
    ["unreadable", "yesterday", 42],
  ])("are ignored when %s: the event is read, and placed by systemTime, as without them", (_, sys, disp) => {
    const plain = eventsV3ReadSchema.parse(envelope([first]));
    const recorded = eventsV3ReadSchema.parse(
      envelope([{ ...first, recordedSystemTime: sys, recordedDisplayTime: disp }]),
    );
    expect(recorded).toEqual(plain);
    expect(recorded.records).toHaveLength(1);
  });
});

describe("devices and alert schedules (notes §3.4, §5 item 8)", () => {
  const read = devicesV3ReadSchema.parse(odd.devices);
  const [phone, receiver] = read.records;
  const [defaults, night, work] = phone!.alertSchedules;

  it("keeps both devices; a receiver may have no schedules", () => {
    expect(read.records).toHaveLength(2);
    expect(phone!.lastUploadDate).toBe("2021-04-05T16:52:48");
    expect(receiver!.alertSchedules).toEqual([]);
  });

  it("the default schedule is the whole day, every day, whatever it was sent with", () => {
    expect(defaults!.alertScheduleSettings).toEqual({
      alertScheduleName: "",
      isEnabled: false,
      isDefaultSchedule: true,
      startTime: "00:00",
      endTime: "00:00",
      daysOfWeek: ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"],
      isActive: true,
      override: { isOverrideEnabled: true, mode: "quiet", endTime: "2021-04-05T18:00:00" },
    });
  });

  it("schedule times: 12-hour, past 24:00, without a leading zero; days without empty strings", () => {
    expect(night!.alertScheduleSettings).toMatchObject({
      startTime: "22:30",
      endTime: "06:00",
      daysOfWeek: ["sunday", "saturday"],
      override: { isOverrideEnabled: false, mode: "unknown", endTime: null },
    });
    expect(work!.alertScheduleSettings).toMatchObject({
      startTime: "00:00",
      endTime: "12:00",
      daysOfWeek: ["monday", "tuesday"],
      isActive: null,
      override: null,
    });
    expect(work!.alertSettings).toEqual([]);
  });

  it("a duplicate alertName keeps the newest; fall is its absolute value; urgentLow snooze 28 is 30 and enabled", () => {
    const names = defaults!.alertSettings.map((s) => s.alertName);
    expect(names).toEqual(["high", "fall", "urgentLow", "urgentLowSoon"]);
    const [high, fall, urgentLow, soon] = defaults!.alertSettings;
    expect(high).toMatchObject({
      value: 250,
      snooze: 60,
      systemTime: "2021-04-01T10:00:00",
      displayTime: "2021-04-01T04:00:00",
    });
    expect(fall).toMatchObject({ value: 3, unit: "mg/dL/min" });
    expect(urgentLow).toMatchObject({ snooze: 30, enabled: true });
    expect(soon).toMatchObject({ value: null, systemTime: null, soundTheme: "unknown" });
    expect(night!.alertSettings[0]).toMatchObject({ alertName: "fixedLow", enabled: true });
  });

  it("soundOutputMode 'vibrates' (the doc's spelling) is vibrate", () => {
    const first = (odd.devices.records[0]!.alertSchedules[0]!.alertSettings as unknown[])[0];
    const alone = devicesV3ReadSchema.parse({
      ...odd.devices,
      records: [
        {
          ...odd.devices.records[0],
          alertSchedules: [{ alertScheduleSettings: {}, alertSettings: [first] }],
        },
      ],
    });
    expect(alone.records[0]!.alertSchedules[0]!.alertSettings[0]!.soundOutputMode).toBe("vibrate");
  });

  it.each([
    ["0:00", "00:00"],
    ["07:30:00", "07:30"],
    ["12:00 AM", "00:00"],
    ["12:30 pm", "12:30"],
    ["47:59", "23:59"],
    ["48:00", null],
    ["13:00 PM", null],
    ["noon", null],
  ])("schedule time %j is %j", (text, expected) => {
    expect(scheduleTimeOf(text)).toBe(expected);
  });
});

describe("alerts", () => {
  it("fixedLow is kept; unknown names and states are unknown", () => {
    const read = alertsV3ReadSchema.parse(odd.alerts);
    expect(read.records.map((r) => [r.alertName, r.alertState])).toEqual([
      ["fixedLow", "activeAlarming"],
      ["unknown", "unknown"],
    ]);
    expect(read.records[1]!.transmitterId).toBeNull();
  });
});

describe("dataRange", () => {
  it("a group that is null or missing is null; times are read leniently", () => {
    const read = dataRangeV3ReadSchema.parse(odd.dataRange);
    expect(read.calibrations).toBeNull();
    expect(read.events).toBeNull();
    expect(read.egvs).toEqual({
      start: {
        systemTime: "2024-05-01T00:02:17",
        displayTime: "2024-05-01T02:02:17",
        displayOffsetMinutes: 120,
      },
      end: {
        systemTime: "2024-05-30T14:15:00",
        displayTime: "2024-05-30T16:15:00",
        displayOffsetMinutes: 120,
      },
    });
  });
});

describe("the envelope", () => {
  it("refuses a body without a records array (a response, not a record, is malformed)", () => {
    expect(egvsV3ReadSchema.safeParse({ recordType: "egv", records: null }).success).toBe(false);
    expect(egvsV3ReadSchema.safeParse([]).success).toBe(false);
  });

  it("accepts any recordType spelling and version, and a missing userId", () => {
    const read = egvsV3ReadSchema.parse({ recordType: "EGVS", recordVersion: "3.1", records: [] });
    expect(read).toEqual({
      recordType: "EGVS",
      recordVersion: "3.1",
      userId: null,
      records: [],
      dropped: [],
    });
  });

  it("a record that is not an object is dropped with its reason", () => {
    const read = alertsV3ReadSchema.parse({ records: [null, "x"] });
    expect(read.dropped).toEqual([
      { index: 0, reason: "a record must be an object" },
      { index: 1, reason: "a record must be an object" },
    ]);
  });
});
