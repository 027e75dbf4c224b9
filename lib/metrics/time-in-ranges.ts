import { TIGHT_RANGE_MAX_MGDL, TIGHT_RANGE_MIN_MGDL } from "./constants";
import { type BandKey, bandOf, CONSENSUS_EDGES } from "./targets";

/**
 * Time in the five glycemic ranges of the international consensus on Time in Range:
 * Battelino T, Danne T, Bergenstal RM, et al. Clinical Targets for Continuous Glucose Monitoring
 * Data Interpretation: Recommendations From the International Consensus on Time in Range.
 * Diabetes Care 2019;42(8):1593–1603.
 *
 *   veryLow   value < 54            (TBR level 2)
 *   low       54 ≤ value < 70       (TBR level 1)
 *   inRange   70 ≤ value ≤ 180      (TIR)
 *   high      180 < value ≤ 250     (TAR level 1)
 *   veryHigh  value > 250           (TAR level 2)
 *
 * Values are mg/dL (convert mmol/L first); the comparisons above hold for any real value, so a
 * converted 69.9 is low and 180.1 is high. The sentinels take part: 39 is very low, 401 very high.
 * "Time" is the share of readings, each reading standing for the same sensor interval.
 */

export type ConsensusRange = BandKey;
export type PerConsensusRange<T> = Record<ConsensusRange, T>;

export interface TimeInRanges {
  /** Number of readings. */
  n: number;
  counts: PerConsensusRange<number>;
  /** count / n × 100 per range; null when there are no readings (a share of nothing). */
  percentages: PerConsensusRange<number> | null;
}

/** The consensus range of one reading (mg/dL). */
export function consensusRangeOf(valueMgdl: number): ConsensusRange {
  return bandOf(valueMgdl, CONSENSUS_EDGES);
}

/** Counts and percentages of readings in each of the five consensus ranges. */
export function timeInRanges(valuesMgdl: readonly number[]): TimeInRanges {
  const counts: PerConsensusRange<number> = { veryLow: 0, low: 0, inRange: 0, high: 0, veryHigh: 0 };
  for (const v of valuesMgdl) counts[consensusRangeOf(v)]++;
  return { n: valuesMgdl.length, counts, percentages: rangePercentages(counts) };
}

/**
 * Percentages of readings per range from the counts alone (n is their sum), for callers that
 * keep counts rather than readings (the daily rollup of lib/sync/daily.ts): the same division, so
 * the same numbers as `timeInRanges` of the readings. Null when there are no readings.
 */
export function rangePercentages(counts: PerConsensusRange<number>): PerConsensusRange<number> | null {
  const n = counts.veryLow + counts.low + counts.inRange + counts.high + counts.veryHigh;
  if (n === 0) return null;
  const pct = (c: number) => (c / n) * 100;
  return {
    veryLow: pct(counts.veryLow),
    low: pct(counts.low),
    inRange: pct(counts.inRange),
    high: pct(counts.high),
    veryHigh: pct(counts.veryHigh),
  };
}

/**
 * Time in tight range of the 2023 consensus (Battelino T et al., Lancet Diabetes Endocrinol
 * 2023;11:42–57): the percentage of readings from 70 to 140 mg/dL, both inclusive; null when there
 * are no readings.
 */
export function timeInTightRange(valuesMgdl: readonly number[]): number | null {
  if (valuesMgdl.length === 0) return null;
  let inTight = 0;
  for (const v of valuesMgdl) if (inTightRange(v)) inTight++;
  return tightRangePercent(inTight, valuesMgdl.length);
}

/** Whether one reading (mg/dL) lies in the tight range, 70 to 140 inclusive. */
export const inTightRange = (valueMgdl: number) =>
  valueMgdl >= TIGHT_RANGE_MIN_MGDL && valueMgdl <= TIGHT_RANGE_MAX_MGDL;

/** Time in tight range from counts kept elsewhere (the daily rollup): the same division. */
export function tightRangePercent(inTight: number, n: number): number | null {
  return n === 0 ? null : (inTight / n) * 100;
}
