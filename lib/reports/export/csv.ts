import type { CgmEvent } from "@/lib/cgm/app-records";
import type { Calibration, EgvsV2Response, EgvV2 } from "@/lib/cgm/schemas";

/**
 * CSV files of the export: the service's v2 records, one row each, with exactly what the service
 * sent. The export is raw data for reproducing a report, so nothing is converted, rounded, filled
 * in or left out: 39 stays 39 (with its status), a deleted event stays (with its eventStatus).
 *
 * Encoding (RFC 4180): comma-separated, CRLF after every row, the header row first; a field that
 * holds a comma, a double quote, CR or LF is quoted and its quotes doubled. An empty field is the
 * service's null.
 */

/**
 * How a field is written.
 * - number: the JSON number in its shortest form (String(n)); never altered otherwise, so that a
 *   negative trendRate stays a number a spreadsheet can compute with.
 * - time: a DateTime as received (the shared schema checked its shape).
 * - code: a value of one of the service's closed enumerations (unit, status, trend, eventType…),
 *   checked by the shared schemas, so it cannot hold a formula.
 * - text: any other string (free text, opaque ids): guarded against formula injection.
 */
export type CsvKind = "number" | "time" | "code" | "text";
export type CsvValue = string | number | null | undefined;

export interface CsvColumn<R> {
  /** The header: the service's own field name. */
  name: string;
  kind: CsvKind;
  get: (row: R) => CsvValue;
}

const NEEDS_QUOTES = /[",\r\n]/;
/**
 * Spreadsheets (Excel, LibreOffice, Google Sheets) run a cell that starts with one of these as a
 * formula, which can fetch URLs or run commands when the file is opened (OWASP "CSV Injection").
 * Tab and CR are on OWASP's list too: some spreadsheets strip them and then see the formula.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text field that a spreadsheet would take for a formula gets a leading apostrophe, which
 * spreadsheets read as "this is text" and do not show. Only text fields: a number such as -1.5 or
 * a time is data, and changing it would make the file disagree with the service.
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One field: RFC 4180 quoting, after the formula guard for text. */
export function csvField(value: CsvValue, kind: CsvKind = "text"): string {
  if (value === null || value === undefined) return "";
  let text: string;
  if (typeof value === "number") {
    // JSON cannot carry NaN or Infinity; a field that is not a number is a bug upstream, not data.
    if (!Number.isFinite(value)) throw new Error("CSV: a number field is not finite");
    text = String(value);
  } else {
    text = kind === "text" ? neutraliseFormula(value) : value;
  }
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const CRLF = "\r\n";

/** The header row and one row per record, each ended by CRLF. */
export function toCsv<R>(columns: readonly CsvColumn<R>[], rows: readonly R[]): string {
  const lines = [columns.map((c) => csvField(c.name, "code")).join(",")];
  for (const row of rows) lines.push(columns.map((c) => csvField(c.get(row), c.kind)).join(","));
  return lines.join(CRLF) + CRLF;
}

/**
 * Records in systemTime order. DateTime text has one fixed shape, so text order is time order;
 * the sort is stable, so records at the same second keep the service's order.
 */
export function bySystemTime<R extends { systemTime: string }>(records: readonly R[]): R[] {
  return [...records].sort((a, b) =>
    a.systemTime < b.systemTime ? -1 : a.systemTime > b.systemTime ? 1 : 0,
  );
}

// ---- The three files --------------------------------------------------------------------------
// Each record type lists every field of its shared schema with its kind; `satisfies` makes the
// compiler refuse a schema field without a column (or a column the schema does not have).

const EGV_FIELDS = {
  systemTime: "time",
  displayTime: "time",
  value: "number",
  realtimeValue: "number",
  smoothedValue: "number",
  status: "code",
  trend: "code",
  trendRate: "number",
} as const satisfies Record<keyof EgvV2, CsvKind>;

const EVENT_FIELDS = {
  systemTime: "time",
  displayTime: "time",
  eventId: "text",
  eventStatus: "code",
  eventType: "code",
  // An enumeration in our schema, but v2's list is "not shown" in the spec (2.3) and services of
  // this kind carry notes here: it is guarded as text.
  eventSubType: "text",
  value: "number",
  unit: "code",
  // A note's text (API v3's notes events): free text, guarded as such.
  text: "text",
} as const satisfies Record<keyof CgmEvent, CsvKind>;

const CALIBRATION_FIELDS = {
  systemTime: "time",
  displayTime: "time",
  value: "number",
  unit: "code",
} as const satisfies Record<keyof Calibration, CsvKind>;

function fieldColumns<R>(fields: Record<string, CsvKind>): CsvColumn<R>[] {
  return Object.entries(fields).map(([name, kind]) => ({
    name,
    kind,
    get: (row: R) => (row as Record<string, CsvValue>)[name],
  }));
}

/** An EGV with the response's units: the envelope's unit and rateUnit are repeated on every row. */
export type EgvRow = EgvV2 & Pick<EgvsV2Response, "unit" | "rateUnit">;

const [egvSystemTime, egvDisplayTime, egvValue, ...egvRest] = fieldColumns<EgvRow>(EGV_FIELDS);
const envelope = (name: "unit" | "rateUnit"): CsvColumn<EgvRow> => ({
  name,
  kind: "code",
  get: (row) => row[name],
});

/** systemTime, displayTime, value, unit, realtimeValue, smoothedValue, status, trend, trendRate, rateUnit. */
export const EGV_COLUMNS: readonly CsvColumn<EgvRow>[] = [
  egvSystemTime!,
  egvDisplayTime!,
  egvValue!,
  envelope("unit"),
  ...egvRest,
  envelope("rateUnit"),
];
export const EVENT_COLUMNS: readonly CsvColumn<CgmEvent>[] = fieldColumns<CgmEvent>(EVENT_FIELDS);
export const CALIBRATION_COLUMNS: readonly CsvColumn<Calibration>[] =
  fieldColumns<Calibration>(CALIBRATION_FIELDS);

export function egvsCsv(response: EgvsV2Response): string {
  const rows = bySystemTime(response.egvs).map((e) => ({
    ...e,
    unit: response.unit,
    rateUnit: response.rateUnit,
  }));
  return toCsv(EGV_COLUMNS, rows);
}

/** Every event, deleted ones included: eventStatus says which. */
export function eventsCsv(events: readonly CgmEvent[]): string {
  return toCsv(EVENT_COLUMNS, bySystemTime(events));
}

export function calibrationsCsv(calibrations: readonly Calibration[]): string {
  return toCsv(CALIBRATION_COLUMNS, bySystemTime(calibrations));
}
