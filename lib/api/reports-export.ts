import "server-only";
import { exportDataEndMs, exportFileName, exportZip } from "@/lib/reports/export";
import { loadExportData } from "@/lib/reports/export-data";
import { parsePeriodRequest, resolvePeriod } from "@/lib/reports/period";
import { readDataRange } from "@/lib/sync/source";
import { InputError } from "./errors";
import type { PatientContext } from "./route";

/**
 * GET /api/reports/export?days=14 or ?startDate=…&endDate=…: the period's EGVs, events and
 * calibrations as CSV with methods.txt, in one zip. Explicit dates always give a zip, with
 * header-only files when the period holds nothing (an empty period is an answer too); "the last N
 * days" of an account that holds nothing has no end to count from, so it is a 404 that says so.
 */
export async function exportRead({ req, connection }: PatientContext): Promise<Response> {
  const parsed = parsePeriodRequest((name) => req.nextUrl.searchParams.get(name));
  if (!parsed.ok) throw new InputError(parsed.message);
  const request = parsed.value;
  const period =
    request.kind === "dates"
      ? request.period
      : resolvePeriod(request, exportDataEndMs(await readDataRange(connection)));
  if (!period) {
    throw new InputError(
      "There is nothing to export: your CGM account holds no readings, events or calibrations yet.",
      404,
      "no_data",
    );
  }
  const data = await loadExportData(connection, period);
  const zip = exportZip(data, { period, request, exportedAtMs: Date.now() });
  return new Response(zip, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${exportFileName(period)}"`,
      "Content-Length": String(zip.byteLength),
    },
  });
}
