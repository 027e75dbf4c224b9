import { MINUTES_PER_DAY } from "./constants";
import { quantile, sortAscending } from "./quantiles";

/**
 * The Ambulatory Glucose Profile: percentiles of glucose by time of day, every reading of the
 * period folded onto one 24-hour day by its clock time (displayTime, the patient's own clock).
 * Percentiles 5, 25, 50, 75 and 95, as on the consensus AGP report:
 * Battelino T et al. Diabetes Care 2019;42(8):1593–1603, and Johnson ML et al. Utilizing the
 * Ambulatory Glucose Profile to Standardize and Implement Continuous Glucose Monitoring in Clinical
 * Practice. Diabetes Technol Ther 2019;21(S2):S2-17–S2-25 (after Mazze RS et al. Diabetes Care
 * 1987;10:111–117).
 *
 * Method: a point every 15 minutes (00:00, 00:15, … 23:45); each point's percentiles are taken over
 * the readings whose clock time lies within 30 minutes either side of it, [τ − 30 min, τ + 30 min),
 * wrapping around midnight. The hour-wide window smooths the curves the way the published AGP's
 * smoothing does, while every percentile remains an exact type-7 quantile (quantiles.ts) of real
 * readings, so a reader can reproduce any point. A point with fewer than `AGP_MIN_READINGS`
 * readings is null and drawn as a gap: a percentile of a handful of values would claim a pattern
 * the data does not show.
 */
export const AGP_STEP_MINUTES = 15;
export const AGP_HALF_WINDOW_MINUTES = 30;
export const AGP_MIN_READINGS = 5;
export const AGP_PERCENTILES = [5, 25, 50, 75, 95] as const;

export interface AgpPoint {
  /** Minutes after midnight of the point's clock time. */
  minute: number;
  /** Readings in the point's window. */
  n: number;
  p5: number;
  p25: number;
  p50: number;
  p75: number;
  p95: number;
}

export interface ClockReading {
  /** Seconds after midnight on the patient's clock. */
  secondOfDay: number;
  mgdl: number;
}

/** The AGP's points, one every 15 minutes; null where too few readings exist. */
export function agpProfile(readings: readonly ClockReading[]): Array<AgpPoint | null> {
  // Readings by clock minute first, so each point gathers its window from 60 small lists.
  const byMinute: number[][] = Array.from({ length: MINUTES_PER_DAY }, () => []);
  for (const r of readings) {
    const minute = Math.floor(r.secondOfDay / 60) % MINUTES_PER_DAY;
    byMinute[minute]!.push(r.mgdl);
  }
  const points: Array<AgpPoint | null> = [];
  for (let minute = 0; minute < MINUTES_PER_DAY; minute += AGP_STEP_MINUTES) {
    const values: number[] = [];
    for (let d = -AGP_HALF_WINDOW_MINUTES; d < AGP_HALF_WINDOW_MINUTES; d++) {
      const m = (minute + d + MINUTES_PER_DAY) % MINUTES_PER_DAY;
      for (const v of byMinute[m]!) values.push(v);
    }
    if (values.length < AGP_MIN_READINGS) {
      points.push(null);
      continue;
    }
    const sorted = sortAscending(values);
    const q = (p: number) => quantile(sorted, p / 100)!;
    points.push({ minute, n: values.length, p5: q(5), p25: q(25), p50: q(50), p75: q(75), p95: q(95) });
  }
  return points;
}
