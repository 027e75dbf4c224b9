import { strToU8, zipSync } from "fflate";
import type { CgmEvent } from "@/lib/cgm/app-records";
import type { Calibration, DataRangeResponse, EgvsV2Response } from "@/lib/cgm/schemas";
import type { GlucoseUnit, RateUnit } from "@/lib/cgm/units";
import { sentinelValue } from "@/lib/cgm/values";
import type { CgmApiVersion } from "@/lib/platform/env";
import { periodFileName } from "../identity/file-name";
import { type IdentityLine, identityText } from "../identity/identity";
import { checkPatientDays, newestRecord, type PatientDays } from "../period/patient-days";
import { type PeriodRequest, parsePeriodChoice, REPORT_MAX_DAYS, type ReportPeriod } from "../period/period";
import {
  CALIBRATION_COLUMNS,
  type CsvColumn,
  calibrationsCsv,
  EGV_COLUMNS,
  EVENT_COLUMNS,
  egvsCsv,
  eventsCsv,
} from "./csv";
import { methodsText } from "./methods";

/**
 * The export: one zip with the period's raw records as CSV (lib/reports/export/csv.ts) and methods.txt,
 * which says what the files hold and carries the methods note of every report, so a report's
 * numbers can be recomputed from the files.
 */

export const EXPORT_FILES = ["egvs.csv", "events.csv", "calibrations.csv", "methods.txt"] as const;

/**
 * cgm-export_Jose_Garcia_2026-11-09_2026-11-23.zip: whose records (the clinic's name for the
 * patient, the account's name, else "patient") and the period's first and last day, on the
 * receiver's clock when the period was chosen as days (else the days of its systemTime bounds).
 */
export function exportFileName(period: ReportPeriod, patientName: string | null = null): string {
  return periodFileName("cgm-export", patientName, period);
}

/**
 * Where "the last N days" of an export end: the newest EGV, as for every report, so an export of
 * 14 days holds the readings of the 14-day report. Without EGVs, the newest event or calibration;
 * null when the account holds nothing.
 */
export function exportDataEndMs(range: DataRangeResponse): number | null {
  return newestRecord(range, true)?.t ?? null;
}

/** The first and last day holding any record, on the receiver's clock (displayTime), for the page to say. */
export function dataDays(range: DataRangeResponse): { first: string; last: string } | null {
  const groups = [range.egvs, range.events, range.calibrations].filter((g) => g !== null);
  if (!groups.length) return null;
  const starts = groups.map((g) => g.start.displayTime).sort();
  const ends = groups.map((g) => g.end.displayTime).sort();
  return { first: starts[0]!.slice(0, 10), last: ends.at(-1)!.slice(0, 10) };
}

/**
 * The page's own dates (`from` and `to`, as a date input sends them, YYYY-MM-DD): the patient's
 * days on the receiver's clock, both included, at most 90. Messages speak of the form's fields.
 */
export function daysFromDates(
  from: string | undefined,
  to: string | undefined,
): { ok: true; days: PatientDays } | { ok: false; message: string } {
  const checked = checkPatientDays(from, to, REPORT_MAX_DAYS);
  if (checked.ok) return checked;
  return { ok: false, message: `${checked.message.charAt(0).toUpperCase()}${checked.message.slice(1)}.` };
}

/**
 * What the export page's query (and the API's `from`/`to`) asks for: its own days when either is
 * given, else one of the period choices (`days`: 7, 14, 30 or 90; anything else is 14). A mistake
 * in the days gives no request and the message to show beside them.
 */
export function exportPageRequest(query: {
  days?: string;
  from?: string;
  to?: string;
}): { request: PeriodRequest; error: null } | { request: null; error: string } {
  if (query.from !== undefined || query.to !== undefined) {
    const custom = daysFromDates(query.from, query.to);
    return custom.ok
      ? { request: { kind: "patientDays", patientDays: custom.days }, error: null }
      : { request: null, error: custom.message };
  }
  return { request: { kind: "days", days: parsePeriodChoice(query.days) }, error: null };
}

/**
 * What the period is, in words: the request as the person made it, its days on the receiver's
 * clock when it was chosen as days, then its exact bounds on systemTime.
 */
export function periodText(period: ReportPeriod, request: PeriodRequest): string {
  const bounds = `${period.startDate} to ${period.endDate} on systemTime (UTC), both ends included`;
  const days = period.patientDays;
  const onClock = days ? `${days.firstDay} to ${days.lastDay} on the receiver's clock (displayTime); ` : "";
  return request.kind === "days"
    ? `the ${request.days} ${request.days === 1 ? "day" : "days"} up to the newest record, ${onClock}${bounds}`
    : `${onClock}${bounds}`;
}

// ---- methods.txt ------------------------------------------------------------------------------

/** What each column holds; keyed by the columns' names so none goes undescribed (see the test). */
export const COLUMN_MEANINGS: Record<string, Record<string, string>> = {
  "egvs.csv": {
    systemTime:
      "time of the reading on the service's system clock (nominally UTC); the period is on this clock",
    displayTime: "time shown on the patient's receiver at the reading (its local clock)",
    value:
      "the estimated glucose value the service asks clients to use (smoothedValue when present, else realtimeValue), in unit",
    unit: "unit of value, realtimeValue and smoothedValue (mg/dL or mmol/L), as the service sent it for the whole response",
    realtimeValue:
      "value shown on the device in real time, in unit (API v3: the reading's one value, as value)",
    smoothedValue:
      "value after smoothing over three readings, in unit; empty for older sensors, for readings not yet smoothed, and always with API v3",
    status:
      "low (value below 40 mg/dL, sent as 39) or high (above 400 mg/dL, sent as 401); empty for readings in the measuring range",
    trend:
      "direction of change (doubleUp … doubleDown, flat, none, notComputable, rateOutOfRange); empty when none was sent",
    trendRate: "rate of change in rateUnit; empty when none was sent",
    rateUnit: "unit of trendRate (mg/dL/min or mmol/L/min)",
  },
  "events.csv": {
    systemTime: "time of the event on the system clock (nominally UTC)",
    displayTime: "time of the event shown on the patient's device",
    eventId: "the service's id of the event; it stays the same when the event is deleted",
    eventStatus:
      "created; updated when the patient changed the entry (API v3); deleted when the patient deleted it (deleted entries are kept in this file); unknown for a status the dashboard does not know",
    eventType:
      "carbs, insulin, exercise or health; with API v3 also bloodGlucose (a meter reading), notes, or unknown for a type the dashboard does not know",
    eventSubType:
      "light, medium or heavy for exercise; illness, stress, highSymptoms, lowSymptoms, cycle or alcohol for health; fastActing or longActing for insulin (API v3); empty otherwise",
    value:
      "the amount entered, in unit; empty for health and notes events, and when the service gave none (API v3: also an exercise of unknown duration)",
    unit: "grams (carbs), units (insulin), minutes (exercise), mg/dL or mmol/L (bloodGlucose); empty for health and notes events",
    text: "the text of a notes event (API v3); empty otherwise",
  },
  "calibrations.csv": {
    systemTime: "time the calibration was entered, on the system clock (nominally UTC)",
    displayTime: "time shown on the device when it was entered",
    value: "the fingerstick meter reading entered, in unit",
    unit: "mg/dL or mmol/L",
  },
};

export const EXPORT_COLUMNS: Record<string, readonly CsvColumn<never>[]> = {
  "egvs.csv": EGV_COLUMNS,
  "events.csv": EVENT_COLUMNS,
  "calibrations.csv": CALIBRATION_COLUMNS,
};

export interface ExportData {
  /** The API the records were read with (CGM_API_VERSION): v3's are written in v2's columns. */
  apiVersion: CgmApiVersion;
  egvs: EgvsV2Response;
  events: readonly CgmEvent[];
  calibrations: readonly Calibration[];
}

export interface ExportInfo {
  period: ReportPeriod;
  request: PeriodRequest;
  exportedAtMs: number;
  /** Whose records and of what, as every report names them (lib/reports/identity). */
  identity?: readonly IdentityLine[];
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** methods.txt: the export's header (period, unit, time, files, columns, how values were kept), then the methods note. */
export function exportMethodsText(data: ExportData, info: ExportInfo): string {
  const deleted = data.events.filter((e) => e.eventStatus === "deleted").length;
  const unit: GlucoseUnit = data.egvs.unit;
  const rateUnit: RateUnit = data.egvs.rateUnit;
  const v3 = data.apiVersion === "v3";
  const lines = [
    v3
      ? "CGM data export: the records of the glucose data service, read with its API v3, in the columns of its v2 records"
      : "CGM data export: the records of the glucose data service (API v2), as it sent them",
    "",
    ...(info.identity ? [identityText(info.identity), ""] : []),
    `Period: ${periodText(info.period, info.request)}`,
    "A report of the same period is computed from exactly the readings in egvs.csv.",
    `Data unit: ${unit} (trend rates in ${rateUnit}), as the service sent the readings`,
    `Exported: ${new Date(info.exportedAtMs).toISOString().slice(0, 19)}Z (UTC)`,
    "Files:",
    `  egvs.csv: ${plural(data.egvs.egvs.length, "reading", "readings")}`,
    `  events.csv: ${plural(data.events.length, "event", "events")}, ${deleted} of them deleted`,
    `  calibrations.csv: ${plural(data.calibrations.length, "calibration", "calibrations")}`,
    "",
    "Format: CSV as in RFC 4180: UTF-8, comma-separated, CRLF line ends, one header row of the",
    "service's field names, one row per record in systemTime order. A field holding a comma, a quote",
    "or a line break is quoted. An empty field is a null from the service.",
    "",
    "As received:",
    ...(v3
      ? [
          "- Read with API v3, which sends one value per reading (the smoothed value where the sensor",
          "  smooths, as v2's value) and always in mg/dL: it is written as value and as realtimeValue,",
          "  and smoothedValue is empty. eventId is v3's recordId, which is v2's eventId for the same",
          "  event; an event v3 marks updated is written with its newest content.",
        ]
      : []),
    "- Values and units are exactly as the service sent them: nothing converted between mg/dL and",
    "  mmol/L, nothing rounded, no reading filled in or left out. Numbers are written in their",
    "  shortest form (5.0 as 5).",
    "- 39 and 401 are the service's stand-ins for below 40 and above 400 mg/dL (status low and",
    `  high); in mmol/L data they arrive converted (${sentinelValue("low", "mmol/L")} and ${sentinelValue("high", "mmol/L")}) with the same status. They are`,
    "  kept as sent; reports show them as LOW and HIGH and compute with 39 and 401 mg/dL (Methods).",
    "- Gaps are not filled: a period without readings simply has no rows.",
    "- Deleted events are included, with eventStatus deleted; the dashboard lists them only on request.",
    "- A text field (eventId, eventSubType) that would begin with =, +, -, @, a tab or a carriage",
    "  return is written with a leading apostrophe, so that a spreadsheet does not run it as a",
    "  formula; remove it to get the text as sent. Numbers and times are never changed.",
    "",
    "Columns:",
  ];
  for (const [file, columns] of Object.entries(EXPORT_COLUMNS)) {
    lines.push(`  ${file}`);
    for (const c of columns) lines.push(`    ${c.name}: ${COLUMN_MEANINGS[file]?.[c.name] ?? ""}`);
  }
  lines.push("", "");
  lines.push(methodsText(`how the dashboard's reports compute their numbers from these records`));
  // CRLF like the CSVs, so Notepad shows the lines too.
  return lines.join("\n").replaceAll("\n", "\r\n");
}

/** The four files. */
export function exportFiles(
  data: ExportData,
  info: ExportInfo,
): Record<(typeof EXPORT_FILES)[number], string> {
  return {
    "egvs.csv": egvsCsv(data.egvs),
    "events.csv": eventsCsv(data.events),
    "calibrations.csv": calibrationsCsv(data.calibrations),
    "methods.txt": exportMethodsText(data, info),
  };
}

/** The zip, its entries dated at the export time. */
export function exportZip(data: ExportData, info: ExportInfo): Uint8Array<ArrayBuffer> {
  const files = exportFiles(data, info);
  const mtime = new Date(info.exportedAtMs);
  return zipSync(Object.fromEntries(EXPORT_FILES.map((name) => [name, [strToU8(files[name]), { mtime }]])), {
    level: 6,
  });
}

/**
 * The export API's address for a request: "the last N days" stays a number of days, so a download
 * started later still ends at the newest record; picked days stay days (the API reads the
 * receiver's clock as the page did); systemTime dates are sent as the period's exact bounds.
 */
export function exportHref(request: PeriodRequest, apiPath = "/api/reports/export"): string {
  const query: Record<string, string> =
    request.kind === "days"
      ? { days: String(request.days) }
      : request.kind === "patientDays"
        ? { from: request.patientDays.firstDay, to: request.patientDays.lastDay }
        : { startDate: request.period.startDate, endDate: request.period.endDate };
  return `${apiPath}?${new URLSearchParams(query)}`;
}
