import type { Observation } from "@medplum/fhirtypes";
import { describe, expect, it } from "vitest";
import { type CgmBundleInput, cgmBundle, fhirDateTimeOn, fhirInstant, receiverOffsets } from "./cgm-bundle";
import { CODES, DATA_ABSENT_REASON } from "./cgm-ig";

let n = 0;
const input = (over: Partial<CgmBundleInput> = {}): CgmBundleInput => ({
  summary: {
    nValues: 3,
    mean: 150.33333333333334,
    gmi: 6.9,
    cv: null,
    timeInRanges: {
      veryLow: 0,
      low: 33.333333333333336,
      inRange: 33.333333333333336,
      high: 0,
      veryHigh: 33.3,
    },
    sensorActivePercent: 1.5,
    daysOfWear: 1,
  },
  period: { startMs: Date.UTC(2026, 0, 1), endMs: Date.UTC(2026, 0, 2) },
  clock: null,
  patient: { id: "p-1", name: "Ann Example", birthDate: null },
  device: null,
  pdf: null,
  readings: [
    { t: Date.UTC(2026, 0, 1, 1), mgdl: 39 },
    { t: Date.UTC(2026, 0, 1, 2), mgdl: 120 },
    { t: Date.UTC(2026, 0, 1, 3), mgdl: 401 },
  ],
  generatedMs: Date.UTC(2026, 0, 3),
  identifierBase: "https://dash.example",
  newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
  ...over,
});

const observations = (b: ReturnType<typeof cgmBundle>) =>
  (b.entry ?? []).map((e) => e.resource).filter((r): r is Observation => r?.resourceType === "Observation");
const coded = (b: ReturnType<typeof cgmBundle>, code: string) =>
  observations(b).filter((o) => o.code.coding?.[0]?.code === code);

describe("cgmBundle", () => {
  it("passes the summary's numbers through unrounded, on the IG's codes", () => {
    const b = cgmBundle(input());
    expect(coded(b, CODES.meanGlucoseMass)[0]?.valueQuantity?.value).toBe(150.33333333333334);
    const tir = coded(b, CODES.timesInRanges)[0]?.component ?? [];
    expect(tir.map((c) => [c.code.coding?.[0]?.code, c.valueQuantity?.value])).toEqual([
      [CODES.timeInVeryLow, 0],
      [CODES.timeInLow, 33.333333333333336],
      [CODES.timeInTarget, 33.333333333333336],
      [CODES.timeInHigh, 0],
      [CODES.timeInVeryHigh, 33.3],
    ]);
    expect(coded(b, CODES.summary)[0]?.effectivePeriod).toEqual({
      start: "2026-01-01T00:00:00Z",
      end: "2026-01-02T00:00:00Z",
    });
  });

  it("says why a metric the period cannot give is absent, instead of a number", () => {
    const cv = coded(cgmBundle(input()), CODES.cv)[0];
    expect(cv?.valueQuantity).toBeUndefined();
    expect(cv?.dataAbsentReason?.coding?.[0]).toEqual({ system: DATA_ABSENT_REASON, code: "not-applicable" });
  });

  it("sends 39 and 401 as below 40 and above 400, never as numbers", () => {
    const readings = coded(cgmBundle(input()), CODES.sensorReadingMass).map((o) => o.valueQuantity);
    expect(readings.map((q) => [q?.comparator, q?.value])).toEqual([
      ["<", 40],
      [undefined, 120],
      [">", 400],
    ]);
  });

  it("has no Device and no device references when the service names none", () => {
    const b = cgmBundle(input());
    expect(b.entry?.some((e) => e.resource?.resourceType === "Device")).toBe(false);
    expect(JSON.stringify(b)).not.toContain('"device"');
  });

  it("names a v2 device by the patient and its generation, and references it from the readings", () => {
    const b = cgmBundle(
      input({
        device: {
          transmitterGeneration: "g7",
          displayDevice: "iOS",
          lastUploadDate: "2026-01-01T05:00:00",
          alertScheduleList: [],
        },
      }),
    );
    const device = b.entry?.find((e) => e.resource?.resourceType === "Device");
    expect(device?.resource).toMatchObject({
      deviceName: [{ name: "G7 transmitter · iOS app", type: "user-friendly-name" }],
      identifier: [{ system: "https://dash.example/fhir/sid/patient-device", value: "p-1:g7:iOS" }],
    });
    for (const o of observations(b)) expect(o.device?.reference).toBe(device?.fullUrl);
  });

  it("writes instants to the second in UTC", () => {
    expect(fhirInstant(Date.UTC(2026, 10, 27, 13, 5, 9, 999))).toBe("2026-11-27T13:05:09Z");
  });

  it("writes a time on the receiver's clock with its offset, the same instant", () => {
    const t = Date.UTC(2026, 0, 1, 18, 0, 9);
    expect(fhirDateTimeOn(t, -6 * 3_600_000)).toBe("2026-01-01T12:00:09-06:00");
    expect(fhirDateTimeOn(t, 5.75 * 3_600_000)).toBe("2026-01-01T23:45:09+05:45");
    expect(fhirDateTimeOn(t, 0)).toBe("2026-01-01T18:00:09Z");
    for (const offset of [-6, -3.5, 0, 5.75, 14]) {
      expect(Date.parse(fhirDateTimeOn(t, offset * 3_600_000))).toBe(t);
    }
  });

  it("reads the clock at each end of the period from the readings nearest it, drift rounded away", () => {
    const readings = [
      { t: Date.UTC(2026, 2, 7, 6), displayMs: Date.UTC(2026, 2, 7, 0, 0, 40) },
      { t: Date.UTC(2026, 2, 9, 5), displayMs: Date.UTC(2026, 2, 9, 0, 0, 40) },
    ];
    // Chicago across the start of daylight saving: UTC−6 at the start, UTC−5 at the end.
    expect(receiverOffsets(readings)).toEqual({ startOffsetMs: -6 * 3_600_000, endOffsetMs: -5 * 3_600_000 });
    expect(receiverOffsets([])).toBeNull();
  });

  it("writes the period and the readings on the receiver's clock when it is known", () => {
    const b = cgmBundle(
      input({
        clock: { startOffsetMs: -6 * 3_600_000, endOffsetMs: -6 * 3_600_000 },
        readings: [{ t: Date.UTC(2026, 0, 1, 7), displayMs: Date.UTC(2026, 0, 1, 1), mgdl: 120 }],
      }),
    );
    for (const o of observations(b).filter((o) => o.effectivePeriod)) {
      expect(o.effectivePeriod).toEqual({
        start: "2025-12-31T18:00:00-06:00",
        end: "2026-01-01T18:00:00-06:00",
      });
    }
    expect(coded(b, CODES.sensorReadingMass)[0]?.effectiveDateTime).toBe("2026-01-01T01:00:00-06:00");
  });

  it("marks a Bundle whose PDF is left out, in its tag and the summary's note", () => {
    const b = cgmBundle(input({ pdf: { omitted: "no Chromium on this server." } }));
    expect(b.entry?.some((e) => e.resource?.resourceType === "DiagnosticReport")).toBe(false);
    expect(b.meta?.tag).toEqual([
      {
        system: "https://dash.example/fhir/CodeSystem/export-notes",
        code: "summary-pdf-omitted",
        display: "The AGP report (PDF) is not included: no Chromium on this server.",
      },
    ]);
    expect(coded(b, CODES.summary)[0]?.note).toEqual([
      { text: "No AGP report (PDF) in this Bundle: no Chromium on this server." },
    ]);
    // Not asked for (null) is no mark.
    expect(cgmBundle(input()).meta?.tag).toBeUndefined();
  });
});
