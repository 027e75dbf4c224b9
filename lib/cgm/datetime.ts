import { z } from "zod";

/**
 * The service's DateTime is an ISO 8601 local timestamp without a zone: `YYYY-MM-DDThh:mm:ss`.
 * We carry it as milliseconds on a "naive" UTC axis: a systemTime of 2026-01-01T08:00:00 is
 * Date.UTC(2026, 0, 1, 8); a displayTime is the patient's wall clock read the same way.
 */
const DATE_TIME_SHAPE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;
const TIME_SHAPE = /^(\d{2}):(\d{2}):(\d{2})$/;

export const SECONDS_PER_DAY = 86_400;
export const MS_PER_MINUTE = 60_000;
export const MS_PER_DAY = 86_400_000;

/** Milliseconds for a valid DateTime, or null when the shape or the calendar date is wrong. */
export function parseDateTime(text: string): number | null {
  const m = DATE_TIME_SHAPE.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) return null;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  // Date.UTC rolls 2026-02-30 over into March; a rolled date is not the date that was written.
  if (new Date(ms).getUTCDate() !== d) return null;
  return ms;
}

// A 90-day response formats ~52,000 timestamps; toISOString() for each was a third of its time.
// The date part is cached per day and the clock part comes from a table of the day's seconds.
const dayPrefixes = new Map<number, string>();
let clockTable: string[] | undefined;

function clockText(second: number): string {
  if (!clockTable) {
    const pad = (n: number) => (n < 10 ? `0${n}` : String(n));
    clockTable = Array.from(
      { length: 86_400 },
      (_, s) => `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`,
    );
  }
  return clockTable[second] as string;
}

export function formatDateTime(ms: number): string {
  const day = Math.floor(ms / 86_400_000);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * 86_400_000).toISOString().slice(0, 11);
    if (dayPrefixes.size > 20_000) dayPrefixes.clear();
    dayPrefixes.set(day, prefix);
  }
  return prefix + clockText(Math.floor((ms - day * 86_400_000) / 1000));
}

/** Seconds since midnight for a valid Time `hh:mm:ss`, or null. */
export function parseTime(text: string): number | null {
  const m = TIME_SHAPE.exec(text);
  if (!m) return null;
  const [h, mi, s] = m.slice(1).map(Number) as [number, number, number];
  if (h > 23 || mi > 59 || s > 59) return null;
  return h * 3600 + mi * 60 + s;
}

export function formatTime(secondsOfDay: number): string {
  const s = ((secondsOfDay % SECONDS_PER_DAY) + SECONDS_PER_DAY) % SECONDS_PER_DAY;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** Seconds since midnight of a DateTime's clock reading (used with displayTime). */
export function secondsOfDay(ms: number): number {
  return Math.floor((((ms % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY) / 1000);
}

export const dateTimeSchema = z.string().refine((t) => parseDateTime(t) !== null, {
  message: "must be a DateTime of the shape YYYY-MM-DDThh:mm:ss (no zone, a real calendar date)",
});

export const timeSchema = z
  .string()
  .refine((t) => parseTime(t) !== null, { message: "must be a Time of the shape hh:mm:ss" });
