import type {
  Bundle,
  BundleEntry,
  Device,
  DiagnosticReport,
  Observation,
  ObservationComponent,
  Patient,
  Quantity,
  Reference,
  Resource,
} from "@medplum/fhirtypes";
import type { CgmDevice } from "@/lib/cgm/app-records";
import { offsetMinutesOf } from "@/lib/cgm/clock-offset";
import { SENTINEL_HIGH_MGDL, SENTINEL_LOW_MGDL } from "@/lib/cgm/values";
import { deviceTitle } from "@/lib/records/devices";
import type { ReportSummary } from "@/lib/reports/summary/summary-model";
import {
  CODES,
  DATA_ABSENT_REASON,
  DEVICE_NAME_TYPE,
  DIAGNOSTIC_SERVICE_SECTION,
  LOINC,
  OBSERVATION_CATEGORY,
  PROFILES,
  UCUM,
  UNITS,
} from "./cgm-ig";

/**
 * A patient's CGM period as the FHIR CGM IG's data submission Bundle (cgm-ig.ts): the summary
 * Observation and its six members, the Patient, the CGM Device, the AGP PDF as the IG's summary
 * PDF report and, when asked, the sensor readings. Pure: every value comes from its input, ids from
 * `newId`, so the summary API's numbers pass through unchanged (no rounding, no second computation).
 * A transaction Bundle, as `$submit-cgm-bundle` takes it: each entry is a POST whose resource other
 * entries reference by its `urn:uuid:` fullUrl, which the receiver replaces with the id it assigns.
 */
export interface CgmBundleInput {
  /** The summary API's answer for the period (lib/reports/summary). */
  summary: Pick<
    ReportSummary,
    "nValues" | "mean" | "gmi" | "cv" | "timeInRanges" | "sensorActivePercent" | "daysOfWear"
  >;
  /** The period on systemTime (UTC), as the summary was asked. */
  period: { startMs: number; endMs: number };
  /**
   * The receiver's clock at each end of the period (displayTime − systemTime, ms; receiverOffsets):
   * the period's instants are written with that offset, so an EHR shows them on the patient's clock.
   * Null: written in UTC.
   */
  clock: { startOffsetMs: number; endOffsetMs: number } | null;
  /** The clinic's patient: its id in the clinic (the identifier's value), name and birth date. */
  patient: { id: string; name: string; birthDate: string | null };
  /** The CGM in use in the period (the newest upload), if the service names one. */
  device: CgmDevice | null;
  /**
   * The AGP report printed to PDF, and when; or why it is left out (`omitted`: the Bundle then says
   * so, in its meta.tag and the summary Observation's note); null: not asked for.
   */
  pdf: { data: Uint8Array; issuedMs: number } | { omitted: string } | null;
  /**
   * The period's readings (systemTime instant, mg/dL with the sentinels 39 and 401, and the
   * receiver's clock when known), or null for none.
   */
  readings: ReadonlyArray<{ t: number; mgdl: number; displayMs?: number }> | null;
  generatedMs: number;
  /** The namespace of this dashboard's identifiers (its own address). */
  identifierBase: string;
  newId: () => string;
}

/** FHIR dateTime/instant of a UTC epoch time, to the second (the service's resolution). */
export const fhirInstant = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * A FHIR dateTime of the instant `ms` as a clock `offsetMs` from UTC shows it, with that offset:
 * `2026-01-01T18:00:00Z` on a receiver at UTC−6 is `2026-01-01T12:00:00-06:00`, the same instant
 * on the patient's clock. The offset goes to whole minutes (receiver offsets are quarter hours,
 * lib/cgm/clock-offset.ts); no offset is written `Z`.
 */
export function fhirDateTimeOn(ms: number, offsetMs: number): string {
  const minutes = Math.round(offsetMs / 60_000);
  if (minutes === 0) return fhirInstant(ms);
  const wall = new Date(ms + minutes * 60_000).toISOString().slice(0, 19);
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${wall}${minutes < 0 ? "-" : "+"}${hh}:${mm}`;
}

/**
 * The receiver's clock offset at each end of the period, from the readings nearest each end (in
 * systemTime order, as loadReadings gives them), rounded to quarter hours so that the seconds a
 * receiver's clock drifts are not read as a zone; null without readings.
 */
export function receiverOffsets(
  readings: ReadonlyArray<{ t: number; displayMs: number }>,
): CgmBundleInput["clock"] {
  const first = readings[0];
  const last = readings.at(-1);
  if (!first || !last) return null;
  return {
    startOffsetMs: offsetMinutesOf(first.t, first.displayMs) * 60_000,
    endOffsetMs: offsetMinutesOf(last.t, last.displayMs) * 60_000,
  };
}

/**
 * The meta.tag that marks a Bundle whose AGP PDF is left out: an EHR's import (and whoever opens
 * the file) sees that the CGM Summary PDF Report is missing on purpose, and why.
 */
export const PDF_OMITTED_CODE = "summary-pdf-omitted";
export const exportNotesSystem = (identifierBase: string) => `${identifierBase}/fhir/CodeSystem/export-notes`;

const loinc = (code: string) => ({ coding: [{ system: LOINC, code }] });
const laboratory = [{ coding: [{ system: OBSERVATION_CATEGORY, code: "laboratory" }] }];
const quantity = (value: number, unit: { code: string; unit: string }): Quantity => ({
  value,
  unit: unit.unit,
  system: UCUM,
  code: unit.code,
});

/**
 * A value or, for a metric the period cannot give (a CV needs two readings), the reason it is
 * absent: the IG makes the value mandatory, and a made-up number would be worse.
 */
function metricValue(value: number | null, unit: { code: string; unit: string }) {
  return value === null
    ? { dataAbsentReason: { coding: [{ system: DATA_ABSENT_REASON, code: "not-applicable" }] } }
    : { valueQuantity: quantity(value, unit) };
}

/**
 * A sensor reading's value: 39 and 401 are the service's "below 40" and "above 400", never numbers
 * of their own, so they go as FHIR's comparator on the measuring range's bound.
 */
function readingQuantity(mgdl: number): Quantity {
  if (mgdl === SENTINEL_LOW_MGDL) return { ...quantity(40, UNITS.mgdl), comparator: "<" };
  if (mgdl === SENTINEL_HIGH_MGDL) return { ...quantity(400, UNITS.mgdl), comparator: ">" };
  return quantity(mgdl, UNITS.mgdl);
}

export function cgmBundle(input: CgmBundleInput): Bundle {
  const { summary, period, patient, device, pdf, readings, newId } = input;
  const entries: BundleEntry[] = [];
  const add = <R extends Resource>(resource: R): Reference<R> => {
    const fullUrl = `urn:uuid:${newId()}`;
    entries.push({ fullUrl, resource, request: { method: "POST", url: resource.resourceType } });
    return { reference: fullUrl };
  };

  const patientResource: Patient = {
    resourceType: "Patient",
    identifier: [{ system: `${input.identifierBase}/fhir/sid/clinic-patient`, value: patient.id }],
    name: [{ text: patient.name }],
    ...(patient.birthDate ? { birthDate: patient.birthDate } : {}),
  };
  const subject = add(patientResource);

  let deviceRef: Reference<Device> | undefined;
  if (device) {
    const deviceResource: Device = {
      resourceType: "Device",
      meta: { profile: [PROFILES.device] },
      // v3 names the transmitter by an opaque hash; v2 by nothing, so the patient's CGM of that
      // generation and display stands for it.
      identifier: [
        device.transmitterId
          ? { system: `${input.identifierBase}/fhir/sid/transmitter`, value: device.transmitterId }
          : {
              system: `${input.identifierBase}/fhir/sid/patient-device`,
              value: [
                patient.id,
                device.transmitterGeneration ?? "unknown",
                device.displayDevice ?? "unknown",
              ].join(":"),
            },
      ],
      deviceName: [{ name: deviceTitle(device), type: DEVICE_NAME_TYPE }],
      patient: subject,
    };
    deviceRef = add(deviceResource);
  }

  const effectivePeriod = {
    start: fhirDateTimeOn(period.startMs, input.clock?.startOffsetMs ?? 0),
    end: fhirDateTimeOn(period.endMs, input.clock?.endOffsetMs ?? 0),
  };
  const omitted = pdf && "omitted" in pdf ? pdf.omitted : null;
  const observation = (profile: string, code: string, value: Partial<Observation>): Observation => ({
    resourceType: "Observation",
    meta: { profile: [profile] },
    status: "final",
    category: laboratory,
    code: loinc(code),
    subject,
    effectivePeriod,
    ...(deviceRef ? { device: deviceRef } : {}),
    ...value,
  });

  const tir = summary.timeInRanges;
  const tirComponent = (code: string, value: number | null): ObservationComponent => ({
    code: loinc(code),
    ...metricValue(value, UNITS.percent),
  });
  const members = [
    observation(PROFILES.meanGlucoseMass, CODES.meanGlucoseMass, metricValue(summary.mean, UNITS.mgdl)),
    observation(PROFILES.timesInRanges, CODES.timesInRanges, {
      component: [
        tirComponent(CODES.timeInVeryLow, tir?.veryLow ?? null),
        tirComponent(CODES.timeInLow, tir?.low ?? null),
        tirComponent(CODES.timeInTarget, tir?.inRange ?? null),
        tirComponent(CODES.timeInHigh, tir?.high ?? null),
        tirComponent(CODES.timeInVeryHigh, tir?.veryHigh ?? null),
      ],
    }),
    observation(PROFILES.gmi, CODES.gmi, metricValue(summary.gmi, UNITS.percent)),
    observation(PROFILES.cv, CODES.cv, metricValue(summary.cv, UNITS.percent)),
    observation(PROFILES.daysOfWear, CODES.daysOfWear, metricValue(summary.daysOfWear, UNITS.days)),
    observation(
      PROFILES.sensorActive,
      CODES.sensorActive,
      metricValue(summary.sensorActivePercent, UNITS.percent),
    ),
  ].map(add);
  const summaryRef = add(
    observation(PROFILES.summary, CODES.summary, {
      hasMember: members,
      ...(omitted ? { note: [{ text: `No AGP report (PDF) in this Bundle: ${omitted}` }] } : {}),
    }),
  );

  if (pdf && "data" in pdf) {
    const report: DiagnosticReport = {
      resourceType: "DiagnosticReport",
      meta: { profile: [PROFILES.summaryPdf] },
      status: "final",
      category: [{ coding: [{ system: DIAGNOSTIC_SERVICE_SECTION, code: "LAB" }] }],
      code: loinc(CODES.summary),
      subject,
      effectivePeriod,
      issued: fhirInstant(pdf.issuedMs),
      result: [summaryRef],
      presentedForm: [
        {
          contentType: "application/pdf",
          title: "Ambulatory glucose profile (AGP) report",
          data: Buffer.from(pdf.data).toString("base64"),
        },
      ],
    };
    add(report);
  }

  for (const r of readings ?? []) {
    add({
      resourceType: "Observation",
      meta: { profile: [PROFILES.sensorReadingMass] },
      status: "final",
      category: laboratory,
      code: loinc(CODES.sensorReadingMass),
      subject,
      effectiveDateTime:
        r.displayMs === undefined
          ? fhirInstant(r.t)
          : fhirDateTimeOn(r.t, offsetMinutesOf(r.t, r.displayMs) * 60_000),
      ...(deviceRef ? { device: deviceRef } : {}),
      valueQuantity: readingQuantity(r.mgdl),
    } satisfies Observation);
  }

  return {
    resourceType: "Bundle",
    meta: {
      profile: [PROFILES.bundle],
      ...(omitted
        ? {
            tag: [
              {
                system: exportNotesSystem(input.identifierBase),
                code: PDF_OMITTED_CODE,
                display: `The AGP report (PDF) is not included: ${omitted}`,
              },
            ],
          }
        : {}),
    },
    type: "transaction",
    timestamp: fhirInstant(input.generatedMs),
    entry: entries,
  };
}
