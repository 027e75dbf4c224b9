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
  /** The clinic's patient: its id in the clinic (the identifier's value), name and birth date. */
  patient: { id: string; name: string; birthDate: string | null };
  /** The CGM in use in the period (the newest upload), if the service names one. */
  device: CgmDevice | null;
  /** The AGP report printed to PDF, and when. */
  pdf: { data: Uint8Array; issuedMs: number } | null;
  /** The period's readings (UTC instant, mg/dL with the sentinels 39 and 401), or null for none. */
  readings: ReadonlyArray<{ t: number; mgdl: number }> | null;
  generatedMs: number;
  /** The namespace of this dashboard's identifiers (its own address). */
  identifierBase: string;
  newId: () => string;
}

/** FHIR dateTime/instant of a UTC epoch time, to the second (the service's resolution). */
export const fhirInstant = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

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

  const effectivePeriod = { start: fhirInstant(period.startMs), end: fhirInstant(period.endMs) };
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
  const summaryRef = add(observation(PROFILES.summary, CODES.summary, { hasMember: members }));

  if (pdf) {
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
      effectiveDateTime: fhirInstant(r.t),
      ...(deviceRef ? { device: deviceRef } : {}),
      valueQuantity: readingQuantity(r.mgdl),
    } satisfies Observation);
  }

  return {
    resourceType: "Bundle",
    meta: { profile: [PROFILES.bundle] },
    type: "transaction",
    timestamp: fhirInstant(input.generatedMs),
    entry: entries,
  };
}
