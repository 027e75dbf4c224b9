import { MS_PER_MINUTE } from "@/lib/cgm/datetime";

// Uploads arrive in batches; 15 minutes beyond the expected delay is three missed readings.
const STALE_MARGIN_MINUTES = 15;

export interface DataFreshness {
  ageMinutes: number;
  stale: boolean;
  expectedDelayMinutes: number;
}

/** Age of the newest reading, and whether it is older than the service's delay can explain. */
export function dataFreshness(
  latestSystemTimeMs: number,
  nowMs: number,
  expectedDelayMinutes: number,
): DataFreshness {
  // systemTime is only nominally UTC: a reading slightly "from the future" is fresh, not negative.
  const ageMinutes = Math.max(0, Math.floor((nowMs - latestSystemTimeMs) / MS_PER_MINUTE));
  return {
    ageMinutes,
    stale: ageMinutes > expectedDelayMinutes + STALE_MARGIN_MINUTES,
    expectedDelayMinutes,
  };
}

/**
 * The same freshness `elapsedMs` later, with no newer reading: how a page left open keeps its
 * age honest. Elapsed time is measured on the viewer's monotonic clock, so a wrong clock on their
 * device plays no part; only the age the server computed and the time since it arrived count.
 */
export function agedFreshness(freshness: DataFreshness, elapsedMs: number): DataFreshness {
  const ageMinutes = freshness.ageMinutes + Math.max(0, Math.floor(elapsedMs / MS_PER_MINUTE));
  return {
    ageMinutes,
    stale: ageMinutes > freshness.expectedDelayMinutes + STALE_MARGIN_MINUTES,
    expectedDelayMinutes: freshness.expectedDelayMinutes,
  };
}

/** An age in minutes as words: "just now", "4 min ago", "2 h 5 min ago", "3 days ago". */
export function describeAge(minutes: number): string {
  const m = Math.floor(minutes);
  if (!(m >= 1)) return "just now";
  if (m < 60) return `${m} min ago`;
  if (m < 24 * 60) {
    const h = Math.floor(m / 60);
    const rest = m % 60;
    return rest === 0 ? `${h} h ago` : `${h} h ${rest} min ago`;
  }
  const days = Math.floor(m / (24 * 60));
  return days === 1 ? "1 day ago" : `${days} days ago`;
}
