import { formatDateTime, MS_PER_DAY } from "./datetime";
import type { WindowMs } from "./window";

/**
 * How much of the service one request of the dashboard may read: a window of at most
 * `maxDays` (CGM_MAX_REQUEST_DAYS; by default the reports' 90 days, which is also the longest
 * window the service itself answers), between dates a glucose record can have. Without this a
 * window of years is split into hundreds or thousands of service calls (100 years: about 1,200;
 * years 0001–9999: about 121,000) that hold the server and spend the app's shared rate limit.
 */
export const DEFAULT_MAX_REQUEST_DAYS = 90;

// No CGM record is older than the first CGM systems (1999) or later than this century; a date
// outside is a typing slip or a probe, never a window worth a service call.
export const EARLIEST_MS = Date.UTC(2000, 0, 1);
export const LATEST_MS = Date.UTC(2100, 0, 1) - 1000;

/** Why [startMs, endMs] may not be asked of the service, as a sentence to act on; null when it may. */
export function windowBoundsProblem(startMs: number, endMs: number, maxDays: number): string | null {
  if (startMs < EARLIEST_MS || endMs > LATEST_MS) {
    return `Dates must lie between ${formatDateTime(EARLIEST_MS)} and ${formatDateTime(LATEST_MS)}.`;
  }
  const days = (endMs - startMs) / MS_PER_DAY;
  if (days > maxDays) {
    return `A window may be at most ${maxDays} days (this one spans ${Math.ceil(days).toLocaleString("en")} days); ask for a longer period in several requests of at most ${maxDays} days each.`;
  }
  return null;
}

/**
 * [startMs, endMs] cut to the dates a request may read: for windows the dashboard derives around
 * data it holds (a day widened by the largest zone offsets), where the part outside can hold no
 * record, so reading less loses nothing and asking for it would only be refused.
 */
export function readableWindow(startMs: number, endMs: number): WindowMs {
  return { startMs: Math.max(startMs, EARLIEST_MS), endMs: Math.min(endMs, LATEST_MS) };
}
