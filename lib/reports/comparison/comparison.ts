import { secondsOfDay } from "@/lib/cgm/datetime";
import { mgdlRangeText, mgdlText } from "@/lib/cgm/glucose-text";
import type { GlucoseUnit } from "@/lib/cgm/units";
import {
  HIGH_MAX_MGDL,
  IN_RANGE_MAX_MGDL,
  LOW_BELOW_MGDL,
  VERY_LOW_BELOW_MGDL,
} from "@/lib/metrics/constants";
import type { ReportMetrics } from "@/lib/metrics/report";
import { type ConsensusRange, consensusRangeOf, type PerConsensusRange } from "@/lib/metrics/time-in-ranges";
import type { ReportPeriod } from "../period/period";
import type { Reading } from "../period/readings";
import { type PeriodSummary, periodSummary } from "../summary/summary-model";

/**
 * Two report periods side by side: each period's metrics (lib/metrics/report.ts, exactly as the
 * summary API computes them), the change of every metric, and, for the shares of time in the
 * consensus bands, where on the patient's clock the change happened.
 *
 * Changes are recent − earlier: absolute differences in the metric's own unit, so a change of a
 * percentage is in percentage points. A change is null when either side is null (a period
 * without readings has no mean, no shares, ...).
 *
 * Attribution to time of day. The day (displayTime, the patient's clock) is cut into blocks of
 * BLOCK_HOURS. For a band (say "in range") a period's share is exactly the weighted sum of its
 * shares within the blocks:
 *
 *   share = Σ_b w_b × s_b,   w_b = n_b / N (the block's part of the period's readings),
 *                            s_b = k_b / n_b (the band's share of the block's readings),
 *
 * since w_b × s_b = k_b / N. The change between two periods is then
 *
 *   share' − share = Σ_b (w'_b × s'_b − w_b × s_b),
 *
 * and each block's term is its contribution in percentage points: the terms add up to the total
 * change exactly, with no remainder to explain away. Comparing the per-block shares (s'_b − s_b)
 * would not: a block that improves by 20 points but holds a tenth of the readings moves the total
 * by 2, and blocks whose readings went missing (a sensor off at night) change the weights, which
 * per-block shares ignore. The price is that a block's term mixes both causes, a changed share
 * within the block and a changed number of readings in it; the page shows both (shares and
 * weights per block) beside the contributions.
 */

/** Hours per time-of-day block; 24 must be a multiple. */
export const BLOCK_HOURS = 3;
export const BLOCKS_PER_DAY = 24 / BLOCK_HOURS;
/**
 * A band's change is explained in words only from this many percentage points (as shown, rounded
 * to one decimal): smaller changes are within the day-to-day noise of a 14-day period.
 */
export const ATTRIBUTION_MIN_CHANGE_POINTS = 1;
/** A place named as "mostly" there covers at most half the day; wider is "spread over the day". */
const MAX_NAMED_BLOCKS = BLOCKS_PER_DAY / 2;

/**
 * The shares compared: the consensus's time in range, time below range (below 70 mg/dL, its
 * level 2 below 54 included), below 54, time above range (above 180, above 250 included) and
 * above 250. Each is a set of the five disjoint consensus ranges of lib/metrics/time-in-ranges.ts.
 * `better` is the direction the consensus targets point to (more time in range, less of the rest).
 */
export const COMPARED_BANDS = ["inRange", "belowRange", "veryLow", "aboveRange", "veryHigh"] as const;
export type ComparedBand = (typeof COMPARED_BANDS)[number];

export const BAND_RANGES: Record<ComparedBand, readonly ConsensusRange[]> = {
  inRange: ["inRange"],
  belowRange: ["veryLow", "low"],
  veryLow: ["veryLow"],
  aboveRange: ["high", "veryHigh"],
  veryHigh: ["veryHigh"],
};

export const BAND_BETTER: Record<ComparedBand, "up" | "down"> = {
  inRange: "up",
  belowRange: "down",
  veryLow: "down",
  aboveRange: "down",
  veryHigh: "down",
};

/** The band as a person reads it, its bounds in `unit` (70 mg/dL is the consensus's 3.9 mmol/L). */
export function bandLabel(band: ComparedBand, unit: GlucoseUnit): string {
  switch (band) {
    case "inRange":
      return `Time in range (${mgdlRangeText(LOW_BELOW_MGDL, IN_RANGE_MAX_MGDL, unit)})`;
    case "belowRange":
      return `Time below ${mgdlText(LOW_BELOW_MGDL, unit)}`;
    case "veryLow":
      return `Time below ${mgdlText(VERY_LOW_BELOW_MGDL, unit)}`;
    case "aboveRange":
      return `Time above ${mgdlText(IN_RANGE_MAX_MGDL, unit)}`;
    case "veryHigh":
      return `Time above ${mgdlText(HIGH_MAX_MGDL, unit)}`;
  }
}

/** What a cumulative band includes, as the consensus counts it ("below 54 mg/dL included"); else null. */
export function bandIncludes(band: ComparedBand, unit: GlucoseUnit): string | null {
  if (band === "belowRange") return `below ${mgdlText(VERY_LOW_BELOW_MGDL, unit)} included`;
  if (band === "aboveRange") return `above ${mgdlText(HIGH_MAX_MGDL, unit)} included`;
  return null;
}

/** A band's share in percent from the five consensus shares (null: no readings). */
export function bandShare(tir: PerConsensusRange<number> | null, band: ComparedBand): number | null {
  if (tir === null) return null;
  return BAND_RANGES[band].reduce((sum, r) => sum + tir[r], 0);
}

const inBand = (band: ComparedBand, range: ConsensusRange) => BAND_RANGES[band].includes(range);

// ---------------------------------------------------------------------------------------------
// Changes

type NumericMetric = Exclude<keyof ReportMetrics, "timeInRanges" | "griZone">;
const NUMERIC_METRICS: readonly NumericMetric[] = [
  "nValues",
  "sensorActivePercent",
  "timeInTightRange",
  "mean",
  "sd",
  "cv",
  "gmi",
  "gri",
  "griHypo",
  "griHyper",
  "lbgi",
  "hbgi",
];

export type MetricChanges = Record<NumericMetric, number | null> & {
  /** Per consensus range, in percentage points. */
  timeInRanges: PerConsensusRange<number> | null;
  /** Per compared band, in percentage points. */
  bands: Record<ComparedBand, number | null>;
};

/** `recent − earlier`, or null when either is null. */
export function change(earlier: number | null, recent: number | null): number | null {
  return earlier === null || recent === null ? null : recent - earlier;
}

export function metricChanges(earlier: ReportMetrics, recent: ReportMetrics): MetricChanges {
  const numeric = Object.fromEntries(
    NUMERIC_METRICS.map((k) => [k, change(earlier[k], recent[k])]),
  ) as Record<NumericMetric, number | null>;
  const a = earlier.timeInRanges;
  const b = recent.timeInRanges;
  return {
    ...numeric,
    timeInRanges:
      a === null || b === null
        ? null
        : {
            veryLow: b.veryLow - a.veryLow,
            low: b.low - a.low,
            inRange: b.inRange - a.inRange,
            high: b.high - a.high,
            veryHigh: b.veryHigh - a.veryHigh,
          },
    bands: Object.fromEntries(
      COMPARED_BANDS.map((band) => [band, change(bandShare(a, band), bandShare(b, band))]),
    ) as Record<ComparedBand, number | null>,
  };
}

// ---------------------------------------------------------------------------------------------
// Time-of-day blocks

/** The block of a displayTime: 0 for 00:00–02:59:59, 1 for 03:00–05:59:59, ... */
export function blockOf(displayMs: number): number {
  return Math.floor(secondsOfDay(displayMs) / (BLOCK_HOURS * 3600));
}

/** "00:00" … "24:00": a block boundary on the clock (24:00 is the end of the last block). */
export function blockClock(boundary: number): string {
  return `${String(boundary * BLOCK_HOURS).padStart(2, "0")}:00`;
}

export interface BlockSide {
  /** Readings of the period in the block (n_b). */
  readings: number;
  /** The block's part of the period's readings, percent (100 × w_b); null: no readings at all. */
  weight: number | null;
  /** Each band's share of the block's readings, percent (100 × s_b); null: none in the block. */
  shares: Record<ComparedBand, number | null>;
}

interface BlockCounts {
  n: number;
  bands: Record<ComparedBand, number>;
}

function blockCounts(readings: readonly Reading[]): { total: number; blocks: BlockCounts[] } {
  const blocks: BlockCounts[] = Array.from({ length: BLOCKS_PER_DAY }, () => ({
    n: 0,
    bands: { inRange: 0, belowRange: 0, veryLow: 0, aboveRange: 0, veryHigh: 0 },
  }));
  for (const r of readings) {
    const block = blocks[blockOf(r.displayMs)] as BlockCounts;
    block.n++;
    const range = consensusRangeOf(r.mgdl);
    for (const band of COMPARED_BANDS) if (inBand(band, range)) block.bands[band]++;
  }
  return { total: readings.length, blocks };
}

function blockSide(block: BlockCounts, total: number): BlockSide {
  return {
    readings: block.n,
    weight: total === 0 ? null : (100 * block.n) / total,
    shares: Object.fromEntries(
      COMPARED_BANDS.map((band) => [band, block.n === 0 ? null : (100 * block.bands[band]) / block.n]),
    ) as Record<ComparedBand, number | null>,
  };
}

// ---------------------------------------------------------------------------------------------
// Where a change happened

/** Consecutive blocks on the circular day: `start` and `length` in blocks (may wrap past 24:00). */
export interface BlockSpan {
  start: number;
  length: number;
}

export type ChangePlace =
  /** One span, or two apart, holding more than half of the change in its direction. */
  { kind: "spans"; spans: BlockSpan[]; points: number } | { kind: "spread" };

const spanSum = (values: readonly number[], s: BlockSpan) => {
  let sum = 0;
  for (let i = 0; i < s.length; i++) sum += values[(s.start + i) % values.length] as number;
  return sum;
};

/**
 * Where on the clock a change is concentrated, from the blocks' contributions (which add up to
 * `total`). "The change in its direction" is the sum of the contributions that point the same way
 * as the total (the gross gain of a rise, the gross loss of a fall): blocks that moved against it
 * cannot hide the blocks that carried it. Named is the shortest span of adjacent blocks (across
 * midnight too) whose contributions together hold more than half of that, at most half the day;
 * of spans equally short, the one holding most. Failing one span, the two spans apart (not
 * touching) with the fewest blocks between them that do; failing those, the change is spread.
 */
export function placeOfChange(contributions: readonly number[], total: number): ChangePlace {
  const blocks = contributions.length;
  const sign = Math.sign(total);
  if (sign === 0) return { kind: "spread" };
  const toward = contributions.map((c) => sign * c);
  const half = toward.reduce((sum, c) => sum + Math.max(0, c), 0) / 2;
  const maxBlocks = Math.min(MAX_NAMED_BLOCKS, blocks - 1);

  for (let length = 1; length <= maxBlocks; length++) {
    let best: { span: BlockSpan; held: number } | null = null;
    for (let start = 0; start < blocks; start++) {
      const span = { start, length };
      const held = spanSum(toward, span);
      if (held > half && (best === null || held > best.held)) best = { span, held };
    }
    if (best) return { kind: "spans", spans: [best.span], points: sign * best.held };
  }

  for (let size = 2; size <= maxBlocks; size++) {
    let best: { spans: BlockSpan[]; held: number } | null = null;
    for (let first = 1; first < size; first++) {
      for (let start = 0; start < blocks; start++) {
        const a = { start, length: first };
        // At least one block apart on both sides, else the two would be one span.
        for (let gap = 1; first + gap + (size - first) <= blocks - 1; gap++) {
          const b = { start: (start + first + gap) % blocks, length: size - first };
          const held = spanSum(toward, a) + spanSum(toward, b);
          if (held > half && (best === null || held > best.held)) {
            best = { spans: [a, b].sort((x, y) => x.start - y.start), held };
          }
        }
      }
    }
    if (best) return { kind: "spans", spans: best.spans, points: sign * best.held };
  }
  return { kind: "spread" };
}

/** "between 21:00 and 03:00": a span on the clock (the last block ends at 24:00). */
export function spanText(span: BlockSpan): string {
  const end = span.start + span.length;
  const endText = end === BLOCKS_PER_DAY ? blockClock(BLOCKS_PER_DAY) : blockClock(end % BLOCKS_PER_DAY);
  return `between ${blockClock(span.start)} and ${endText}`;
}

/** Rounded to one decimal, halves away from zero, so a rise and a fall of the same size read alike. */
export function roundTenth(value: number): number {
  return (Math.sign(value) * Math.round(Math.abs(value) * 10)) / 10;
}

/** One decimal, always signed, with a true minus sign: "+6.2", "−1.5", "0.0". */
export function signedPoints(points: number): string {
  const rounded = roundTenth(points);
  if (rounded === 0) return "0.0";
  return `${rounded > 0 ? "+" : "−"}${Math.abs(rounded).toFixed(1)}`;
}

export interface BandAttribution {
  band: ComparedBand;
  /** The band's change, percentage points; null when either period has no readings. */
  change: number | null;
  /** Each block's term w'_b s'_b − w_b s_b, percentage points; they add up to `change`. */
  contributions: number[] | null;
  /** Where the change happened; null when it is smaller than the threshold (or null). */
  place: ChangePlace | null;
}

/** Whether a change is large enough to be explained: compared as shown, to one decimal. */
export function isNotableChange(points: number | null): points is number {
  return points !== null && Math.abs(roundTenth(points)) >= ATTRIBUTION_MIN_CHANGE_POINTS;
}

/**
 * The attribution as one sentence, e.g. "Time in range (70–180 mg/dL) +6.2 percentage points,
 * mostly between 00:00 and 06:00 (+5.9 points there)." Null for a change below the threshold.
 */
export function attributionSentence(a: BandAttribution, unit: GlucoseUnit): string | null {
  if (a.place === null || !isNotableChange(a.change)) return null;
  const head = `${bandLabel(a.band, unit)} ${signedPoints(a.change)} percentage points`;
  if (a.place.kind === "spread") return `${head}, spread over the day.`;
  const where = a.place.spans.map(spanText).join(" and ");
  return `${head}, mostly ${where} (${signedPoints(a.place.points)} points there).`;
}

// ---------------------------------------------------------------------------------------------
// The comparison

export interface ComparisonBlock {
  /** "00:00" and "03:00": the block on the patient's clock (displayTime). */
  start: string;
  end: string;
  earlier: BlockSide;
  recent: BlockSide;
  /** Each band's contribution to its change, percentage points; null when either period is empty. */
  contributions: Record<ComparedBand, number | null>;
}

export interface Comparison {
  earlier: PeriodSummary;
  recent: PeriodSummary;
  changes: MetricChanges;
  blocks: ComparisonBlock[];
  attribution: BandAttribution[];
}

/** Compares two periods, each given with its readings (values in mg/dL, sentinels as 39/401). */
export function compareReadings(
  earlierPeriod: ReportPeriod,
  earlierReadings: readonly Reading[],
  recentPeriod: ReportPeriod,
  recentReadings: readonly Reading[],
): Comparison {
  const earlier = periodSummary(earlierPeriod, earlierReadings);
  const recent = periodSummary(recentPeriod, recentReadings);
  const a = blockCounts(earlierReadings);
  const b = blockCounts(recentReadings);
  const bothHaveReadings = a.total > 0 && b.total > 0;

  // k'_b / N' − k_b / N, i.e. w'_b s'_b − w_b s_b without the rounding of two divisions.
  const contribution = (band: ComparedBand, i: number) =>
    bothHaveReadings
      ? 100 *
        ((b.blocks[i] as BlockCounts).bands[band] / b.total -
          (a.blocks[i] as BlockCounts).bands[band] / a.total)
      : null;

  const blocks: ComparisonBlock[] = a.blocks.map((blockA, i) => ({
    start: blockClock(i),
    end: blockClock(i + 1),
    earlier: blockSide(blockA, a.total),
    recent: blockSide(b.blocks[i] as BlockCounts, b.total),
    contributions: Object.fromEntries(COMPARED_BANDS.map((band) => [band, contribution(band, i)])) as Record<
      ComparedBand,
      number | null
    >,
  }));

  const changes = metricChanges(earlier, recent);
  const attribution = COMPARED_BANDS.map((band): BandAttribution => {
    const total = changes.bands[band];
    const contributions = bothHaveReadings ? blocks.map((bl) => bl.contributions[band] as number) : null;
    return {
      band,
      change: total,
      contributions,
      place: contributions && isNotableChange(total) ? placeOfChange(contributions, total) : null,
    };
  });
  return { earlier, recent, changes, blocks, attribution };
}
