/**
 * The service's DateTime is an ISO 8601 local timestamp without a zone: `YYYY-MM-DDThh:mm:ss`.
 * We carry it as milliseconds on a "naive" UTC axis: a systemTime of 2026-01-01T08:00:00 is
 * Date.UTC(2026, 0, 1, 8); a displayTime is the patient's wall clock read the same way.
 */
const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_SHAPE = /^(\d{2}):(\d{2}):(\d{2})$/;

export const SECONDS_PER_DAY = 86_400;
export const MS_PER_MINUTE = 60_000;
export const MS_PER_DAY = 86_400_000;

/** Milliseconds for a valid DateTime, or null when the shape or the calendar date is wrong. */
export function parseDateTime(text: string): number | null {
  // A 90-day window holds ~26,000 readings, each with two DateTimes that several steps read: the
  // shape is checked by character and the date part, shared by a day's 288 readings, is parsed
  // (and checked against the calendar) once per day.
  if (
    text.length !== 19 ||
    text.charCodeAt(10) !== 84 || // T
    text.charCodeAt(13) !== 58 || // :
    text.charCodeAt(16) !== 58
  ) {
    return null;
  }
  const day = dayStartOf(text.slice(0, 10));
  if (day === null) return null;
  const h = twoDigits(text, 11);
  const mi = twoDigits(text, 14);
  const s = twoDigits(text, 17);
  if (h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59) return null;
  return day + ((h * 60 + mi) * 60 + s) * 1000;
}

/** The two decimal digits at `at`, or −1 when either is not a digit. */
function twoDigits(text: string, at: number): number {
  const a = text.charCodeAt(at) - 48;
  const b = text.charCodeAt(at + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

const dayStarts = new Map<string, number | null>();

function dayStartOf(date: string): number | null {
  let start = dayStarts.get(date);
  if (start !== undefined) return start;
  start = null;
  const m = DATE_SHAPE.exec(date);
  if (m) {
    const [y, mo, d] = m.slice(1).map(Number) as [number, number, number];
    const ms = Date.UTC(y, mo - 1, d);
    // Date.UTC rolls 2026-02-30 over into March; a rolled date is not the date that was written.
    if (mo >= 1 && mo <= 12 && new Date(ms).getUTCDate() === d) start = ms;
  }
  if (dayStarts.size > 20_000) dayStarts.clear();
  dayStarts.set(date, start);
  return start;
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
