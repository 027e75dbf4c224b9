import { MS_PER_DAY, MS_PER_MINUTE } from "@/lib/cgm/datetime";
import {
  EPISODE_END_DURATION_MINUTES,
  EPISODE_MAX_INTERPOLATED_GAP_MINUTES,
  EPISODE_MIN_DURATION_MINUTES,
  EXTENDED_HYPO_MINUTES,
  HIGH_MAX_MGDL,
  IN_RANGE_MAX_MGDL,
  LOW_BELOW_MGDL,
  MINUTES_PER_DAY,
  NIGHT_END_MINUTE,
  NIGHT_START_MINUTE,
  VERY_LOW_BELOW_MGDL,
} from "./constants";
import { mean } from "./descriptive";
import { quantile } from "./quantiles";

/**
 * CGM-defined episodes of the 2023 international consensus (Battelino T et al., Lancet Diabetes
 * Endocrinol 2023;11:42–57), computed as its research reference implementation does: the R package
 * iglu 4.3, `episode_calculation` with its defaults (R/episode_calculation.R, the grid of
 * `CGMS2DayByDay` in R/utils.R), as written out in the project's spec episodes-algorithm.md and
 * checked against iglu 4.3.0's source (event_class, episode_summary, episode_single, CGMS2DayByDay).
 * iglu is followed even where it departs from the consensus's wording (the spec's section 3), so
 * that the numbers can be checked against published research: "15 minutes" is 3 grid points of 5
 * minutes (a 10-minute span), durations are points × 5 minutes, short gaps are interpolated, the
 * day-1 00:00 reading is not a grid point, and an episode cut by a long gap counts on both sides.
 *
 * Times are the patient's clock (displayTime) read on the naive UTC axis, as iglu reads them, so
 * "00:00" below is midnight on the patient's clock and the functions need no time zone.
 *
 * Where the spec leaves a choice, the choice is said where it is made: what iglu does when it stops
 * (`gridStepMinutes`, `cgmEpisodes`), the per-day rate without valid time (`summarizeEpisodes`) and
 * night (`startsAtNight`, `nightHypoglycaemia`). Means are sums in double divided by n, where R's
 * mean() accumulates in long double: the two can differ in the last bits of a mean glucose, never
 * in a count or a duration (no mean is compared with a threshold). The median spacing is type 7
 * (a + (b − a)·0.5 for an even count, R's (a + b)/2): equal for whole-minute spacings, at most
 * a last-bit apart otherwise.
 */

/** One reading: its displayTime on the naive UTC axis (ms; `Reading.displayMs`) and its mg/dL. */
export interface ClockGlucose {
  displayMs: number;
  mgdl: number;
}

// ── 2.1 clean-up and the grid step ──────────────────────────────────────────────────────────────

/**
 * Readings with a time and a value, in time order; of readings with the same time only the last
 * (in input order) is kept, as iglu does (no averaging).
 */
export function cleanReadings(readings: readonly ClockGlucose[]): ClockGlucose[] {
  const valid = readings.filter((r) => Number.isFinite(r.displayMs) && Number.isFinite(r.mgdl));
  // Array.prototype.sort is stable, like R's order(), so "last in input order" survives the sort.
  // Readings mostly come in time order already, which a sort would leave as it is: a 90-day
  // window's 26,000 are then only checked, and only filtered when two share a time.
  const sorted = inTimeOrder(valid) ? valid : valid.sort((a, b) => a.displayMs - b.displayMs);
  if (!hasRepeatedTime(sorted)) return sorted;
  return sorted.filter((r, i) => i === sorted.length - 1 || sorted[i + 1]!.displayMs !== r.displayMs);
}

function inTimeOrder(readings: readonly ClockGlucose[]): boolean {
  for (let i = 1; i < readings.length; i++) {
    if (readings[i]!.displayMs < readings[i - 1]!.displayMs) return false;
  }
  return true;
}

/** Whether time-ordered readings hold two with the same time. */
function hasRepeatedTime(sorted: readonly ClockGlucose[]): boolean {
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.displayMs === sorted[i - 1]!.displayMs) return true;
  }
  return false;
}

/** R's round(): halves go to the even neighbour (IEC 60559), so 2.5 → 2 and 3.5 → 4. */
export function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * The grid step dt0 in minutes from time-ordered, distinct times (ms): the median spacing, rounded
 * half-to-even; if 1440 is not a multiple of it, 20 above 20 and otherwise the nearest multiple of
 * 5. Null where iglu stops instead: fewer than two times (no spacing to take a median of), a
 * median spacing over 45 minutes (iglu's error), or one that rounds to 0 (iglu fails on 1440 %% 0).
 */
export function gridStepMinutes(sortedTimesMs: readonly number[]): number | null {
  // The spacings in a typed array, sorted in place for their median (quantiles.ts sorts a copy
  // the same way, numerically): no array of 26,000 numbers built, copied and copied back.
  const minute = MS_PER_MINUTE;
  const diffs = new Float64Array(Math.max(0, sortedTimesMs.length - 1));
  for (let i = 1; i < sortedTimesMs.length; i++) {
    diffs[i - 1] = (sortedTimesMs[i]! - sortedTimesMs[i - 1]!) / minute;
  }
  const m = quantile(diffs.sort(), 0.5);
  if (m === null) return null;
  const dt0 = roundHalfEven(m);
  if (dt0 <= 0 || dt0 > EPISODE_MAX_INTERPOLATED_GAP_MINUTES) return null;
  if (MINUTES_PER_DAY % dt0 === 0) return dt0;
  if (dt0 > 20) return 20;
  const r = dt0 % 5;
  return r <= 2 ? dt0 - r : dt0 + 5 - r;
}

// ── 2.2 grid and interpolation ──────────────────────────────────────────────────────────────────

export interface Grid {
  /** Minutes between grid points. */
  stepMinutes: number;
  /** Grid times (naive UTC ms): D0 + k·step for k = 1 … ndays·1440/step. */
  times: number[];
  /** The value at each time; null where missing (outside the readings, or inside a long gap). */
  values: Array<number | null>;
}

/**
 * The grid of `CGMS2DayByDay` over cleaned readings (at least one): from 00:00 of the first
 * reading's day, k starting at 1 (so that 00:00 itself is never a grid point), over
 * ceil(span in days + 1) days; each point the linear interpolation of the readings around it
 * (`stats::approx`, rule = 1), missing outside the readings and strictly inside any interval
 * longer than 45 minutes between consecutive readings.
 */
export function interpolatedGrid(readings: readonly ClockGlucose[], stepMinutes: number): Grid {
  const first = readings[0]!.displayMs;
  const last = readings[readings.length - 1]!.displayMs;
  const dayStart = Math.floor(first / MS_PER_DAY) * MS_PER_DAY;
  const days = Math.ceil((last - first) / MS_PER_DAY + 1);
  const count = (days * MINUTES_PER_DAY) / stepMinutes;
  const stepMs = stepMinutes * MS_PER_MINUTE;
  const maxGapMs = EPISODE_MAX_INTERPOLATED_GAP_MINUTES * MS_PER_MINUTE;
  const times: number[] = [];
  const values: Array<number | null> = [];
  let j = 0; // the first reading at or after the grid time
  for (let k = 1; k <= count; k++) {
    const g = dayStart + k * stepMs;
    times.push(g);
    while (j < readings.length && readings[j]!.displayMs < g) j++;
    values.push(valueAt(readings, j, g, maxGapMs));
  }
  return { stepMinutes, times, values };
}

function valueAt(readings: readonly ClockGlucose[], j: number, g: number, maxGapMs: number): number | null {
  if (j >= readings.length) return null; // after the last reading
  const after = readings[j]!;
  if (after.displayMs === g) return after.mgdl;
  if (j === 0) return null; // before the first reading
  const before = readings[j - 1]!;
  if (after.displayMs - before.displayMs > maxGapMs) return null;
  return interpolate(before, after, g);
}

/**
 * R's approx in this order of operations, y_i + (y_j − y_i)·((t − t_i)/(t_j − t_i)), unrounded:
 * the order decides whether a point on a threshold lands exactly on it (50 → 206 over 30 minutes
 * gives exactly 180 at +25 minutes, where y_i·(1−f) + y_j·f gives 180.00000000000003, a "high").
 */
export function interpolate(before: ClockGlucose, after: ClockGlucose, t: number): number {
  return (
    before.mgdl + (after.mgdl - before.mgdl) * ((t - before.displayMs) / (after.displayMs - before.displayMs))
  );
}

// ── 2.3 segments ────────────────────────────────────────────────────────────────────────────────

export interface Segment {
  /** Index of the segment's first point in the grid. */
  start: number;
  values: number[];
}

/** The maximal runs of consecutive grid points with a value; nothing carries across a missing one. */
export function gridSegments(values: ReadonlyArray<number | null>): Segment[] {
  const segments: Segment[] = [];
  let current: Segment | null = null;
  values.forEach((v, i) => {
    if (v === null) {
      current = null;
      return;
    }
    if (current === null) {
      current = { start: i, values: [] };
      segments.push(current);
    }
    current.values.push(v);
  });
  return segments;
}

// ── 2.4 detection inside one segment ────────────────────────────────────────────────────────────

export interface EpisodeRule {
  direction: "hypo" | "hyper";
  /** Hypo: in state below it (strict); hyper: above it (strict). mg/dL. */
  threshold: number;
  /** Points an in-state run needs to start an episode (may be fractional: a run qualifies at ≥). */
  startPoints: number;
  /** Points an out-of-state run needs to end one. */
  endPoints: number;
}

interface Run {
  start: number;
  length: number;
  inState: boolean;
}

/** The maximal runs of equal state (beyond the threshold or not) of a segment's values. */
export function stateRuns(
  values: readonly number[],
  rule: Pick<EpisodeRule, "direction" | "threshold">,
): Run[] {
  const runs: Run[] = [];
  values.forEach((v, i) => {
    const inState = rule.direction === "hypo" ? v < rule.threshold : v > rule.threshold;
    const previous = runs[runs.length - 1];
    if (previous?.inState === inState) previous.length++;
    else runs.push({ start: i, length: 1, inState });
  });
  return runs;
}

/**
 * iglu's `event_class` on one segment, as [first, last] point indices (inclusive): an episode opens
 * at the first point of an in-state run of at least `startPoints`, and closes just before the first
 * out-of-state run of at least `endPoints` after it (that run is never part of it), or at the
 * segment's last point if none comes; shorter excursions back inside it are part of it.
 */
export function episodesInSegment(values: readonly number[], rule: EpisodeRule): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  let open: number | null = null;
  for (const run of stateRuns(values, rule)) {
    if (open === null) {
      if (run.inState && run.length >= rule.startPoints) open = run.start;
    } else if (!run.inState && run.length >= rule.endPoints) {
      found.push([open, run.start - 1]);
      open = null;
    }
  }
  if (open !== null) found.push([open, values.length - 1]);
  return found;
}

// ── 2.5 the kinds ───────────────────────────────────────────────────────────────────────────────

export const EPISODE_KINDS = [
  "hypoLevel1",
  "hypoLevel2",
  "hypoExtended",
  "hyperLevel1",
  "hyperLevel2",
] as const;
export type EpisodeKind = (typeof EPISODE_KINDS)[number];

/**
 * The rules for a grid step: start and end runs of ceil(15 / step) points; extended hypoglycaemia
 * starts with an uninterrupted run of 120 / step + 1 points (25 at 5 minutes, unrounded as in iglu),
 * i.e. a first-to-last span of 120 minutes, and ends like level 1. Level 2 episodes are also level 1.
 */
export function episodeRules(stepMinutes: number): Record<EpisodeKind, EpisodeRule> {
  const startPoints = Math.ceil(EPISODE_MIN_DURATION_MINUTES / stepMinutes);
  const endPoints = Math.ceil(EPISODE_END_DURATION_MINUTES / stepMinutes);
  const rule = (direction: "hypo" | "hyper", threshold: number): EpisodeRule => ({
    direction,
    threshold,
    startPoints,
    endPoints,
  });
  return {
    hypoLevel1: rule("hypo", LOW_BELOW_MGDL),
    hypoLevel2: rule("hypo", VERY_LOW_BELOW_MGDL),
    hypoExtended: { ...rule("hypo", LOW_BELOW_MGDL), startPoints: EXTENDED_HYPO_MINUTES / stepMinutes + 1 },
    hyperLevel1: rule("hyper", IN_RANGE_MAX_MGDL),
    hyperLevel2: rule("hyper", HIGH_MAX_MGDL),
  };
}

/** One episode on the patient's clock. */
export interface Episode {
  /** Time of its first grid point (naive UTC ms, patient's clock). */
  startMs: number;
  /** Time of its last grid point. */
  endMs: number;
  /** Its grid points × the grid step (a 3-point episode is 15 minutes). */
  durationMinutes: number;
  /** Mean of its grid values, interpolated points and short excursions included (mg/dL). */
  meanGlucose: number;
}

/** Every episode of one kind over the grid, segment by segment, in time order. */
export function detectEpisodes(grid: Grid, segments: readonly Segment[], rule: EpisodeRule): Episode[] {
  return segments.flatMap((segment) =>
    episodesInSegment(segment.values, rule).map(([first, last]) => ({
      startMs: grid.times[segment.start + first]!,
      endMs: grid.times[segment.start + last]!,
      durationMinutes: (last - first + 1) * grid.stepMinutes,
      meanGlucose: mean(segment.values.slice(first, last + 1))!,
    })),
  );
}

// ── 2.6 summary ─────────────────────────────────────────────────────────────────────────────────

/** iglu's `episode_summary` of one kind, in the summary API's names. */
export interface EpisodeStats {
  count: number;
  /** Episodes per day of valid grid time (interpolated time in, gaps out); 0 without any. */
  perDay: number;
  /** Mean over episodes of their durations; 0 when there is none, as iglu reports. */
  meanDurationMinutes: number;
  /** Mean over episodes of their mean glucose, each episode weighing the same; null for none. */
  meanGlucose: number | null;
}

/**
 * The summary of one kind. `validGridMinutes` is the valid grid points × the step: iglu's per-day
 * denominator, neither calendar days nor readings × 5. With no valid grid time (no readings) the
 * rate is 0, as iglu's episode_summary reports a kind without episodes (it never divides then).
 */
export function summarizeEpisodes(episodes: readonly Episode[], validGridMinutes: number): EpisodeStats {
  const count = episodes.length;
  return {
    count,
    // iglu's order of operations, nrow · dt0 / 60 / 24, so that the rate is the same double.
    perDay: validGridMinutes > 0 ? count / (validGridMinutes / 60 / 24) : 0,
    meanDurationMinutes: mean(episodes.map((e) => e.durationMinutes)) ?? 0,
    meanGlucose: mean(episodes.map((e) => e.meanGlucose)),
  };
}

// ── night ───────────────────────────────────────────────────────────────────────────────────────

/**
 * Whether an episode starts at night on the patient's clock: its first grid point in
 * [00:00, 06:00). The spec leaves 06:00 itself open; a half-open interval puts every minute in
 * exactly one of night and day, as time-of-day bands usually are.
 */
export function startsAtNight(startMs: number): boolean {
  const minute = (((startMs % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY) / MS_PER_MINUTE;
  return minute >= NIGHT_START_MINUTE && minute < NIGHT_END_MINUTE;
}

export interface NightHypoglycaemia {
  /** Level 1 hypoglycaemia episodes (level 2 ones included) that start at night. */
  count: number;
  /** count / all level 1 hypoglycaemia episodes × 100; null when there is none. */
  percent: number | null;
}

export function nightHypoglycaemia(hypoEpisodes: readonly Episode[]): NightHypoglycaemia {
  const count = hypoEpisodes.filter((e) => startsAtNight(e.startMs)).length;
  return { count, percent: hypoEpisodes.length === 0 ? null : (count / hypoEpisodes.length) * 100 };
}

// ── all together ────────────────────────────────────────────────────────────────────────────────

export interface CgmEpisodes {
  /** The grid step in minutes (5 for a 5-minute CGM); null when there is no grid (no readings). */
  stepMinutes: number | null;
  /** Valid grid time in minutes, the per-day denominator. */
  validGridMinutes: number;
  episodes: Record<EpisodeKind, EpisodeStats>;
  /** Every episode of each kind, for lists (the daily view). */
  lists: Record<EpisodeKind, Episode[]>;
  nightHypo: NightHypoglycaemia;
}

/**
 * The episodes of one patient's readings, as iglu's `episode_calculation` with its defaults.
 * Null where iglu stops with an error: readings spaced more than 45 minutes apart at the median
 * (a grid step over the interpolation limit). No readings, or a single one (iglu cannot
 * interpolate one point and stops too), give no episodes and no valid time rather than null, so
 * that an empty period reads "no episodes".
 */
export function cgmEpisodes(readings: readonly ClockGlucose[]): CgmEpisodes | null {
  const clean = cleanReadings(readings);
  if (clean.length < 2) return emptyEpisodes();
  const stepMinutes = gridStepMinutes(clean.map((r) => r.displayMs));
  if (stepMinutes === null) return null;
  const grid = interpolatedGrid(clean, stepMinutes);
  const segments = gridSegments(grid.values);
  const validGridMinutes = segments.reduce((n, s) => n + s.values.length, 0) * stepMinutes;
  const rules = episodeRules(stepMinutes);
  const lists = mapKinds((kind) => detectEpisodes(grid, segments, rules[kind]));
  return {
    stepMinutes,
    validGridMinutes,
    episodes: mapKinds((kind) => summarizeEpisodes(lists[kind], validGridMinutes)),
    lists,
    nightHypo: nightHypoglycaemia(lists.hypoLevel1),
  };
}

function emptyEpisodes(): CgmEpisodes {
  return {
    stepMinutes: null,
    validGridMinutes: 0,
    episodes: mapKinds(() => summarizeEpisodes([], 0)),
    lists: mapKinds(() => []),
    nightHypo: nightHypoglycaemia([]),
  };
}

function mapKinds<T>(f: (kind: EpisodeKind) => T): Record<EpisodeKind, T> {
  return Object.fromEntries(EPISODE_KINDS.map((kind) => [kind, f(kind)])) as Record<EpisodeKind, T>;
}
