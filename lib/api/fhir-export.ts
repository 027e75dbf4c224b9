import "server-only";
import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { MS_PER_DAY } from "@/lib/cgm/datetime";
import { clinicPatientFor } from "@/lib/clinic/domain/patients";
import { pdfRenderCookie } from "@/lib/clinic/security/pdf-render";
import { cgmBundle, receiverOffsets } from "@/lib/fhir/cgm-bundle";
import { FHIR_READINGS_MAX_DAYS } from "@/lib/fhir/export-limits";
import { operationOutcome, wantsFhir } from "@/lib/fhir/operation-outcome";
import { env } from "@/lib/platform/env";
import { deviceInUse } from "@/lib/records/devices";
import { attachmentDisposition, periodFileName } from "@/lib/reports/identity/file-name";
import { readPeriodDevices } from "@/lib/reports/identity/identity-load";
import { newestRecord, windowDays } from "@/lib/reports/period/patient-days";
import { parsePeriodRequest, type ReportPeriod } from "@/lib/reports/period/period";
import { patientClock, resolveReportPeriod } from "@/lib/reports/period/period-load";
import { loadReadings } from "@/lib/reports/period/readings";
import { summaryOf } from "@/lib/reports/summary/summary";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { readSource } from "@/lib/sync/source";
import type { Handler } from "./download";
import { InputError } from "./errors";
import { agpPdfOf, reportPeriodFrom } from "./reports";
import type { PatientContext } from "./route";

/** Why a Bundle holds no PDF report, as the Bundle itself says it (meta.tag and the summary's note). */
export const PDF_OMITTED =
  "this server could not print the AGP report (its Chromium is missing or would not start); ask the clinic's administrator, then download the Bundle again.";

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

  // The devices as the reports' identity line reads them: the period's last 30 days, one call.
  const [{ readings }, group, devices] = await Promise.all([
    loadReadings(connection, period),
    targetGroup(),
    readPeriodDevices(connection, period),
  ]);
  const summary = summaryOf(period, readings, group.group);
  if (summary.nValues === 0) throw noData();

  // The clinic's AGP download of exactly this period, printed as the clinician would download it.
  const pdfUrl = new URL(req.nextUrl);
  pdfUrl.search = new URLSearchParams({ startDate: period.startDate, endDate: period.endDate }).toString();
  const pdfRequest = new NextRequest(pdfUrl, { headers: req.headers });
  const marker = pdfRenderCookie(req, patientId);
  const now = Date.now();
  const pdf = await agpPdfOf(
    `/clinic/patients/${encodeURIComponent(patientId)}/agp`,
    { ...ctx, req: pdfRequest },
    marker ? [marker] : [],
  ).then(
    async (res) => ({ data: new Uint8Array(await res.arrayBuffer()), issuedMs: now }),
    (e: unknown) => {
      // A server that cannot print (no Chromium, or it would not start) will not print on a
      // retry either, while the Bundle's numbers do not need the PDF and the IG's submission
      // Bundle takes any combination of its entries: the Bundle is served without the PDF,
      // marked so (the Bundle's meta.tag, the summary's note, the X-CGM-Summary-PDF header) so
      // that nobody files it believing it complete. Every other failure (no data, the service or
      // the call budget) stays an error, as the clinician can act on it and retry.
      // The Bundle goes into the health record for good: a fixed sentence, never the server's
      // paths or the browser's output, which are logged here instead.
      if (e instanceof InputError && e.code === "pdf_unavailable") {
        console.error(`FHIR export: the AGP PDF was left out: ${e.message.split("\n")[0]}`);
        return { omitted: PDF_OMITTED };
      }
      throw e;
    },
  );

  const bundle = cgmBundle({
    summary,
    period,
    clock: receiverOffsets(readings),
    patient: { id: access.patient.id, name: access.patient.name, birthDate: access.patient.birthDate },
    device: deviceInUse(devices),
    pdf,
    readings: withReadings ? readings : null,
    generatedMs: now,
    identifierBase: new URL(env().APP_URL).origin,
    newId: randomUUID,
  });
  // The file is named by the receiver's days, also for explicit startDate/endDate (on systemTime):
  // those of the window's ends on the receiver's clock.
  const days = period.patientDays ?? windowDays(period, readings) ?? undefined;
  return new Response(JSON.stringify(bundle), {
    headers: {
      "Content-Type": "application/fhir+json; charset=utf-8",
      "Content-Disposition": attachmentDisposition(
        periodFileName("fhir", access.patient.name, { ...period, patientDays: days }),
      ),
      "X-CGM-Summary-PDF": "omitted" in pdf ? "omitted" : "included",
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
    // No advice of its own: a browser's page adds the next step (lib/api/download.ts), as for the PDF.
    "The glucose service holds no readings in this period, so there is nothing to export.",
    404,
    "no_data",
  );

/**
 * The export's errors for a FHIR client (Accept: application/fhir+json): the API's JSON error as an
 * OperationOutcome with the same status and headers. Others keep `{ error, message }`; browsers get
 * downloadRoute's page.
 */
export function fhirClientErrors(inner: Handler): Handler {
  return async (req, ctx) => {
    const res = await inner(req, ctx);
    if (res.status < 400 || !wantsFhir(req.headers.get("accept"))) return res;
    if (!res.headers.get("content-type")?.includes("application/json")) return res;
    let body: { error?: unknown; message?: unknown } = {};
    try {
      body = await res.clone().json();
    } catch {
      return res;
    }
    const headers = new Headers(res.headers);
    headers.set("Content-Type", "application/fhir+json; charset=utf-8");
    headers.delete("Content-Length");
    const outcome = operationOutcome(
      res.status,
      typeof body.error === "string" ? body.error : "error",
      typeof body.message === "string" ? body.message : "The FHIR Bundle could not be made.",
    );
    return new Response(JSON.stringify(outcome), { status: res.status, headers });
  };
}
