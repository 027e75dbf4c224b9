import "server-only";
import { TARGET_PRESETS } from "@/lib/metrics/targets";
import { exportFileName, exportPageRequest, exportZip } from "@/lib/reports/export/export";
import { loadExportData } from "@/lib/reports/export/export-data";
import { attachmentDisposition } from "@/lib/reports/identity/file-name";
import { loadExportIdentity, type ReportViewer } from "@/lib/reports/identity/identity-load";
import { newestRecord } from "@/lib/reports/period/patient-days";
import { type PeriodRequest, parsePeriodRequest } from "@/lib/reports/period/period";
import { patientClock, resolveReportPeriod } from "@/lib/reports/period/period-load";
import { readSource } from "@/lib/sync/source";
import { InputError } from "./errors";
import type { PatientContext } from "./route";

/**
 * GET /api/reports/export?days=14, ?from=…&to=… (days on the receiver's clock, as the export
 * page picks them) or ?startDate=…&endDate=… (systemTime): the period's EGVs, events and
 * calibrations as CSV with methods.txt, in one zip. Explicit dates always give a zip, with
 * header-only files when the period holds nothing (an empty period is an answer too); "the last N
 * days" of an account that holds nothing has no end to count from, so it is a 404 that says so.
 */
export async function exportRead(
  { req, connection, userId, targetGroup }: PatientContext,
  /** The clinic's patient, for a clinic's download; else the patient's own account. */
  clinicPatient?: ReportViewer | null,
): Promise<Response> {
  const request = exportRequest((name) => req.nextUrl.searchParams.get(name) ?? undefined);
  // Read through once, so the period's finished days come from those this process keeps.
  const source = await readSource(connection);
  const period =
    request.kind === "dates"
      ? request.period
      : await resolveReportPeriod(
          patientClock(connection, newestRecord(source.newest, true), source),
          request,
        );
  if (!period) {
    throw new InputError(
      "There is nothing to export: your CGM account holds no readings, events or calibrations yet.",
      404,
      "no_data",
    );
  }
  const [data, group] = await Promise.all([loadExportData(connection, period, source), targetGroup()]);
  const who = clinicPatient ?? { viewer: "patient", userId };
  const identity = await loadExportIdentity(connection, period, who, TARGET_PRESETS[group.group].label);
  const zip = exportZip(data, { period, request, exportedAtMs: Date.now(), identity: identity.lines });
  return new Response(zip, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": attachmentDisposition(exportFileName(period, identity.patientName)),
      "Content-Length": String(zip.byteLength),
    },
  });
}

function exportRequest(get: (name: string) => string | undefined): PeriodRequest {
  if (get("from") !== undefined || get("to") !== undefined) {
    const picked = exportPageRequest({ from: get("from"), to: get("to") });
    if (!picked.request) throw new InputError(picked.error);
    return picked.request;
  }
  const parsed = parsePeriodRequest(get);
  if (!parsed.ok) throw new InputError(parsed.message);
  return parsed.value;
}
