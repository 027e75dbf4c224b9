/**
 * The service's DateTime is an ISO 8601 local timestamp without a zone: `YYYY-MM-DDThh:mm:ss`.
 * We carry it as milliseconds on a "naive" UTC axis: a systemTime of 2026-01-01T08:00:00 is
 * Date.UTC(2026, 0, 1, 8); a displayTime is the patient's wall clock read the same way.
 */
const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_SHAPE = /^(\d{2}):(\d{2}):(\d{2})$/;

/** The time units, defined here once: lib/cgm is the lowest layer, so every part of the app may import them. */
export const SECONDS_PER_DAY = 86_400;
export const MS_PER_SECOND = 1_000;
export const MS_PER_MINUTE = 60 * MS_PER_SECOND;
export const MS_PER_HOUR = 60 * MS_PER_MINUTE;
export const MS_PER_DAY = 24 * MS_PER_HOUR;

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
  const day = recentDayStart(text);
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

// The last two dates read and their starts: a reading's systemTime and displayTime, read one after
// the other, mostly share them with the reading before, so their date is then neither cut out
// nor looked up. A start is what `dayStartOf` gave for that date (null for a wrong one); the
// initial dates, NULs, are as wrong as any other, so starting with them is no special case.
let recentDates: [string, string] = ["\0\0\0\0\0\0\0\0\0\0", "\0\0\0\0\0\0\0\0\0\0"];
let recentStarts: [number | null, number | null] = [null, null];

/** dayStartOf the date part of a DateTime (its first 10 characters). */
function recentDayStart(text: string): number | null {
  if (text.startsWith(recentDates[0])) return recentStarts[0];
  if (text.startsWith(recentDates[1])) return recentStarts[1];
  const date = text.slice(0, 10);
  const start = dayStartOf(date);
  recentDates = [date, recentDates[0]];
  recentStarts = [start, recentStarts[0]];
  return start;
}

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
      { length: SECONDS_PER_DAY },
      (_, s) => `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`,
    );
  }
  return clockTable[second] as string;
}

export function formatDateTime(ms: number): string {
  const day = Math.floor(ms / MS_PER_DAY);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * MS_PER_DAY).toISOString().slice(0, 11);
    if (dayPrefixes.size > 20_000) dayPrefixes.clear();
    dayPrefixes.set(day, prefix);
  }
  return prefix + clockText(Math.floor((ms - day * MS_PER_DAY) / MS_PER_SECOND));
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

// ---- API v3 times -------------------------------------------------------------------------------

/**
 * A time as API v3 writes it (service-v3-notes §3, "Common time rules"): the clock reading, and the
 * UTC offset written after it when there is one. Records from phone apps carry offsets and
 * receiver records do not, so `offsetMinutes` is null for those.
 */
export interface ServiceTime {
  /** The written clock reading on the naive axis (whole seconds; a fraction is cut off). */
  clockMs: number;
  /** The written UTC offset in minutes (rounded to the nearest minute), or null when none is written. */
  offsetMinutes: number | null;
}

// Lenient on purpose (notes §3 and §5 item 4, from Tidepool's parser of real responses): a space for
// the T, missing zero padding, no seconds, a fraction of a second, an offset with seconds
// (`-06:59:59`), without a colon, or hours only.
const SERVICE_TIME =
  /^(\d{4})-(\d{1,2})-(\d{1,2})[Tt ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:[.,]\d+)?)?\s*(?:([Zz])|([+-])(\d{1,2})(?::?(\d{2})(?::?(\d{2}))?)?)?$/;

/** The clock reading and offset of a v3 time in any of the shapes real responses have, or null. */
export function parseServiceTime(text: string): ServiceTime | null {
  return canonicalServiceTime(text) ?? lenientServiceTime(text);
}

/**
 * The shape the service writes nearly every time in (`2026-11-01T08:05:00Z`, `…-05:00`, or no
 * offset), read by character: a day of EGVs has 576 of them, and the lenient expression took a
 * third of reading them. Null for anything else, which the lenient reader then reads (or refuses):
 * a time read here is read as it would be there.
 */
function canonicalServiceTime(text: string): ServiceTime | null {
  const n = text.length;
  if (n !== 19 && n !== 20 && n !== 25) return null;
  const clockMs = parseDateTime(n === 19 ? text : text.slice(0, 19));
  if (clockMs === null) return null;
  if (n === 19) return { clockMs, offsetMinutes: null };
  const zone = text.charCodeAt(19);
  if (n === 20) return zone === 90 || zone === 122 ? { clockMs, offsetMinutes: 0 } : null; // Z z
  if ((zone !== 43 && zone !== 45) || text.charCodeAt(22) !== 58) return null; // + - :
  const oh = twoDigits(text, 20);
  const om = twoDigits(text, 23);
  if (oh < 0 || oh > 18 || om < 0 || om > 59) return null;
  const offsetMinutes = (zone === 45 ? -1 : 1) * (oh * 60 + om);
  return { clockMs, offsetMinutes: offsetMinutes === 0 ? 0 : offsetMinutes };
}

function lenientServiceTime(text: string): ServiceTime | null {
  const m = SERVICE_TIME.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const s = m[6] === undefined ? 0 : Number(m[6]);
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 60) return null;
  const day = Date.UTC(y, mo - 1, d);
  // Date.UTC rolls 2026-02-30 over into March; a rolled date is not the date that was written.
  if (d < 1 || new Date(day).getUTCDate() !== d) return null;
  // A leap second is read as the last second of its minute.
  const clockMs = day + ((h * 60 + mi) * 60 + Math.min(s, 59)) * 1000;
  if (m[7]) return { clockMs, offsetMinutes: 0 };
  if (!m[8]) return { clockMs, offsetMinutes: null };
  const sign = m[8] === "-" ? -1 : 1;
  const oh = Number(m[9]);
  const om = m[10] === undefined ? 0 : Number(m[10]);
  const os = m[11] === undefined ? 0 : Number(m[11]);
  if (oh > 18 || om > 59 || os > 59) return null;
  // Offsets such as -06:59:59 are clock drift written into the offset: Tidepool rounds them to the
  // nearest minute, and so do we (-06:59:59 is -07:00).
  const offsetMinutes = sign * Math.round(oh * 60 + om + os / 60);
  return { clockMs, offsetMinutes: offsetMinutes === 0 ? 0 : offsetMinutes };
}

/** The UTC instant of a v3 time: its clock reading less its offset, or the reading itself without one. */
export function serviceTimeUtcMs(t: ServiceTime): number {
  return t.clockMs - (t.offsetMinutes ?? 0) * MS_PER_MINUTE;
}

/** `+02:00`, `-05:30`, `+00:00`: a UTC offset as v3 writes it after a displayTime. */
export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * A time as v3 writes it: the clock reading, then `Z` for UTC (a systemTime), the offset (a
 * displayTime), or nothing (receivers write no offsets).
 */
export function formatServiceTime(clockMs: number, offset: number | "Z" | null): string {
  if (offset === null) return formatDateTime(clockMs);
  return formatDateTime(clockMs) + (offset === "Z" ? "Z" : formatOffset(offset));
}
