import { formatDateTime, parseDateTime } from "./datetime";

/**
 * A window on systemTime, [start, end] with both ends included (the v1/v2 service's windows): its
 * instants, which the app compares and stores, and its text, which the service's queries carry.
 * Made once where a window is chosen (`windowOf`) and passed on as one value, so no layer turns
 * the instants into text and back again.
 */
export interface Window {
  startMs: number;
  endMs: number;
  /** The service's DateTime of each end (datetime.ts), as a query sends it. */
  startDate: string;
  endDate: string;
}

/** A window's instants alone: the span chunking and the synced copy's checks work on. */
export type WindowMs = Pick<Window, "startMs" | "endMs">;

export function windowOf(startMs: number, endMs: number): Window {
  return { startMs, endMs, startDate: formatDateTime(startMs), endDate: formatDateTime(endMs) };
}

/** A window's text alone: what a request's query gives, read once at that edge (`readWindow`). */
type WindowQuery = Pick<Window, "startDate" | "endDate">;

const isWindow = (w: WindowQuery): w is Window =>
  typeof (w as Partial<Window>).startMs === "number" && typeof (w as Partial<Window>).endMs === "number";

/**
 * The window of a request's query (its text kept as given), read once where the text arrives;
 * a `Window` is kept as it is. Null when a DateTime does not parse.
 */
export function readWindow(w: WindowQuery): Window | null {
  if (isWindow(w)) return w;
  const startMs = parseDateTime(w.startDate);
  const endMs = parseDateTime(w.endDate);
  if (startMs === null || endMs === null) return null;
  return { startMs, endMs, startDate: w.startDate, endDate: w.endDate };
}
