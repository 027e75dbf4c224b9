import { formatTime, SECONDS_PER_DAY, secondsOfDay } from "@/lib/cgm/datetime";
import {
  inTimeOfDayWindow,
  intervalsOf,
  type StatisticsV1Request,
  type StatisticsV1Response,
  type StatisticsV2Request,
  type StatisticsV2Response,
  timeOfDayWindow,
  v2Bounds,
} from "@/lib/cgm/schemas";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { READING_INTERVAL_MINUTES } from "@/lib/metrics/sensor";
import { summarize } from "@/lib/metrics/summary";
import type { ReportPeriod } from "../period/period";
import { type TargetRangeV2, targetRangeV2, v1RequestOf } from "./windows";

/**
 * Statistics by time of day from the service, per window, honestly.
 *
 * What the service computes (spec 2.6 and section 4; lib/metrics/service-statistics.ts): ONE answer for the
 * request's time ranges taken together. Its min … q3, utilizationPercent, nDays, nValues and
 * hypoglycemiaRisk are of every reading of the startDate–endDate window, whatever its time of day;
 * only the range groups depend on the time ranges, each reading counted with the bounds of the
 * range its displayTime falls in. And the ranges must cover the day without overlap (rule 1), so a
 * window cannot be asked about alone.
 *
 * So, per window, the service can say how that window's readings fall in its groups, and nothing
 * more. We ask it with the window and a "rest of the day" filler whose bounds put every filler
 * reading in one known group (bounds far below any glucose: all "above"; far above: all "urgent
 * low", or "below" in v1); every other group's count is then the window's own. Two such requests,
 * filling opposite groups, give all of the window's counts, and their sum is its number of
 * readings. A window that covers the whole day needs one request and no filler.
 *
 * The patient's windows asked together (one more request) give the service's own answer for all of
 * them: its mean, median, SD, sensor use and hypoglycemia risk, which it computes only for the
 * whole period. The window's mean, median, SD and sensor use are computed by the dashboard from the
 * same readings (lib/metrics), and the page says so; there is no per-window hypoglycemia risk,
 * because the service gives none.
 */

export type StatisticsVersion = "v1" | "v2";
export const STATISTICS_VERSIONS = ["v2", "v1"] as const;
export type StatisticsRequestOf<V extends StatisticsVersion> = V extends "v1"
  ? StatisticsV1Request
  : StatisticsV2Request;
export type StatisticsResponseOf<V extends StatisticsVersion> = V extends "v1"
  ? StatisticsV1Response
  : StatisticsV2Response;
type AnyResponse = StatisticsV1Response | StatisticsV2Response;

export const FILLER_NAME = "Rest of the day";
/** Further from any glucose value than the measuring range (39–401 mg/dL, 2.2–22.3 mmol/L) can reach. */
export const FILLER_FAR = 1_000_000;

/** The service's range groups, per version: v1 has no urgent-low group (null). */
export interface GroupCounts {
  urgentLow: number | null;
  below: number;
  within: number;
  above: number;
}

/** Whether a window covers all 24 hours by itself (start = end, or 00:00:00–23:59:59). */
export function isWholeDay(r: { startTime: string; endTime: string }): boolean {
  const pieces = intervalsOf(timeOfDayWindow(r.startTime, r.endTime));
  return pieces.length === 1 && pieces[0]![0] === 0 && pieces[0]![1] === SECONDS_PER_DAY;
}

/**
 * The time of day a window leaves uncovered, as a range that fills it exactly: from the window's end
 * to its start. An end of 23:59:59 means midnight (lib/cgm timeOfDayWindow), so the filler starts at
 * 00:00:00 there. (A valid set never has a window starting at 23:59:59 other than a whole-day one:
 * the second before it could not be covered, as no Time ends there.)
 */
export function restOfDay(r: { startTime: string; endTime: string }): { startTime: string; endTime: string } {
  const w = timeOfDayWindow(r.startTime, r.endTime);
  return { startTime: formatTime(w.endSecond % SECONDS_PER_DAY), endTime: r.startTime };
}

type Fill = "low" | "high";

function fillerV2(r: TargetRangeV2, fill: Fill): TargetRangeV2 {
  const { startTime, endTime } = restOfDay(r);
  // "high": bounds far above every value, so each filler reading is below urgentLow ("urgent low").
  // "low": bounds far below every value, so each filler reading is above high ("above").
  const base = fill === "high" ? FILLER_FAR : -FILLER_FAR - 2;
  return targetRangeV2(FILLER_NAME, startTime, endTime, { urgentLow: base, low: base + 1, high: base + 2 });
}

function fillerV1(r: StatisticsV1Request["targetRanges"][number], fill: Fill) {
  const { startTime, endTime } = restOfDay(r);
  const bound = fill === "high" ? FILLER_FAR : -FILLER_FAR;
  return { name: FILLER_NAME, startTime, endTime, egvRange: { min: bound, max: bound } };
}

/** The requests that isolate window `i` of a valid v2 body: [window, filler] twice, or just the window. */
export function isolationRequests<V extends StatisticsVersion>(
  version: V,
  body: StatisticsV2Request,
  i: number,
): Array<StatisticsRequestOf<V>> {
  const range = body.targetRanges[i];
  if (!range) throw new Error(`statistics: no window ${i}`);
  if (version === "v2") {
    if (isWholeDay(range)) return [{ targetRanges: [range] }] as Array<StatisticsRequestOf<V>>;
    return (["low", "high"] as const).map((fill) => ({
      targetRanges: [range, fillerV2(range, fill)],
    })) as Array<StatisticsRequestOf<V>>;
  }
  const v1 = v1RequestOf({ targetRanges: [range] }).targetRanges[0]!;
  if (isWholeDay(range)) return [{ targetRanges: [v1] }] as Array<StatisticsRequestOf<V>>;
  return (["low", "high"] as const).map((fill) => ({ targetRanges: [v1, fillerV1(v1, fill)] })) as Array<
    StatisticsRequestOf<V>
  >;
}

/** The patient's windows asked together, as the service takes them in `version`. */
export function togetherRequest<V extends StatisticsVersion>(version: V, body: StatisticsV2Request) {
  return (version === "v1" ? v1RequestOf(body) : body) as StatisticsRequestOf<V>;
}

export function countsOf(r: AnyResponse): GroupCounts {
  return {
    urgentLow: "nUrgentLow" in r ? r.nUrgentLow : null,
    below: r.nBelowRange,
    within: r.nWithinRange,
    above: r.nAboveRange,
  };
}

/**
 * A window's own counts from the answers to its isolationRequests: in the first answer the filler's
 * readings are all "above", in the second all "urgent low" (v2) or "below" (v1).
 */
export function windowCounts(answers: readonly AnyResponse[]): GroupCounts {
  const [fillAbove, fillLow] = answers;
  if (!fillAbove) throw new Error("statistics: no answer to isolate a window with");
  if (!fillLow) return countsOf(fillAbove);
  const a = countsOf(fillAbove);
  const b = countsOf(fillLow);
  // v2: the second answer's urgent-low group holds the filler; v1: its below group does.
  return b.urgentLow === null
    ? { urgentLow: null, below: a.below, within: a.within, above: b.above }
    : { urgentLow: a.urgentLow, below: a.below, within: a.within, above: b.above };
}

export function totalOf(c: GroupCounts): number {
  return (c.urgentLow ?? 0) + c.below + c.within + c.above;
}

/** The service's own percentages of an answer's groups (null without readings: its zeros mean nothing). */
export function servicePercentsOf(r: AnyResponse): GroupCounts | null {
  if (r.nValues === 0) return null;
  return {
    urgentLow: "percentUrgentLow" in r ? r.percentUrgentLow : null,
    below: r.percentBelowRange,
    within: r.percentWithinRange,
    above: r.percentAboveRange,
  };
}

/** Each group as a percentage of the window's readings (null without readings: nothing to divide). */
export function percentsOf(c: GroupCounts): GroupCounts | null {
  const n = totalOf(c);
  if (n === 0) return null;
  const p = (x: number) => (x / n) * 100;
  return {
    urgentLow: c.urgentLow === null ? null : p(c.urgentLow),
    below: p(c.below),
    within: p(c.within),
    above: p(c.above),
  };
}

// ---- The dashboard's part: descriptive statistics of a window's readings --------------------------

export interface WindowReading {
  /** displayTime on the naive ms axis (lib/cgm/datetime): the clock the windows are read on. */
  displayMs: number;
  mgdl: number;
}

export interface WindowSummary {
  nValues: number;
  meanMgdl: number;
  medianMgdl: number;
  sdMgdl: number;
  /** Readings × 5 min over the window's share of the period, capped at 100. */
  sensorUsePercent: number;
}

/** The share of a day a window covers (1 for a whole-day window). */
export function dayShare(r: { startTime: string; endTime: string }): number {
  const seconds = intervalsOf(timeOfDayWindow(r.startTime, r.endTime)).reduce((s, [a, b]) => s + b - a, 0);
  return seconds / SECONDS_PER_DAY;
}

/**
 * The window's readings (by displayTime, as the service places them) summarized with lib/metrics;
 * null without readings. Sensor use counts each reading as its 5 minutes against the window's hours
 * over the period (its share of the day × the period's length), like the service's utilization.
 */
export function summarizeWindow(
  readings: readonly WindowReading[],
  r: { startTime: string; endTime: string },
  periodMs: number,
): WindowSummary | null {
  const w = timeOfDayWindow(r.startTime, r.endTime);
  const values = readings.filter((x) => inTimeOfDayWindow(w, secondsOfDay(x.displayMs))).map((x) => x.mgdl);
  const s = summarize(values);
  if (!s) return null;
  const expectedMs = periodMs * dayShare(r);
  const used = expectedMs <= 0 ? 100 : ((s.n * READING_INTERVAL_MINUTES * 60_000) / expectedMs) * 100;
  return {
    nValues: s.n,
    meanMgdl: s.mean,
    medianMgdl: s.median,
    sdMgdl: s.standardDeviation,
    sensorUsePercent: Math.min(100, used),
  };
}

// ---- The results ---------------------------------------------------------------------------------

export interface WindowResult {
  name: string;
  startTime: string;
  endTime: string;
  /** The bounds the service was asked with, in the data's unit (v1: min = low, max = high). */
  bounds: { urgentLow: number; low: number; high: number };
  /** The service's counts of this window's readings, and their percentages. */
  counts: GroupCounts;
  percents: GroupCounts | null;
  /** The dashboard's summary of the same readings (mg/dL). */
  summary: WindowSummary | null;
}

export interface StatisticsByWindow<V extends StatisticsVersion = StatisticsVersion> {
  version: V;
  /**
   * Who answered the requests: the service (API v2), or this dashboard with the service's own
   * method (lib/metrics/service-statistics.ts) from the same readings, with API v3, which has no
   * statistics endpoint.
   */
  computedBy: "service" | "dashboard";
  windows: WindowResult[];
  /** The service's answer for all windows together. */
  together: StatisticsResponseOf<V>;
}

export interface StatisticsPlan<V extends StatisticsVersion> {
  together: StatisticsRequestOf<V>;
  perWindow: Array<Array<StatisticsRequestOf<V>>>;
}

/** Every request the results need, for a valid v2 body with bounds in the data's unit. */
export function planStatistics<V extends StatisticsVersion>(
  version: V,
  body: StatisticsV2Request,
): StatisticsPlan<V> {
  return {
    together: togetherRequest(version, body),
    perWindow: body.targetRanges.map((_, i) => isolationRequests(version, body, i)),
  };
}

export function assembleResults<V extends StatisticsVersion>(
  version: V,
  body: StatisticsV2Request,
  answers: { together: StatisticsResponseOf<V>; perWindow: Array<ReadonlyArray<StatisticsResponseOf<V>>> },
  readings: readonly WindowReading[],
  periodMs: number,
  computedBy: StatisticsByWindow["computedBy"] = "service",
): StatisticsByWindow<V> {
  return {
    version,
    computedBy,
    together: answers.together,
    windows: body.targetRanges.map((r, i) => {
      const counts = windowCounts(answers.perWindow[i] ?? []);
      return {
        name: r.name,
        startTime: r.startTime,
        endTime: r.endTime,
        bounds: v2Bounds(r.egvRanges)!,
        counts,
        percents: percentsOf(counts),
        summary: summarizeWindow(readings, r, periodMs),
      };
    }),
  };
}

export interface LoadedStatisticsByWindow<V extends StatisticsVersion> {
  dataUnit: GlucoseUnit;
  /** The newest reading's displayTime in the period (null: none). */
  latestDisplayTime: string | null;
  results: StatisticsByWindow<V>;
}

/** The statistics page's data (declared here, apart from the server's loader, so its components can name it). */
export interface StatisticsPage extends LoadedStatisticsByWindow<StatisticsVersion> {
  period: ReportPeriod;
}
