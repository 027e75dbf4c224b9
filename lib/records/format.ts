import { parseDateTime, parseTime } from "@/lib/cgm/datetime";

/**
 * Times and amounts as a person reads them. The service's DateTime has no zone: a displayTime is
 * the receiver's wall clock, so it is printed as written, never moved into the server's zone.
 */

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;
const pad = (n: number) => String(n).padStart(2, "0");

/** "2026-03-03T14:05:09" → "Tue 3 Mar 2026, 14:05"; text that is not a DateTime is returned as is. */
export function formatDateTimeText(dateTime: string): string {
  const ms = parseDateTime(dateTime);
  if (ms === null) return dateTime;
  const d = new Date(ms);
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** "22:00:00" → "22:00", "07:30:15" → "07:30:15" (seconds only when they are not zero). */
export function formatClock(time: string): string {
  const s = parseTime(time);
  if (s === null) return time;
  const base = `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}`;
  return s % 60 === 0 ? base : `${base}:${pad(s % 60)}`;
}

/** An amount without binary noise: at most two decimals, trailing zeros dropped (4.35, 45, 0.3). */
export function formatAmount(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** "1 minute", "2 minutes", "0.5 units": singular only for exactly one. */
export function countText(value: number, singular: string, plural: string): string {
  return `${formatAmount(value)} ${value === 1 ? singular : plural}`;
}

/** A calendar day "2026-11-10" → "Tue 10 Nov 2026" (or "Tue 10 Nov" without the year). */
export function formatDayText(day: string, withYear = true): string {
  const ms = parseDateTime(`${day}T00:00:00`);
  if (ms === null) return day;
  const d = new Date(ms);
  const text = `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
  return withYear ? `${text} ${d.getUTCFullYear()}` : text;
}
