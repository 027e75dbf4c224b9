import { formatDateTime } from "@/lib/cgm/datetime";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { type Choice, firstParam, type SearchParam } from "@/lib/records/query";
import { exportApiPath, PATIENT, type Viewer, viewPath } from "@/lib/records/viewer";
import type { ClockSample } from "../period/patient-days";
import type { PeriodRequest, ReportPeriod } from "../period/period";
import { daysChoices } from "../period/period-choices";
import { exportFileName, exportHref, exportPageRequest } from "./export";

/**
 * The export page's model: where the records run, the period links and the own-dates form, and
 * the download of the chosen period (its file name, and the API's address that reads the records).
 */

export const EXPORT_PATH = "/reports/export";

/** The page's query: the request it makes (null after a mistake in the dates), and the dates as typed. */
export interface ExportQuery {
  request: PeriodRequest | null;
  error: string | null;
  from: string | undefined;
  to: string | undefined;
}

export function parseExportQuery(params: Record<string, SearchParam>): ExportQuery {
  const from = firstParam(params.from);
  const to = firstParam(params.to);
  return { ...exportPageRequest({ days: firstParam(params.days), from, to }), from, to };
}

/** What the loader read: the newest record, the days holding records, the data's unit, the period asked. */
export interface ExportData {
  newest: ClockSample;
  span: { first: string; last: string };
  unit: GlucoseUnit | null;
  /** Null when the query asked for no valid period. */
  period: ReportPeriod | null;
  /** Whose records, for the file's name (the account's name, or the clinic's for its patient). */
  patientName?: string | null;
}

export interface ExportDownload {
  request: PeriodRequest;
  period: ReportPeriod;
  href: string;
  fileName: string;
  /** The file name in two parts, whose and the dates, so a phone never breaks it inside a date. */
  fileNameParts: [string, string];
}

export interface ExportModel {
  span: { first: string; last: string };
  /** The newest record on the receiver's clock, where periods in days end. */
  newestDisplayTime: string;
  choices: Choice[];
  /** The own-dates form's values: the period's days, else what was typed. */
  form: { from: string; to: string; error: string | null };
  download: ExportDownload | null;
  unit: GlucoseUnit | null;
}

export function exportModel(data: ExportData, query: ExportQuery, viewer: Viewer = PATIENT): ExportModel {
  const { request } = query;
  const { period } = data;
  const fileName = period ? exportFileName(period, data.patientName ?? null) : null;
  return {
    span: data.span,
    newestDisplayTime: formatDateTime(data.newest.displayMs),
    choices: daysChoices(viewPath(viewer, "/export"), request?.kind === "days" ? request.days : null),
    form: {
      ...(period?.patientDays
        ? { from: period.patientDays.firstDay, to: period.patientDays.lastDay }
        : { from: query.from ?? "", to: query.to ?? "" }),
      error: query.error,
    },
    download:
      period && request && fileName
        ? {
            request,
            period,
            href: exportHref(request, exportApiPath(viewer)),
            fileName,
            fileNameParts: fileNamePartsOf(fileName),
          }
        : null,
    unit: data.unit,
  };
}

/** "cgm-export_Ann_Lee_" and "2026-11-10_2026-11-23.zip": the dates kept together. */
function fileNamePartsOf(fileName: string): [string, string] {
  const m = /^(.*_)(\d{4}-\d{2}-\d{2}_.*)$/.exec(fileName);
  return m ? [m[1]!, m[2]!] : [fileName, ""];
}
