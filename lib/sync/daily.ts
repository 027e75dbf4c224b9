import { MS_PER_DAY } from "@/lib/cgm/datetime";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { metricValueMgdl } from "@/lib/cgm/values";
import { PREGNANCY_RANGE_MGDL } from "@/lib/metrics/constants";
import { consensusRangeOf, inTightRange, type PerConsensusRange } from "@/lib/metrics/time-in-ranges";

/**
 * The daily rollup of synced EGVs (synced_egv_days): per connection and displayTime date, the
 * counts per consensus range and below 63 and above 140 mg/dL (the pregnancy group's edges,
 * `pregnancyCounts`) and in the tight range (70–140), n, Σ and Σ² of the metric values. `dayRollups` defines it over rows
 * in memory; lib/sync/daily-store.ts computes the same in the database from the values stored with
 * each reading, and the tests hold the two equal. Each reading's value is `metricValueMgdl` (sentinels
 * 39 and 401, mmol/L converted unrounded) and its range `consensusRangeOf`, so sums of days give
 * exactly the counts lib/metrics would find in the readings, and sums that differ from its
 * two-pass statistics by rounding only.
 */

export interface EgvForRollup {
  systemTime: Date;
  displayTime: string;
  value: number;
  unit: GlucoseUnit;
  status: string | null;
}

/**
 * The counts the pregnancy group's bands need beside the consensus ranges (below 54 is `veryLow`):
 * readings below 63 mg/dL (very low included) and above 140.
 */
export interface PregnancyCounts {
  below63: number;
  above140: number;
}

/** Whether a metric value counts below 63 or above 140 mg/dL: the comparisons of lib/metrics/targets.ts `bandOf`. */
export const isBelow63 = (mgdl: number) => mgdl < PREGNANCY_RANGE_MGDL.low;
export const isAbove140 = (mgdl: number) => mgdl > PREGNANCY_RANGE_MGDL.high;

/**
 * Sums of readings' metric values: what a day's rollup holds, and what a period's days add up to
 * (lib/clinic's population view), so both count the same things under the same names.
 */
export interface ReadingSums extends PerConsensusRange<number>, PregnancyCounts {
  n: number;
  /** Readings from 70 to 140 mg/dL inclusive. */
  tightRange: number;
  sum: number;
  sumOfSquares: number;
}

export const emptyReadingSums = (): ReadingSums => ({
  n: 0,
  sum: 0,
  sumOfSquares: 0,
  veryLow: 0,
  low: 0,
  inRange: 0,
  high: 0,
  veryHigh: 0,
  below63: 0,
  above140: 0,
  tightRange: 0,
});

/** Counts one reading's metric value (mg/dL, sentinels as 39 and 401) into the sums. */
export function addReading(sums: ReadingSums, mgdl: number): void {
  sums.n++;
  sums[consensusRangeOf(mgdl)]++;
  if (isBelow63(mgdl)) sums.below63++;
  if (isAbove140(mgdl)) sums.above140++;
  if (inTightRange(mgdl)) sums.tightRange++;
  sums.sum += mgdl;
  sums.sumOfSquares += mgdl * mgdl;
}

export interface DayRollup extends ReadingSums {
  day: string;
  lastSystemTime: Date;
  lastDisplayTime: string;
}

/** The displayTime's date, the rollup's day: the patient's calendar day of the reading. */
export const dayOf = (displayTime: string) => displayTime.slice(0, 10);

export function dayRollups(rows: readonly EgvForRollup[]): DayRollup[] {
  const days = new Map<string, DayRollup>();
  for (const r of rows) {
    const day = dayOf(r.displayTime);
    let d = days.get(day);
    if (!d) {
      d = { day, ...emptyReadingSums(), lastSystemTime: r.systemTime, lastDisplayTime: r.displayTime };
      days.set(day, d);
    }
    addReading(d, metricValueMgdl(r.value, r.unit, r.status));
    if (r.systemTime.getTime() > d.lastSystemTime.getTime()) {
      d.lastSystemTime = r.systemTime;
      d.lastDisplayTime = r.displayTime;
    }
  }
  return [...days.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}

/**
 * Where in systemTime the readings of some displayTime days can lie, from the written rows
 * themselves: each row's displayTime − systemTime is the device clock's offset (a time zone, or a
 * clock set wrong by any amount), and the days' readings sit within the offsets seen, widened by
 * two days for a zone or daylight-saving change among the others. Lets the recount use the
 * primary key's range instead of reading every row of the connection.
 */
export function systemWindowOf(rows: readonly EgvForRollup[]): { from: Date; to: Date } | null {
  let minDay = Number.POSITIVE_INFINITY;
  let maxDay = Number.NEGATIVE_INFINITY;
  let minOffset = Number.POSITIVE_INFINITY;
  let maxOffset = Number.NEGATIVE_INFINITY;
  for (const r of rows) {
    const display = Date.parse(`${r.displayTime}Z`);
    if (Number.isNaN(display)) continue;
    const offset = display - r.systemTime.getTime();
    const day = Date.parse(`${dayOf(r.displayTime)}T00:00:00Z`);
    minDay = Math.min(minDay, day);
    maxDay = Math.max(maxDay, day);
    minOffset = Math.min(minOffset, offset);
    maxOffset = Math.max(maxOffset, offset);
  }
  if (!Number.isFinite(minDay)) return null;
  return {
    from: new Date(minDay - maxOffset - 2 * MS_PER_DAY),
    to: new Date(maxDay + MS_PER_DAY - minOffset + 2 * MS_PER_DAY),
  };
}
