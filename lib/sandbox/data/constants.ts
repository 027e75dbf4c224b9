import { MS_PER_HOUR, MS_PER_MINUTE } from "@/lib/cgm/datetime";

/**
 * Fixed numbers of the synthetic data. Changing any of them changes records that were already
 * served, so they are constants, not settings.
 */

/** Nothing exists before this instant (UTC): 2025-01-01T00:00:00. */
export const HISTORY_START_MS = Date.UTC(2025, 0, 1);

/** One reading every 5 minutes on a fixed grid (plus a per-user offset of seconds). */
export const READING_INTERVAL_MS = 5 * MS_PER_MINUTE;
export const READINGS_PER_DAY = 288;

/** A new sensor shows no readings for 2 h: the gap between two sessions' readings is exactly this. */
export const WARMUP_MS = 2 * MS_PER_HOUR;

/**
 * Spec 2.1 rule 5: a reading gets its smoothed value this long after its systemTime (the next
 * readings must have been uploaded and processed). Before that, smoothedMgdl is null.
 */
export const SMOOTHING_LAG_MS = 15 * MS_PER_MINUTE;

/** How far back an input (meal, insulin, illness…) still moves glucose; inputs are cut off here. */
export const EFFECT_LOOKBACK_MS = 26 * MS_PER_HOUR;
