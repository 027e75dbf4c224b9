import { parseDateTime } from "@/lib/cgm/datetime";
import { formatGlucoseNumber, glucoseText, mgdlRangeText, mgdlText } from "@/lib/cgm/glucose-text";
import { convertGlucose, type GlucoseUnit } from "@/lib/cgm/units";
import { EARLIEST_MS } from "@/lib/cgm/window-bounds";
import { TIGHT_RANGE_MAX_MGDL, TIGHT_RANGE_MIN_MGDL } from "@/lib/metrics/constants";
import { griZone } from "@/lib/metrics/gri";
import {
  addDays,
  checkPatientDays,
  dayOf,
  dayStartMs,
  type PatientDays,
  previousPatientDays,
} from "../period/patient-days";
import { parsePeriodRequest, previousPeriod, REPORT_MAX_DAYS, type ReportPeriod } from "../period/period";
import { periodDayCount } from "../period/period-days";
import type { PeriodSummary } from "../summary/summary-model";
import {
  ATTRIBUTION_MIN_CHANGE_POINTS,
  BAND_BETTER,
  bandIncludes,
  bandLabel,
  bandShare,
  type ComparedBand,
  type Comparison,
  roundTenth,
  signedPoints,
} from "./comparison";

/**
 * What the comparison page and its API read from a query, and the page's table as text: each
 * metric of both periods in the display unit, and its change in words.
 */

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `days`, or the recent period as startDate/endDate. Two plain dates (what the date fields send)
 * are the patient's days on the receiver's clock, both included (lib/reports/period/patient-days.ts);
 * DateTimes are the service's systemTime, as given. An empty field counts as absent.
 */
export function parseComparisonRequest(
  get: (name: string) => string | null | undefined,
): ReturnType<typeof parsePeriodRequest> {
  const value = (name: string) => {
    const v = get(name);
    return v === "" || v === null || v === undefined ? undefined : v;
  };
  const startDate = value("startDate");
  const endDate = value("endDate");
  if (
    (startDate !== undefined && DATE_ONLY.test(startDate)) ||
    (endDate !== undefined && DATE_ONLY.test(endDate))
  ) {
    const checked = checkPatientDays(startDate, endDate, REPORT_MAX_DAYS);
    if (!checked.ok) return { ok: false, message: checked.message };
    const problem = earlierDaysProblem(checked.days);
    return problem
      ? { ok: false, message: problem }
      : { ok: true, value: { kind: "patientDays", patientDays: checked.days } };
  }
  const request = parsePeriodRequest(value);
  const problem = request.ok && request.value.kind === "dates" && earlierPeriodProblem(request.value.period);
  return problem ? { ok: false, message: problem } : request;
}

const earlierProblem = (recentStart: string, earlierStart: string) =>
  `the period before ${recentStart}, which this period is compared with, would start on ${earlierStart}, before ${dayOf(EARLIEST_MS)}; choose a later period`;

/**
 * Why the period compared with `recent` (the same length just before it) cannot be read, in
 * words; null when it can. Both dates of `recent` may be allowed while the period before it
 * starts before the earliest date any request may read (lib/cgm/window-bounds.ts).
 */
export function earlierPeriodProblem(recent: ReportPeriod): string | null {
  if (recent.patientDays) return earlierDaysProblem(recent.patientDays);
  const earlier = previousPeriod(recent);
  if (earlier.startMs >= EARLIEST_MS) return null;
  return earlierProblem(dayOf(recent.startMs), dayOf(earlier.startMs));
}

/** The same for days on the receiver's clock: the days before must not start before the earliest day. */
export function earlierDaysProblem(recent: PatientDays): string | null {
  const earlier = previousPatientDays(recent);
  if ((dayStartMs(earlier.firstDay) ?? 0) >= EARLIEST_MS) return null;
  return earlierProblem(recent.firstDay, earlier.firstDay);
}

/** A period's length in whole days, as the page names it ("14 days"; a date range ending 23:59:59 too). */
export const periodDays = periodDayCount;

/**
 * The custom-period form's dates for a recent period: its own days on the receiver's clock; for a
 * systemTime window, whole days ending on its end's day, as many as the period is long, so that
 * sending the form unchanged asks for the same length again.
 */
export function formDates(recent: Pick<ReportPeriod, "startDate" | "endDate" | "patientDays">): {
  start: string;
  end: string;
} {
  if (recent.patientDays) return { start: recent.patientDays.firstDay, end: recent.patientDays.lastDay };
  const startMs = parseDateTime(recent.startDate) ?? 0;
  const endMs = parseDateTime(recent.endDate) ?? 0;
  const end = dayOf(endMs);
  return { start: addDays(end, -(periodDays({ startMs, endMs }) - 1)), end };
}

// ---------------------------------------------------------------------------------------------
// The table

export type Direction = "up" | "down" | "same";
export type Judgement = "better" | "worse" | null;

export interface ChangeText {
  direction: Direction;
  /** The size of the change with its unit, unsigned ("6.2 points", "12 mg/dL"); "" when the same. */
  amount: string;
  /** Better or worse where the consensus makes that unambiguous, else null. */
  judgement: Judgement;
}

export interface ComparisonRow {
  key: string;
  label: string;
  /** A qualifier shown under the label ("below 54 mg/dL included"). */
  note: string | null;
  /** null: the period has no readings, so no value. */
  earlier: string | null;
  recent: string | null;
  change: ChangeText | null;
}

interface RowSpec {
  key: string;
  label: string;
  note?: string;
  value: (s: PeriodSummary) => number | null;
  /** The value as shown. */
  show: (v: number) => string;
  /** A change's size, unsigned, as shown (its rounding decides "the same"). */
  amount: (d: number) => { rounded: number; text: string };
  better?: "up" | "down";
  /** The smallest change (as shown) that is judged; smaller ones are too small to call. */
  judgeFrom?: number;
}

/**
 * Judged only from a visible size: a whole percentage point for the shares and CV (the threshold
 * the attribution uses), one unit for GRI (a weighted sum of shares, on the same 0–100 scale), and
 * half a unit for LBGI and HBGI, whose risk categories are 1.1 to 2.5 units wide.
 */
const JUDGE_FROM = { points: ATTRIBUTION_MIN_CHANGE_POINTS, gri: 1, bgi: 0.5 } as const;

const oneDecimal = (d: number) => {
  const rounded = roundTenth(Math.abs(d));
  return { rounded, text: rounded.toFixed(1) };
};
const percent = (v: number) => `${v.toFixed(1)}%`;
const points = (d: number) => {
  const { rounded, text } = oneDecimal(d);
  return { rounded, text: `${text} ${rounded === 1 ? "point" : "points"}` };
};

function glucose(unit: GlucoseUnit) {
  const inUnit = (mgdl: number) => convertGlucose(mgdl, "mg/dL", unit);
  return {
    // A mean is no reading, but one below 40 or above 400 mg/dL is as unknown as LOW and HIGH.
    mean: (mgdl: number) => glucoseText(inUnit(mgdl), unit),
    spread: (mgdl: number) => mgdlText(mgdl, unit),
    amount: (mgdlDiff: number) => {
      const text = formatGlucoseNumber(Math.abs(inUnit(mgdlDiff)), unit);
      return { rounded: Number(text), text: `${text} ${unit}` };
    },
  };
}

function rowSpecs(unit: GlucoseUnit): RowSpec[] {
  const g = glucose(unit);
  const band = (key: ComparedBand): RowSpec => ({
    key,
    label: bandLabel(key, unit),
    note: bandIncludes(key, unit) ?? undefined,
    value: (s) => bandShare(s.timeInRanges, key),
    show: percent,
    amount: points,
    better: BAND_BETTER[key],
    judgeFrom: JUDGE_FROM.points,
  });
  const plain = (d: number) => oneDecimal(d);
  return [
    band("inRange"),
    // Issue 14: time in tight range (2023 consensus); more is better, as for time in range.
    {
      key: "timeInTightRange",
      label: `Time in tight range (${mgdlRangeText(TIGHT_RANGE_MIN_MGDL, TIGHT_RANGE_MAX_MGDL, unit)})`,
      value: (s) => s.timeInTightRange,
      show: percent,
      amount: points,
      better: "up",
      judgeFrom: JUDGE_FROM.points,
    },
    band("belowRange"),
    band("veryLow"),
    band("aboveRange"),
    band("veryHigh"),
    { key: "mean", label: "Mean glucose", value: (s) => s.mean, show: g.mean, amount: g.amount },
    { key: "sd", label: "Standard deviation", value: (s) => s.sd, show: g.spread, amount: g.amount },
    {
      key: "cv",
      label: "Coefficient of variation",
      value: (s) => s.cv,
      show: percent,
      amount: points,
      better: "down",
      judgeFrom: JUDGE_FROM.points,
    },
    { key: "gmi", label: "GMI (estimated A1C)", value: (s) => s.gmi, show: percent, amount: points },
    {
      key: "gri",
      label: "Glycemia Risk Index (GRI)",
      value: (s) => s.gri,
      // The zone beside the number, as the AGP report writes it: the zone is what the grid shows.
      show: (v) => `${v.toFixed(1)} · zone ${griZone(v)}`,
      amount: plain,
      better: "down",
      judgeFrom: JUDGE_FROM.gri,
    },
    {
      key: "lbgi",
      label: "Low blood glucose index (LBGI)",
      value: (s) => s.lbgi,
      show: (v) => v.toFixed(1),
      amount: plain,
      better: "down",
      judgeFrom: JUDGE_FROM.bgi,
    },
    {
      key: "hbgi",
      label: "High blood glucose index (HBGI)",
      value: (s) => s.hbgi,
      show: (v) => v.toFixed(1),
      amount: plain,
      better: "down",
      judgeFrom: JUDGE_FROM.bgi,
    },
    {
      key: "sensorActivePercent",
      label: "Sensor active time",
      value: (s) => s.sensorActivePercent,
      show: percent,
      amount: points,
    },
    {
      key: "nValues",
      label: "Readings",
      value: (s) => s.nValues,
      show: (v) => v.toLocaleString("en"),
      amount: (d) => ({ rounded: Math.abs(d), text: Math.abs(d).toLocaleString("en") }),
    },
  ];
}

/**
 * Every row of the table. Better and worse are said only where the consensus makes them
 * unambiguous: more time in range, less time below or above it, a lower CV and lower risk
 * indices; and only for changes large enough to call (JUDGE_FROM). Mean, SD and GMI are not judged (a lower mean can come with more lows), nor are sensor
 * time and the number of readings, which describe the data rather than the glucose.
 */
export function comparisonRows(
  c: Pick<Comparison, "earlier" | "recent">,
  unit: GlucoseUnit,
): ComparisonRow[] {
  return rowSpecs(unit).map((spec) => {
    const a = spec.value(c.earlier);
    const b = spec.value(c.recent);
    let change: ChangeText | null = null;
    if (a !== null && b !== null) {
      const { rounded, text } = spec.amount(b - a);
      const direction: Direction = rounded === 0 ? "same" : b > a ? "up" : "down";
      change = {
        direction,
        amount: direction === "same" ? "" : text,
        judgement:
          direction === "same" || spec.better === undefined || rounded < (spec.judgeFrom ?? 0)
            ? null
            : direction === spec.better
              ? "better"
              : "worse",
      };
    }
    return {
      key: spec.key,
      label: spec.label,
      note: spec.note ?? null,
      earlier: a === null ? null : spec.show(a),
      recent: b === null ? null : spec.show(b),
      change,
    };
  });
}

/** The change in words, for the table's cell and screen readers: "up 6.2 points, better". */
export function changeWords(change: ChangeText): string {
  if (change.direction === "same") return "no change";
  return `${change.direction} ${change.amount}${change.judgement ? `, ${change.judgement}` : ""}`;
}

/** The consensus's minimum of sensor data before metrics are trusted (percent of the period). */
export const SENSOR_ACTIVE_MIN_PERCENT = 70;

/**
 * The periods whose sensor active time is below the consensus's 70 %. A period without readings is
 * left out: the page says that it is empty, which says more.
 */
export function sensorShortfalls(c: Pick<Comparison, "earlier" | "recent">): Array<{
  which: "earlier" | "recent";
  percent: number;
}> {
  return (["earlier", "recent"] as const).flatMap((which) => {
    const p = c[which].sensorActivePercent;
    return c[which].nValues > 0 && p !== null && p < SENSOR_ACTIVE_MIN_PERCENT ? [{ which, percent: p }] : [];
  });
}

// ---------------------------------------------------------------------------------------------
// Time in range by time of day

export interface BlockRow {
  /** "00:00–03:00" */
  label: string;
  /** Time in range within the block, percent (null: no readings there), and as text. */
  earlierInRange: number | null;
  recentInRange: number | null;
  earlierText: string | null;
  recentText: string | null;
  /** The block's part of each period's readings. */
  earlierWeight: string | null;
  recentWeight: string | null;
  /** The block's contribution to the change of time in range, signed points; null without both periods. */
  contribution: string | null;
}

export function blockRows(blocks: Comparison["blocks"]): BlockRow[] {
  return blocks.map((b) => {
    const earlier = b.earlier.shares.inRange;
    const recent = b.recent.shares.inRange;
    const c = b.contributions.inRange;
    return {
      label: `${b.start}–${b.end}`,
      earlierInRange: earlier,
      recentInRange: recent,
      earlierText: earlier === null ? null : percent(earlier),
      recentText: recent === null ? null : percent(recent),
      earlierWeight: b.earlier.weight === null ? null : percent(b.earlier.weight),
      recentWeight: b.recent.weight === null ? null : percent(b.recent.weight),
      contribution: c === null ? null : signedPoints(c),
    };
  });
}
