import "server-only";
import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import type { CgmDevice } from "@/lib/cgm/app-records";
import { MS_PER_DAY } from "@/lib/cgm/datetime";
import { clinicPatientFor } from "@/lib/clinic/domain/patients";
import { pdfRenderCookie } from "@/lib/clinic/security/pdf-render";
import { cgmBundle } from "@/lib/fhir/cgm-bundle";
import { FHIR_READINGS_MAX_DAYS } from "@/lib/fhir/export-limits";
import { env } from "@/lib/platform/env";
import { attachmentDisposition, periodFileName } from "@/lib/reports/identity/file-name";
import { newestRecord } from "@/lib/reports/period/patient-days";
import { parsePeriodRequest, type ReportPeriod } from "@/lib/reports/period/period";
import { patientClock, resolveReportPeriod } from "@/lib/reports/period/period-load";
import { loadReadings } from "@/lib/reports/period/readings";
import { summaryOf } from "@/lib/reports/summary/summary";
import { configuredVersion, getDevices } from "@/lib/service-client/client";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { readSource } from "@/lib/sync/source";
import { InputError } from "./errors";
import { agpPdfOf, reportPeriodFrom } from "./reports";
import type { PatientContext } from "./route";

function readingsAsked(params: URLSearchParams): boolean {
  const value = params.get("readings");
  if (value === null || value === "false") return false;
  if (value === "true") return true;
  throw new InputError('readings must be "true" (include the sensor readings) or "false".');
}

/**
 * GET /api/clinic/patients/{patientId}/fhir?startDate=…&endDate=… (or ?days=14)[&readings=true]: the period as
 * the FHIR CGM IG's submission Bundle (lib/fhir/cgm-bundle.ts), for a clinician of the patient's
 * clinic (clinicPatientRoute checked that). The summary is the summary API's own computation on the
 * same readings; the PDF is the clinic's AGP download of the same period.
 */
export async function fhirExportRead(ctx: PatientContext): Promise<Response> {
  const { req, connection, targetGroup, viewerId } = ctx;
  const params = req.nextUrl.searchParams;
  const period = await periodAsked(connection, params);
  const withReadings = readingsAsked(params);
  if (withReadings && period.endMs - period.startMs > FHIR_READINGS_MAX_DAYS * MS_PER_DAY) {
    throw new InputError(
      `readings=true covers at most ${FHIR_READINGS_MAX_DAYS} days: export a longer period in parts, or without readings.`,
    );
  }
  const patientId = String(ctx.params.patientId);
  const access = await clinicPatientFor(viewerId, patientId);
  // The route's own check found it a moment ago; gone since (removed meanwhile): as any other id.
  if (!access) throw new InputError("No such patient in your clinics.", 404, "not_found");

  const [{ readings }, group, devices] = await Promise.all([
    loadReadings(connection, period),
    targetGroup(),
    getDevices(connection, configuredVersion(), period),
  ]);
  const summary = summaryOf(period, readings, group.group);
  if (summary.nValues === 0) throw noData();

  // The clinic's AGP download of exactly this period, printed as the clinician would download it.
  const pdfUrl = new URL(req.nextUrl);
  pdfUrl.search = new URLSearchParams({ startDate: period.startDate, endDate: period.endDate }).toString();
  const pdfRequest = new NextRequest(pdfUrl, { headers: req.headers });
  const marker = pdfRenderCookie(req, patientId);
  const pdfResponse = await agpPdfOf(
    `/clinic/patients/${encodeURIComponent(patientId)}/agp`,
    { ...ctx, req: pdfRequest },
    marker ? [marker] : [],
  );
  const pdf = new Uint8Array(await pdfResponse.arrayBuffer());

  const now = Date.now();
  const bundle = cgmBundle({
    summary,
    period,
    patient: { id: access.patient.id, name: access.patient.name, birthDate: access.patient.birthDate },
    device: newestDevice(devices.devices),
    pdf: { data: pdf, issuedMs: now },
    readings: withReadings ? readings : null,
    generatedMs: now,
    identifierBase: new URL(env().APP_URL).origin,
    newId: randomUUID,
  });
  return new Response(JSON.stringify(bundle), {
    headers: {
      "Content-Type": "application/fhir+json; charset=utf-8",
      "Content-Disposition": attachmentDisposition(periodFileName("fhir", access.patient.name, period)),
    },
  });
}

/**
 * startDate/endDate as the summary API takes them; or, without them, `days` (1 to 90) ending at the
 * newest reading, the receiver's days as the AGP page counts them (the clinic patient page's link).
 */
async function periodAsked(connection: ConnectionRef, params: URLSearchParams): Promise<ReportPeriod> {
  if (params.has("startDate") || params.has("endDate") || !params.has("days"))
    return reportPeriodFrom(params);
  const request = parsePeriodRequest((name) => params.get(name));
  if (!request.ok) throw new InputError(request.message);
  const source = await readSource(connection);
  const newest = newestRecord(source.newest);
  const period =
    newest && (await resolveReportPeriod(patientClock(connection, newest, source), request.value));
  if (!period) throw noData();
  return period;
}

const noData = () =>
  new InputError(
    "The glucose service holds no readings in this period, so there is nothing to export: choose another period.",
    404,
    "no_data",
  );

/** The device that uploaded last in the period: the CGM in use at its end. */
function newestDevice(devices: readonly CgmDevice[]): CgmDevice | null {
  return devices.reduce<CgmDevice | null>(
    (newest, d) => (newest === null || d.lastUploadDate > newest.lastUploadDate ? d : newest),
    null,
  );
}
