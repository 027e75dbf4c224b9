import { MS_PER_DAY, MS_PER_HOUR } from "@/lib/cgm/datetime";

/**
 * When the sync asks the service for a patient's v2 statistics (lib/sync/statistics.ts), and
 * over which window. The population view needs the service's hypoglycemia risk, which only the
 * service computes; asking at every pass would add a call per patient every few minutes for a
 * number that changes slowly (it sums up 14 days), so it is asked at most every
 * SYNC_STATISTICS_HOURS, and an ordinary incremental pass stays at dataRange plus one EGV call.
 */

/** The service's statistics cover the same 14 days as the consensus metrics. */
export const STATISTICS_DAYS = 14;

export function statisticsDue(lastFetchedMs: number | null, nowMs: number, intervalHours: number): boolean {
  return lastFetchedMs === null || nowMs - lastFetchedMs >= intervalHours * MS_PER_HOUR;
}

/**
 * The 14 days up to the newest EGV the service holds: like the dashboard's summary, the window
 * ends at the data, not at now (the real service publishes readings hours late).
 */
export function statisticsWindow(dataEndMs: number): { startMs: number; endMs: number } {
  return { startMs: dataEndMs - STATISTICS_DAYS * MS_PER_DAY, endMs: dataEndMs };
}
