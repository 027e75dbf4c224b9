import { MS_PER_MINUTE } from "@/lib/cgm/datetime";

/**
 * Sensor active time in percent: readings present / readings expected at one per 5 minutes over
 * the window, capped at 100 (a window's edges can hold one reading more than its length divides
 * into). The consensus asks for at least 70 % of 14 days before the other metrics are trusted.
 * Battelino T et al., Clinical Targets for CGM Data Interpretation: Recommendations From the
 * International Consensus on Time in Range. Diabetes Care 2019;42(8):1593–1603.
 * Counted on systemTime, so daylight-saving days neither gain nor lose expected readings.
 */
export const READING_INTERVAL_MINUTES = 5;

export function sensorActivePercent(
  readingsPresent: number,
  windowStartMs: number,
  windowEndMs: number,
): number | null {
  const expected = Math.floor((windowEndMs - windowStartMs) / (READING_INTERVAL_MINUTES * MS_PER_MINUTE));
  if (expected <= 0) return null;
  return Math.min(100, (100 * readingsPresent) / expected);
}
