import "server-only";
import { windowOf } from "@/lib/cgm/window";
import type { Viewer } from "@/lib/records/viewer";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { readEgvs, readSource } from "@/lib/sync/source";
import { newestRecord } from "../period/patient-days";
import { patientClock, resolveReportPeriod } from "../period/period-load";
import { dataDays } from "./export";
import { type ExportModel, type ExportQuery, exportModel } from "./export-page-model";

/**
 * The export page's service calls: it only learns where the data ends (and its unit); the
 * download link asks the API, which reads the records. Null when the account holds nothing.
 */
export async function loadExportPage(
  connection: ConnectionRef,
  query: ExportQuery,
  /** Who views (links and words), and whose records (the download's file name). */
  { viewer, patientName = null }: { viewer?: Viewer; patientName?: string | null } = {},
): Promise<ExportModel | null> {
  const source = await readSource(connection);
  const range = source.newest;
  const newest = newestRecord(range, true);
  const span = dataDays(range);
  if (newest === null || span === null) return null;
  // The unit the readings come in, from the newest second of data: the files keep it.
  const probe = range.egvs ? await readEgvs(connection, windowOf(newest.t - 1000, newest.t), source) : null;
  const period = query.request
    ? await resolveReportPeriod(patientClock(connection, newest, source), query.request)
    : null;
  return exportModel({ newest, span, unit: probe?.unit ?? null, period, patientName }, query, viewer);
}
