import { describe, expect, it } from "vitest";
import {
  calibrationsResponseSchema,
  calibrationsV3ReadSchema,
  dataRangeResponseSchema,
  dataRangeV3ReadSchema,
  devicesV3ReadSchema,
  type EgvV3Read,
  egvsV2ResponseSchema,
  egvsV3ReadSchema,
  eventsV3ReadSchema,
  type V3Read,
} from "@/lib/cgm";
import odd from "@/lib/cgm/fixtures/v3-odd-responses.json";
import {
  calibrationsFromV3,
  dataRangeFromV3,
  devicesFromV3,
  droppedByReader,
  egvFromV3,
  egvsFromV3,
  eventsFromV3,
  mergeV3Reads,
} from "./reshape-v3";

/**
 * v3 answers reshaped into the app's records (lib/cgm/app-records.ts): the recorded odd responses
 * of the notes (lib/cgm/fixtures/v3-odd-responses.json) read by the lenient readers, then reshaped,
 * lose nothing but what cannot be placed, and what comes out is a valid v2 answer where the app
 * record is the v2 one (EGVs, calibrations, dataRange).
 */

const egv = (over: Partial<EgvV3Read>): EgvV3Read => ({
  recordId: "r1",
  systemTime: "2026-03-01T10:00:00",
  displayTime: "2026-03-01T11:00:00",
  displayOffsetMinutes: 60,
  transmitterId: null,
  transmitterTicks: 1,
  value: 120,
  status: null,
  trend: "flat",
  trendRate: 0.2,
  unit: "mg/dL",
  rateUnit: "mg/dL/min",
  transmitterGeneration: "g7",
  transmitterGenerationVariant: null,
  displayDevice: "iOS",
  displayApp: "G7",
  ...over,
});

describe("an EGV", () => {
  it("keeps its value, times, trend and rate; v2's realtime value is it, and there is no smoothed one", () => {
    expect(egvFromV3(egv({}))).toEqual({
      systemTime: "2026-03-01T10:00:00",
      displayTime: "2026-03-01T11:00:00",
      value: 120,
      realtimeValue: 120,
      smoothedValue: null,
      status: null,
      trend: "flat",
      trendRate: 0.2,
    });
  });

  it("39 and 401 stay the sentinels with their status; a missing value with low or high status is one", () => {
    expect(egvFromV3(egv({ value: 39, status: "low" }))).toMatchObject({ value: 39, status: "low" });
    expect(egvFromV3(egv({ value: 401, status: "high" }))).toMatchObject({ value: 401, status: "high" });
    expect(egvFromV3(egv({ value: null, status: "low" }))).toMatchObject({ value: 39, status: "low" });
    expect(egvFromV3(egv({ value: null, status: "high" }))).toMatchObject({ value: 401, status: "high" });
  });

  it("a missing value without a low or high status is left out, with the reason", () => {
    expect(egvFromV3(egv({ value: null, status: "ok" }))).toBe(
      "value is missing and status says neither low nor high",
    );
    const { value, leftOut } = egvsFromV3([egv({ recordId: "a" }), egv({ recordId: "b", value: null })]);
    expect(value.egvs).toHaveLength(1);
    expect(leftOut).toEqual([
      { record: "b", reason: "value is missing and status says neither low nor high" },
    ]);
  });

  it("ok, unknown and missing statuses are no status; an unknown trend is no trend", () => {
    for (const status of ["ok", "unknown", null] as const)
      expect(egvFromV3(egv({ status }))).toMatchObject({ status: null });
    expect(egvFromV3(egv({ trend: "unknown" }))).toMatchObject({ trend: null });
    expect(egvFromV3(egv({ trend: "rateOutOfRange" }))).toMatchObject({ trend: "rateOutOfRange" });
  });

  it("a record in mmol/L is converted to whole mg/dL, its rate to mg/dL/min", () => {
    const r = egvFromV3(egv({ value: 5.5, unit: "mmol/L", trendRate: 0.1, rateUnit: "mmol/L/min" }));
    expect(r).toMatchObject({ value: 99, realtimeValue: 99 });
    expect((r as { trendRate: number }).trendRate).toBeCloseTo(1.80182, 5);
  });
});

describe("the recorded odd responses", () => {
  it("EGVs: every record the reader keeps is an app EGV, and the answer is a valid v2 answer in mg/dL", () => {
    const read = egvsV3ReadSchema.parse(odd.egvs);
    const { value, leftOut } = egvsFromV3(read.records);
    expect(leftOut).toEqual([]);
    expect(value.egvs).toHaveLength(read.records.length);
    expect(egvsV2ResponseSchema.parse(value)).toEqual(value);
    expect(value.unit).toBe("mg/dL");
    // The reader's two (no recordId, a systemTime that names no time) are named for the log.
    expect(droppedByReader(read).map((d) => d.reason)).toEqual([
      "recordId is missing",
      'systemTime "yesterday" cannot be read',
    ]);
    const sentinels = value.egvs.filter((e) => e.status !== null).map((e) => [e.value, e.status]);
    expect(sentinels).toEqual([
      [39, "low"],
      [401, "high"],
    ]);
  });

  it("events: every one kept, with its identity, type, status, amount and a note's text", () => {
    const read = eventsV3ReadSchema.parse(odd.events);
    const { value } = eventsFromV3(read.records);
    expect(value.events).toHaveLength(read.records.length);
    expect(value.events.map((e) => e.eventId)).toEqual(read.records.map((r) => r.recordId));
    const byId = (n: number) => value.events.find((e) => e.eventId.endsWith(String(n)))!;
    expect(byId(201)).toMatchObject({
      eventType: "insulin",
      eventSubType: "fastActing",
      value: 4.5,
      unit: "units",
    });
    expect(byId(202)).toMatchObject({ eventType: "bloodGlucose", value: 400, unit: "mg/dL" });
    expect(byId(203)).toMatchObject({ eventType: "carbs", eventStatus: "updated", value: 45, unit: "grams" });
    expect(byId(204)).toMatchObject({ eventType: "exercise", value: null, unit: "minutes" });
    expect(byId(206)).toMatchObject({ eventType: "health", value: null, unit: null });
    expect(byId(207)).toMatchObject({ eventType: "notes", value: null, text: "Pizza night, 2 slices" });
    expect(byId(208)).toMatchObject({ eventStatus: "deleted" });
    expect(byId(209)).toMatchObject({ eventType: "unknown", eventStatus: "unknown", unit: "unknown" });
    expect(byId(210)).toMatchObject({ eventType: "bloodGlucose", value: 5.4, unit: "mmol/L" });
  });

  it("calibrations: a missing unit is mg/dL; the answer is a valid v2 answer", () => {
    const { value, leftOut } = calibrationsFromV3(calibrationsV3ReadSchema.parse(odd.calibrations).records);
    expect(leftOut).toEqual([]);
    expect(calibrationsResponseSchema.parse(value)).toEqual(value);
    expect(value.calibrations).toEqual([
      { systemTime: "2023-07-01T12:00:00", displayTime: "2023-07-01T07:00:00", value: 124, unit: "mg/dL" },
    ]);
  });

  it("a calibration without a value is left out, with the reason", () => {
    const read = calibrationsV3ReadSchema.parse({
      ...odd.calibrations,
      records: [{ ...odd.calibrations.records[0], value: null }],
    });
    expect(calibrationsFromV3(read.records)).toEqual({
      value: { calibrations: [] },
      leftOut: [{ record: "00000000-0000-4000-8000-000000000101", reason: "value is missing" }],
    });
  });

  it("devices: schedules with HH:mm:ss times, v3's alerts, settings and override kept", () => {
    const { value, leftOut } = devicesFromV3(devicesV3ReadSchema.parse(odd.devices).records);
    expect(leftOut).toEqual([]);
    expect(value.devices).toHaveLength(2);
    const [phone, receiver] = value.devices;
    expect(phone).toMatchObject({
      transmitterGeneration: "g7",
      displayDevice: "android",
      displayApp: "G7Android",
      lastUploadDate: "2021-04-05T16:52:48",
    });
    const [byDefault, night, work] = phone!.alertScheduleList;
    expect(byDefault!.alertScheduleSettings).toMatchObject({
      isDefaultSchedule: true,
      startTime: "00:00:00",
      endTime: "00:00:00",
      isActive: true,
      override: { isOverrideEnabled: true, mode: "quiet", endTime: "2021-04-05T18:00:00" },
    });
    expect(byDefault!.alertSettings?.map((a) => a.alertName)).toEqual([
      "high",
      "fall",
      "urgentLow",
      "urgentLowSoon",
    ]);
    expect(byDefault!.alertSettings?.find((a) => a.alertName === "fall")?.value).toBe(3);
    expect(night!.alertScheduleSettings).toMatchObject({ startTime: "22:30:00", endTime: "06:00:00" });
    expect(work!.alertScheduleSettings).toMatchObject({ startTime: "00:00:00", endTime: "12:00:00" });
    expect(receiver!.alertScheduleList).toEqual([]);
  });

  it("devices asked for a window: those that uploaded since its start (none older can have contributed)", () => {
    const records = devicesV3ReadSchema.parse(odd.devices).records;
    const since = Date.UTC(2022, 0, 1);
    expect(devicesFromV3(records, since).value.devices.map((d) => d.displayDevice)).toEqual(["receiver"]);
    const unreadable = devicesFromV3([{ ...records[0]!, lastUploadDate: null }]);
    expect(unreadable).toEqual({
      value: { devices: [] },
      leftOut: [{ record: "device 0", reason: "lastUploadDate cannot be read" }],
    });
  });

  it("dataRange: the groups' bounds in UTC and on the device's clock, a missing group null", () => {
    const range = dataRangeFromV3(dataRangeV3ReadSchema.parse(odd.dataRange));
    expect(dataRangeResponseSchema.parse(range)).toEqual(range);
    expect(range).toEqual({
      calibrations: null,
      egvs: {
        start: { systemTime: "2024-05-01T00:02:17", displayTime: "2024-05-01T02:02:17" },
        end: { systemTime: "2024-05-30T14:15:00", displayTime: "2024-05-30T16:15:00" },
      },
      events: null,
    });
  });
});

describe("merging the chunks of a window", () => {
  const part = (userId: string | null, records: Array<{ recordId: string; n: number }>) =>
    ({ recordType: "event", recordVersion: "3.0", userId, records, dropped: [] }) as V3Read<{
      recordId: string;
      n: number;
    }>;

  it("keeps a record that comes twice once, in its first place, as it came last", () => {
    const merged = mergeV3Reads([
      part(null, [
        { recordId: "a", n: 1 },
        { recordId: "b", n: 1 },
      ]),
      part("user", [
        { recordId: "a", n: 2 },
        { recordId: "c", n: 1 },
      ]),
    ]);
    expect(merged.records).toEqual([
      { recordId: "a", n: 2 },
      { recordId: "b", n: 1 },
      { recordId: "c", n: 1 },
    ]);
    expect(merged.userId).toBe("user");
  });

  it("keeps what each chunk's reader dropped", () => {
    const a = { ...part("u", []), dropped: [{ index: 0, reason: "recordId is missing" }] };
    const b = { ...part("u", []), dropped: [{ index: 3, reason: "systemTime null cannot be read" }] };
    expect(mergeV3Reads([a, b]).dropped).toHaveLength(2);
  });
});
