import { formatDateTime, MS_PER_DAY } from "@/lib/cgm/datetime";
import { firstParam, type SearchParam } from "./query";

/**
 * The period of a record page: 7, 14, 30 or 90 days ending at the last record of its data group
 * (the service publishes with a delay, so "now" would often show an empty end).
 */
export const PERIOD_DAYS = [7, 14, 30, 90] as const;
export type PeriodDays = (typeof PERIOD_DAYS)[number];
export const DEFAULT_PERIOD_DAYS: PeriodDays = 14;

/** `?days=`: one of 7, 14, 30, 90 written plainly; anything else (absent, "14.0", "1e1", "") is 14. */
export function parsePeriod(param: SearchParam): PeriodDays {
  const text = firstParam(param);
  return PERIOD_DAYS.find((d) => String(d) === text) ?? DEFAULT_PERIOD_DAYS;
}

export interface RecordWindow {
  startMs: number;
  endMs: number;
  /** The service's query values (systemTime, inclusive at both ends). */
  startDate: string;
  endDate: string;
}

/** The `days` days up to and including `endMs`: [endMs − days, endMs] on systemTime. */
export function windowEndingAt(endMs: number, days: number): RecordWindow {
  const startMs = endMs - days * MS_PER_DAY;
  return { startMs, endMs, startDate: formatDateTime(startMs), endDate: formatDateTime(endMs) };
}

/** The `days` days up to the last record (`endMs`), or up to now (whole seconds) when there is none. */
export function windowEndingAtOrNow(endMs: number | null, nowMs: number, days: number): RecordWindow {
  return windowEndingAt(endMs ?? Math.floor(nowMs / 1000) * 1000, days);
}
