import { parseTime, SECONDS_PER_DAY } from "@/lib/cgm/datetime";
import {
  glucoseUnitSchema,
  type StatisticsV1Request,
  type StatisticsV2Request,
  statisticsV1RequestSchema,
  statisticsV2RequestSchema,
  v2Bounds,
  zodMessage,
} from "@/lib/cgm/schemas";
import { convertGlucose, fromMgdlRounded, type GlucoseUnit, roundForUnit } from "@/lib/cgm/units";
import type { StoredStatisticsWindow } from "@/lib/db/schema/statistics-windows";

/**
 * The statistics editor's windows (issue 5, "statistics by time of day"): named time-of-day
 * windows with urgent-low, low and high bounds, from the form's strings to the service's
 * statistics request and back. Client-safe: the editor runs these in the browser and the save
 * route runs them again on the server, so both refuse exactly what the service refuses — the
 * check *is* the service's own request schema (lib/cgm/schemas.ts), run on the body that would be
 * sent. The dashboard adds two limits of its own (how many windows, how long a name), kept apart
 * so they are never mistaken for the service's rules.
 */

export type StatisticsWindow = StoredStatisticsWindow;
export type TargetRangeV2 = StatisticsV2Request["targetRanges"][number];

/** The issue's example: Day 06:00–22:00 and Night 22:00–06:00, with the consensus bounds 54/70/180. */
export const DAY_NIGHT_WINDOWS: readonly StatisticsWindow[] = [
  { name: "Day", startTime: "06:00:00", endTime: "22:00:00", urgentLowMgdl: 54, lowMgdl: 70, highMgdl: 180 },
  {
    name: "Night",
    startTime: "22:00:00",
    endTime: "06:00:00",
    urgentLowMgdl: 54,
    lowMgdl: 70,
    highMgdl: 180,
  },
];

/** One window for the whole day: a start equal to its end covers all 24 hours (lib/cgm timeOfDayWindow). */
export const WHOLE_DAY_WINDOWS: readonly StatisticsWindow[] = [
  {
    name: "Whole day",
    startTime: "00:00:00",
    endTime: "00:00:00",
    urgentLowMgdl: 54,
    lowMgdl: 70,
    highMgdl: 180,
  },
];

export const DEFAULT_WINDOWS = DAY_NIGHT_WINDOWS;

/**
 * The dashboard's own limits, not the service's: each window costs the results two service
 * requests (lib/reports/statistics-by-window/model.ts), and a name is a table heading.
 */
export const MAX_WINDOWS = 12;
export const MAX_NAME_LENGTH = 40;

// ---- The form -----------------------------------------------------------------------------------

/** One row of the editor as its inputs hold it: times as `<input type="time">` gives them, bounds as typed. */
export interface WindowRow {
  name: string;
  startTime: string;
  endTime: string;
  urgentLow: string;
  low: string;
  high: string;
}

export const BOUND_FIELDS = ["urgentLow", "low", "high"] as const;
export type BoundField = (typeof BOUND_FIELDS)[number];
export const BOUND_LABELS: Record<BoundField, string> = {
  urgentLow: "Urgent low",
  low: "Low",
  high: "High",
};

/** A stored Time as a time input shows it: minutes only when the seconds are zero. */
export function timeForInput(time: string): string {
  return time.endsWith(":00") && time.length === 8 ? time.slice(0, 5) : time;
}

/**
 * A time input's value as a service Time: "hh:mm" gains ":00"; anything else goes to the service's
 * rule unchanged, so an empty or odd value is refused with the service's own words.
 */
export function timeFromInput(value: string): string {
  const v = value.trim();
  return /^\d{2}:\d{2}$/.test(v) ? `${v}:00` : v;
}

/** A bound as typed, or null when it is not a finite number (the JSON body could not carry it). */
export function boundFromInput(text: string): number | null {
  const t = text.trim().replace(",", ".");
  if (t === "") return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** The saved windows as editor rows, bounds in `unit` rounded as the unit is read. */
export function rowsFromWindows(windows: readonly StatisticsWindow[], unit: GlucoseUnit): WindowRow[] {
  // mmol/L always with its decimal ("3.0"), as the unit is read everywhere else in the dashboard.
  const show = (mgdl: number) => {
    const v = roundForUnit(convertGlucose(mgdl, "mg/dL", unit), unit);
    return unit === "mmol/L" ? v.toFixed(1) : String(v);
  };
  return windows.map((w) => ({
    name: w.name,
    startTime: timeForInput(w.startTime),
    endTime: timeForInput(w.endTime),
    urgentLow: show(w.urgentLowMgdl),
    low: show(w.lowMgdl),
    high: show(w.highMgdl),
  }));
}

export function targetRangeV2(
  name: string,
  startTime: string,
  endTime: string,
  b: { urgentLow: number; low: number; high: number },
): TargetRangeV2 {
  return {
    name,
    startTime,
    endTime,
    egvRanges: [
      { name: "urgentLow", bound: b.urgentLow },
      { name: "low", bound: b.low },
      { name: "high", bound: b.high },
    ],
  };
}

/** Where a problem is: a row of the editor (0-based), or the list as a whole. */
export interface EditorIssue {
  row: number | null;
  /** Which input of the row, when one is to blame. */
  field?: "name" | "startTime" | "endTime" | BoundField;
  message: string;
}

export interface BuiltRequest {
  /** The v2 statistics body in the rows' unit; null when a bound is not a number. */
  body: StatisticsV2Request | null;
  /** Problems the body cannot even express (a bound that is not a number). */
  issues: EditorIssue[];
}

/** The editor's rows as the v2 request body the service would get (bounds still in the rows' unit). */
export function requestFromRows(rows: readonly WindowRow[]): BuiltRequest {
  const issues: EditorIssue[] = [];
  const targetRanges = rows.map((r, row) => {
    const bounds = {} as Record<BoundField, number>;
    for (const field of BOUND_FIELDS) {
      const n = boundFromInput(r[field]);
      if (n === null) {
        issues.push({
          row,
          field,
          message: `the ${BOUND_LABELS[field].toLowerCase()} bound must be a number`,
        });
      }
      bounds[field] = n ?? Number.NaN;
    }
    return targetRangeV2(r.name.trim(), timeFromInput(r.startTime), timeFromInput(r.endTime), bounds);
  });
  return { body: issues.length ? null : { targetRanges }, issues };
}

// ---- The service's rules ------------------------------------------------------------------------

const FIELD_OF: Record<string, EditorIssue["field"]> = {
  name: "name",
  startTime: "startTime",
  endTime: "endTime",
};

export interface RequestVerdict {
  ok: boolean;
  /** The sentence the service answers its 400 with (zodMessage of the same issues), or null. */
  message: string | null;
  issues: EditorIssue[];
}

/**
 * A statistics body judged by the service's own schema: `ok` exactly when the service would answer
 * 200, and when not, the service's message and each issue placed on its row.
 */
export function checkStatisticsRequest(version: "v1" | "v2", body: unknown): RequestVerdict {
  const schema = version === "v1" ? statisticsV1RequestSchema : statisticsV2RequestSchema;
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, message: null, issues: [] };
  const issues = parsed.error.issues.map((i): EditorIssue => {
    const [top, index, key] = i.path;
    const row = top === "targetRanges" && typeof index === "number" ? index : null;
    // Bounds problems concern the row's three bounds together, so they name no single input.
    const field = typeof key === "string" ? FIELD_OF[key] : undefined;
    return { row, ...(field ? { field } : {}), message: i.message };
  });
  return { ok: false, message: zodMessage(parsed.error.issues), issues };
}

/** The dashboard's own limits (MAX_WINDOWS, MAX_NAME_LENGTH), beyond the service's rules. */
export function checkDashboardLimits(body: { targetRanges: ReadonlyArray<{ name: string }> }): EditorIssue[] {
  const issues: EditorIssue[] = [];
  if (body.targetRanges.length > MAX_WINDOWS)
    issues.push({ row: null, message: `this dashboard keeps at most ${MAX_WINDOWS} windows` });
  body.targetRanges.forEach((r, row) => {
    if (r.name.length > MAX_NAME_LENGTH)
      issues.push({
        row,
        field: "name",
        message: `a window's name has at most ${MAX_NAME_LENGTH} characters`,
      });
  });
  return issues;
}

/** The v1 body of the same windows: v1 has one range per window, so low becomes min and high max. */
export function v1RequestOf(body: StatisticsV2Request): StatisticsV1Request {
  return {
    targetRanges: body.targetRanges.map((r) => {
      const b = v2Bounds(r.egvRanges);
      return {
        name: r.name,
        startTime: r.startTime,
        endTime: r.endTime,
        egvRange: { min: b?.low ?? Number.NaN, max: b?.high ?? Number.NaN },
      };
    }),
  };
}

export interface EditorCheck {
  /** The v2 body in the rows' unit, when every rule holds. */
  body: StatisticsV2Request | null;
  issues: EditorIssue[];
}

/**
 * Everything the editor checks before it sends anything: the bounds are numbers, the v2 body
 * passes the service's v2 schema (and its v1 body the v1 schema; it always does when the v2 one
 * passes, since low < high), and the dashboard's limits hold.
 */
export function checkRows(rows: readonly WindowRow[]): EditorCheck {
  const built = requestFromRows(rows);
  if (!built.body) {
    // The rest can still be judged: with the unreadable bounds left out of the picture.
    const placeholder = {
      targetRanges: rows.map((r) =>
        targetRangeV2(r.name.trim(), timeFromInput(r.startTime), timeFromInput(r.endTime), {
          urgentLow: 1,
          low: 2,
          high: 3,
        }),
      ),
    };
    return { body: null, issues: [...built.issues, ...checkStatisticsRequest("v2", placeholder).issues] };
  }
  const v2 = checkStatisticsRequest("v2", built.body);
  const v1 = v2.ok ? checkStatisticsRequest("v1", v1RequestOf(built.body)) : v2;
  const issues = [...v2.issues, ...(v2.ok ? v1.issues : []), ...checkDashboardLimits(built.body)];
  return { body: issues.length ? null : built.body, issues };
}

// ---- Units and storage --------------------------------------------------------------------------

/**
 * A checked body (bounds in `unit`) as the windows the dashboard stores (bounds in mg/dL). Bounds
 * typed in mmol/L are kept as the nearest whole mg/dL, the precision readings come in: unrounded,
 * the editor's default 3.0 / 3.9 / 10.0 mmol/L became 54.05 / 70.27 / 180.18 mg/dL, and the
 * service then counted every 54 mg/dL reading as urgent low and every 70 as low.
 */
export function windowsFromRequest(body: StatisticsV2Request, unit: GlucoseUnit): StatisticsWindow[] {
  const mgdl = (v: number) => (unit === "mg/dL" ? v : Math.round(convertGlucose(v, unit, "mg/dL")));
  return body.targetRanges.map((r) => {
    const b = v2Bounds(r.egvRanges)!;
    return {
      name: r.name,
      startTime: r.startTime,
      endTime: r.endTime,
      urgentLowMgdl: mgdl(b.urgentLow),
      lowMgdl: mgdl(b.low),
      highMgdl: mgdl(b.high),
    };
  });
}

/**
 * Stored windows as the v2 body the service gets, bounds in the data's unit (the unit it compares
 * in), at that unit's precision as the dashboard's own statistics request sends them
 * (`fromMgdlRounded`): 180 mg/dL is 10.0 mmol/L, not 9.99, which would count a 10.0 mmol/L reading
 * as high. Bounds so close that rounding would make two of them equal are sent exactly instead,
 * so the service's urgentLow < low < high always holds.
 */
export function requestFromWindows(
  windows: readonly StatisticsWindow[],
  dataUnit: GlucoseUnit,
): StatisticsV2Request {
  const inDataUnit = (bounds: number[]) => {
    const rounded = bounds.map((b) => fromMgdlRounded(b, dataUnit));
    const ordered = rounded.every((b, i) => i === 0 || (rounded[i - 1] as number) < b);
    return ordered ? rounded : bounds.map((b) => convertGlucose(b, "mg/dL", dataUnit));
  };
  return {
    targetRanges: windows.map((w) => {
      const [urgentLow, low, high] = inDataUnit([w.urgentLowMgdl, w.lowMgdl, w.highMgdl]) as [
        number,
        number,
        number,
      ];
      return targetRangeV2(w.name, w.startTime, w.endTime, { urgentLow, low, high });
    }),
  };
}

/**
 * The save route's body, `{ unit, targetRanges }` with bounds in `unit`: the same checks as the
 * editor's (the service's schemas, then the dashboard's limits), and the windows to store in mg/dL.
 */
export function parseSaveBody(
  raw: unknown,
): { ok: true; windows: StatisticsWindow[] } | { ok: false; message: string } {
  const unit = glucoseUnitSchema.safeParse(
    raw && typeof raw === "object" && "unit" in raw ? (raw as { unit: unknown }).unit : undefined,
  );
  if (!unit.success) return { ok: false, message: 'unit must be "mg/dL" or "mmol/L"' };
  const targetRanges =
    raw && typeof raw === "object" && "targetRanges" in raw
      ? (raw as { targetRanges: unknown }).targetRanges
      : undefined;
  const v2 = checkStatisticsRequest("v2", { targetRanges });
  if (!v2.ok) return { ok: false, message: v2.message ?? "the windows are not valid" };
  const body = statisticsV2RequestSchema.parse({ targetRanges });
  const v1 = checkStatisticsRequest("v1", v1RequestOf(body));
  if (!v1.ok) return { ok: false, message: v1.message ?? "the windows are not valid" };
  const limits = checkDashboardLimits(body);
  if (limits.length) return { ok: false, message: limits.map((i) => i.message).join("; ") };
  const windows = windowsFromRequest(body, unit.data);
  // Whole mg/dL can join two mmol/L bounds typed less than 0.06 apart (3.0 and 3.05 are both 54).
  const joined = windows.find((w) => !(w.urgentLowMgdl < w.lowMgdl && w.lowMgdl < w.highMgdl));
  if (joined)
    return {
      ok: false,
      message: `time range "${joined.name}": urgentLow, low and high must be at least 1 mg/dL (0.1 mmol/L) apart`,
    };
  return { ok: true, windows };
}

// ---- Reading windows ----------------------------------------------------------------------------

/** "06:00–22:00" (seconds only when there are some); a whole-day window reads "all day". */
export function hoursLabel(w: { startTime: string; endTime: string }): string {
  const start = parseTime(w.startTime);
  const end = parseTime(w.endTime);
  if (start !== null && end !== null && (start === end || (start === 0 && end === SECONDS_PER_DAY - 1)))
    return "all day";
  return `${timeForInput(w.startTime)}–${timeForInput(w.endTime)}`;
}
