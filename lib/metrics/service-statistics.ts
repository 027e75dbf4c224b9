import {
  type GlucoseUnit,
  type HypoglycemiaRisk,
  intervalsOf,
  MS_PER_DAY,
  MS_PER_MINUTE,
  parseDateTime,
  SECONDS_PER_DAY,
  type StatisticsV1Request,
  type StatisticsV1Response,
  type StatisticsV2Request,
  type StatisticsV2Response,
  secondsOfDay,
  type TimeOfDayWindow,
  timeOfDayWindow,
  toMgdl,
  v2Bounds,
} from "@/lib/cgm";
import { lbgi, lbgiRiskCategory } from "./risk-index";
import { summarize } from "./summary";

/**
 * The service's statistics engine (spec section 2.6), pure: the v1 and v2 statistics results from
 * exactly the EGVs that the egvs endpoint serves for the same window. One method for both of its
 * users: the sandbox answers POST /v1|v2/users/self/statistics with it, and the dashboard computes
 * the same results itself when it reads API v3, which has no statistics endpoint (and so no
 * hypoglycemia risk; service-v3-notes.md §1.1). No I/O, no clock, no "server-only": the client may
 * import `meetsHypoglycemiaRiskMinimum` and friends.
 *
 * Decisions (where the spec is silent, the choice is ours):
 * - Window: [windowStartMs, windowEndMs] on systemTime, both ends inclusive. The caller has
 *   filtered the EGVs; this module does not filter them again (except in the per-day
 *   utilization of the hypoglycemia-risk rule, which ignores readings outside the window).
 * - Values are `value` as served (spec: "Statistics use the value field"), in the user's unit;
 *   every statistic, bound and result is in that unit. The sentinels take part as served
 *   (39/401 mg/dL, or their converted mmol/L values).
 * - Time-of-day ranges apply to each EGV's displayTime clock reading (what the patient saw):
 *   startTime inclusive, endTime exclusive, wrapping past midnight (lib/cgm `timeOfDayWindow`,
 *   `inTimeOfDayWindow`). Each EGV is classified with the bounds of the range its displayTime
 *   falls in; the result aggregates all ranges into one object (counts summed over the ranges).
 *   The request must have been validated (ranges cover the day without overlap); an EGV in no
 *   range is a programming error and throws.
 * - Percentages: count / nValues × 100 over the whole window (so they equal the sum over the
 *   ranges of each range's count / nValues × 100, and the groups add up to 100); 0 when nValues
 *   is 0.
 * - v1 groups: below = value < min; within = min ≤ value ≤ max; above = value > max.
 *   v2 groups: urgentLow = value < urgentLow; below = urgentLow ≤ value < low;
 *   within = low ≤ value ≤ high; above = value > high.
 * - min, max, mean, median, variance, stdDev, sum, q1, q2 (= median), q3: lib/metrics, over all
 *   values of the window regardless of range. Variance and stdDev are population (÷ n);
 *   quartiles are type 7 (linear interpolation between closest ranks, Excel PERCENTILE.INC).
 * - No values: every numeric field 0 (counts, percentages, statistics, utilization, nDays,
 *   meanDailyCalibrations) and hypoglycemiaRisk null.
 * - utilizationPercent = nValues × 5 min / window length × 100, capped at 100: each reading stands
 *   for one 5-minute sensor interval, so the expected count is the window length in 5-minute slots
 *   (a fractional number, no +1 for the closed end). A window covered by a 5-minute grid of
 *   readings gives exactly 100 whether or not the grid hits both ends (hitting both gives one
 *   reading more than the slots, hence the cap). A window of zero length gives 100 with readings,
 *   0 without.
 * - nDays: distinct calendar dates of displayTime that have at least one EGV.
 * - meanDailyCalibrations = calibrations in the window / nDays (0 when nDays is 0).
 * - hypoglycemiaRisk: Kovatchev's LBGI of all values in mg/dL (mmol/L converted with lib/cgm
 *   `toMgdl`), categorised by `lbgiRiskCategory` (minimal ≤ 1.1 < low ≤ 2.5 < moderate ≤ 5 < high).
 *   Null unless the minimum-data rule of spec 2.6 holds (`meetsHypoglycemiaRiskMinimum`):
 *   the window is cut into consecutive 24-hour days from windowStartMs (the last may be partial,
 *   with proportionally fewer expected readings; a reading exactly at windowEndMs belongs to the
 *   last day); a day qualifies when its own utilization (readings / expected 5-minute slots × 100,
 *   uncapped) is ≥ 66; with a window shorter than 20 days (length = (end − start) / 24 h) at least
 *   12 days must qualify, otherwise at least 60% of its ⌈length⌉ days. The spec leaves the value
 *   unstated when the minimum is not met; we answer null.
 * - Floats are returned at full precision, never rounded: clients round for display.
 */

/** One EGV as served: times on the naive ms axis of lib/cgm/datetime; value in `unit`. */
export interface ServedEgv {
  systemMs: number;
  displayMs: number;
  value: number;
}

export interface StatisticsInput<Request> {
  egvs: readonly ServedEgv[];
  /** Calibration records the calibrations endpoint serves for the same window. */
  calibrationCount: number;
  unit: GlucoseUnit;
  windowStartMs: number;
  windowEndMs: number;
  request: Request;
}

/** The interval one EGV stands for. */
export const EGV_INTERVAL_MS = 5 * MS_PER_MINUTE;
/** Spec 2.6: a day counts towards the hypoglycemia-risk minimum when its utilization is ≥ 66%. */
export const QUALIFYING_DAY_UTILIZATION_PERCENT = 66;
/** Spec 2.6: windows shorter than this many days need `SHORT_WINDOW_QUALIFYING_DAYS` days. */
export const SHORT_WINDOW_DAYS = 20;
export const SHORT_WINDOW_QUALIFYING_DAYS = 12;
/** Spec 2.6: longer windows need this percentage of their days to qualify. */
export const LONG_WINDOW_QUALIFYING_PERCENT = 60;

// ---- Utilization and the hypoglycemia-risk minimum ------------------------------------------------

/** Readings as a percentage of the 5-minute slots in an interval (uncapped; see the module comment). */
function utilization(count: number, lengthMs: number): number {
  if (lengthMs <= 0) return count > 0 ? 100 : 0;
  return ((count * EGV_INTERVAL_MS) / lengthMs) * 100;
}

/** utilizationPercent of the window: readings × 5 min / window length × 100, capped at 100. */
export function utilizationPercent(nValues: number, windowStartMs: number, windowEndMs: number): number {
  return Math.min(100, utilization(nValues, windowEndMs - windowStartMs));
}

export interface WindowDay {
  startMs: number;
  /** Exclusive, except for the last day, which includes windowEndMs. */
  endMs: number;
  count: number;
  /** Readings / expected 5-minute slots of this day × 100 (uncapped). */
  utilizationPercent: number;
  /** utilizationPercent ≥ 66. */
  qualifies: boolean;
}

/**
 * The window cut into consecutive 24-hour days from windowStartMs (the last one possibly partial),
 * each with its readings (by systemTime) and utilization. Readings outside the window are ignored.
 */
export function windowDays(
  systemTimesMs: readonly number[],
  windowStartMs: number,
  windowEndMs: number,
): WindowDay[] {
  const lengthMs = windowEndMs - windowStartMs;
  if (lengthMs < 0) return [];
  const nDays = Math.max(1, Math.ceil(lengthMs / MS_PER_DAY));
  const counts = new Array<number>(nDays).fill(0);
  for (const t of systemTimesMs) {
    if (t < windowStartMs || t > windowEndMs) continue;
    const i = Math.min(nDays - 1, Math.floor((t - windowStartMs) / MS_PER_DAY));
    counts[i]!++;
  }
  return counts.map((count, i) => {
    const startMs = windowStartMs + i * MS_PER_DAY;
    const endMs = Math.min(startMs + MS_PER_DAY, windowEndMs);
    const dayLengthMs = endMs - startMs;
    // Integer comparison (count × 5 min × 100 ≥ 66 × length) so an exact 66% is not lost to rounding.
    const qualifies =
      dayLengthMs <= 0
        ? count > 0
        : count * EGV_INTERVAL_MS * 100 >= QUALIFYING_DAY_UTILIZATION_PERCENT * dayLengthMs;
    return { startMs, endMs, count, utilizationPercent: utilization(count, dayLengthMs), qualifies };
  });
}

/**
 * Spec 2.6's count rule alone: with a window shorter than 20 days, at least 12 qualifying days;
 * otherwise at least 60% of the window's ⌈length in days⌉ days.
 */
export function enoughQualifyingDays(qualifyingDays: number, windowLengthMs: number): boolean {
  const lengthDays = windowLengthMs / MS_PER_DAY;
  if (lengthDays < SHORT_WINDOW_DAYS) return qualifyingDays >= SHORT_WINDOW_QUALIFYING_DAYS;
  const days = Math.ceil(lengthDays);
  // Integer comparison: qualifying / days ≥ 60% without floating-point error.
  return qualifyingDays * 100 >= LONG_WINDOW_QUALIFYING_PERCENT * days;
}

/**
 * Whether the readings (their systemTime, ms) of a window meet spec 2.6's minimum for a
 * hypoglycemia risk: days of the window with utilization ≥ 66% counted by `windowDays`, judged by
 * `enoughQualifyingDays`.
 */
export function meetsHypoglycemiaRiskMinimum(
  systemTimesMs: readonly number[],
  windowStartMs: number,
  windowEndMs: number,
): boolean {
  const qualifying = windowDays(systemTimesMs, windowStartMs, windowEndMs).filter((d) => d.qualifies).length;
  return enoughQualifyingDays(qualifying, windowEndMs - windowStartMs);
}

/**
 * The hypoglycemia risk of a window's EGVs: Kovatchev's LBGI of all values in mg/dL, categorised by
 * `lbgiRiskCategory`, or null without readings or when `meetsHypoglycemiaRiskMinimum` does not
 * hold. The statistics' `hypoglycemiaRisk` is this, and the dashboard asks for it alone where API
 * v3 gives none.
 */
export function hypoglycemiaRiskOf(
  egvs: readonly ServedEgv[],
  unit: GlucoseUnit,
  windowStartMs: number,
  windowEndMs: number,
): HypoglycemiaRisk | null {
  return riskOfSeries(
    egvs.map((e) => e.systemMs),
    egvs.map((e) => e.value),
    unit,
    windowStartMs,
    windowEndMs,
  );
}

/**
 * `hypoglycemiaRiskOf` of EGVs the caller has already read as readings (lib/cgm `toReadings`:
 * `t` is the systemTime, `value` as served), so that a 90-day window's 26,000 DateTimes are not
 * read a second time. The same EGVs as `servedEgvsOf` gives: both leave out records whose times
 * do not read, and `toReadings` also those without a finite value, which a validated answer
 * never has.
 */
export function hypoglycemiaRiskOfReadings(
  readings: ReadonlyArray<{ t: number; value: number }>,
  unit: GlucoseUnit,
  windowStartMs: number,
  windowEndMs: number,
): HypoglycemiaRisk | null {
  return riskOfSeries(
    readings.map((r) => r.t),
    readings.map((r) => r.value),
    unit,
    windowStartMs,
    windowEndMs,
  );
}

/** The risk from the EGVs' systemTimes and values (in `unit`), index for index. */
function riskOfSeries(
  systemTimesMs: readonly number[],
  values: readonly number[],
  unit: GlucoseUnit,
  windowStartMs: number,
  windowEndMs: number,
): HypoglycemiaRisk | null {
  if (values.length === 0) return null;
  if (!meetsHypoglycemiaRiskMinimum(systemTimesMs, windowStartMs, windowEndMs)) return null;
  const index = lbgi(unit === "mg/dL" ? values : values.map((v) => toMgdl(v, unit)));
  return index === null ? null : lbgiRiskCategory(index);
}

/**
 * Records with the service's DateTimes (an EGV answer's `egvs`, whatever version it was read with)
 * as the engine reads them; a record whose times cannot be read has no place in any window and is
 * left out, as the engine's own window filter would leave it.
 */
export function servedEgvsOf(
  egvs: ReadonlyArray<{ systemTime: string; displayTime: string; value: number }>,
): ServedEgv[] {
  const served: ServedEgv[] = [];
  for (const e of egvs) {
    const systemMs = parseDateTime(e.systemTime);
    const displayMs = parseDateTime(e.displayTime);
    if (systemMs !== null && displayMs !== null) served.push({ systemMs, displayMs, value: e.value });
  }
  return served;
}

// ---- The statistics ----------------------------------------------------------------------------

type CommonStatistics = Pick<
  StatisticsV2Response,
  | "hypoglycemiaRisk"
  | "min"
  | "max"
  | "mean"
  | "median"
  | "variance"
  | "stdDev"
  | "sum"
  | "q1"
  | "q2"
  | "q3"
  | "utilizationPercent"
  | "meanDailyCalibrations"
  | "nDays"
  | "nValues"
>;

function commonStatistics(input: StatisticsInput<unknown>): CommonStatistics {
  const { egvs, unit, windowStartMs, windowEndMs } = input;
  const values = egvs.map((e) => e.value);
  const s = summarize(values);
  const nDays = new Set(egvs.map((e) => Math.floor(e.displayMs / MS_PER_DAY))).size;
  return {
    hypoglycemiaRisk: hypoglycemiaRiskOf(egvs, unit, windowStartMs, windowEndMs),
    min: s?.min ?? 0,
    max: s?.max ?? 0,
    mean: s?.mean ?? 0,
    median: s?.median ?? 0,
    variance: s?.variance ?? 0,
    stdDev: s?.standardDeviation ?? 0,
    sum: s?.sum ?? 0,
    q1: s?.q1 ?? 0,
    q2: s?.median ?? 0,
    q3: s?.q3 ?? 0,
    utilizationPercent: s === null ? 0 : utilizationPercent(s.n, windowStartMs, windowEndMs),
    meanDailyCalibrations: nDays === 0 ? 0 : input.calibrationCount / nDays,
    nDays,
    nValues: values.length,
  };
}

/**
 * Counts per group: each EGV is put in a group by the classifier of the time-of-day range its
 * displayTime falls in.
 */
function groupCounts<G extends string>(
  egvs: readonly ServedEgv[],
  ranges: ReadonlyArray<{ name: string; window: TimeOfDayWindow; classify: (value: number) => G }>,
  groups: readonly G[],
): Record<G, number> {
  const counts = Object.fromEntries(groups.map((g) => [g, 0])) as Record<G, number>;
  // Which range each second of the day belongs to, looked up once per reading instead of testing
  // every range (a 90-day window has 26,000 readings).
  const rangeAt = new Int16Array(SECONDS_PER_DAY).fill(-1);
  ranges.forEach((r, i) => {
    for (const [a, b] of intervalsOf(r.window)) rangeAt.fill(i, a, b);
  });
  for (const e of egvs) {
    const second = secondsOfDay(e.displayMs);
    const range = ranges[rangeAt[second] ?? -1];
    if (!range) {
      throw new Error(
        `statistics: no time range covers displayTime second ${second}; the request was not validated`,
      );
    }
    counts[range.classify(e.value)]++;
  }
  return counts;
}

function percent(count: number, n: number): number {
  return n === 0 ? 0 : (count / n) * 100;
}

const V1_GROUPS = ["below", "within", "above"] as const;
type V1Group = (typeof V1_GROUPS)[number];

/** POST /v1/users/self/statistics: the common fields and three groups per `egvRange` [min, max]. */
export function computeStatisticsV1(input: StatisticsInput<StatisticsV1Request>): StatisticsV1Response {
  const ranges = input.request.targetRanges.map((r) => ({
    name: r.name,
    window: timeOfDayWindow(r.startTime, r.endTime),
    classify: (v: number): V1Group =>
      v < r.egvRange.min ? "below" : v <= r.egvRange.max ? "within" : "above",
  }));
  const counts = groupCounts(input.egvs, ranges, V1_GROUPS);
  const n = input.egvs.length;
  return {
    ...commonStatistics(input),
    nBelowRange: counts.below,
    nWithinRange: counts.within,
    nAboveRange: counts.above,
    percentBelowRange: percent(counts.below, n),
    percentWithinRange: percent(counts.within, n),
    percentAboveRange: percent(counts.above, n),
  };
}

const V2_GROUPS = ["urgentLow", "below", "within", "above"] as const;
type V2Group = (typeof V2_GROUPS)[number];

/** POST /v2/users/self/statistics: the common fields and four groups per urgentLow/low/high. */
export function computeStatisticsV2(input: StatisticsInput<StatisticsV2Request>): StatisticsV2Response {
  const ranges = input.request.targetRanges.map((r) => {
    const b = v2Bounds(r.egvRanges);
    if (!b) throw new Error(`statistics: range "${r.name}" lacks a bound; the request was not validated`);
    return {
      name: r.name,
      window: timeOfDayWindow(r.startTime, r.endTime),
      classify: (v: number): V2Group =>
        v < b.urgentLow ? "urgentLow" : v < b.low ? "below" : v <= b.high ? "within" : "above",
    };
  });
  const counts = groupCounts(input.egvs, ranges, V2_GROUPS);
  const n = input.egvs.length;
  return {
    ...commonStatistics(input),
    nUrgentLow: counts.urgentLow,
    nBelowRange: counts.below,
    nWithinRange: counts.within,
    nAboveRange: counts.above,
    percentUrgentLow: percent(counts.urgentLow, n),
    percentBelowRange: percent(counts.below, n),
    percentWithinRange: percent(counts.within, n),
    percentAboveRange: percent(counts.above, n),
  };
}
