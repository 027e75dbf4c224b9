import { offsetMinutesOf } from "@/lib/cgm/clock-offset";
import { formatDateTime, MS_PER_DAY, MS_PER_MINUTE, parseDateTime } from "@/lib/cgm/datetime";
import type { DataRangeResponse } from "@/lib/cgm/schemas";
import { EARLIEST_MS, LATEST_MS } from "@/lib/cgm/window-bounds";
import { formatDayText } from "@/lib/records/format";

/**
 * Days as the patient lives them: calendar days of the receiver's clock (displayTime). A day
 * picked in a form, "the last 14 days" and the AGP's daily profiles all mean these days; the
 * service is asked by systemTime, so each run of days becomes a systemTime window here, one way,
 * for compare, export and the AGP alike.
 *
 * The receiver's clock is systemTime plus an offset that the service never names but shows in
 * every record (displayTime − systemTime). It changes with daylight saving and travel, so each end
 * of a run of days is moved by the offset in force at that end, read from records near it.
 */

/** A record's two clocks on the naive UTC axis (lib/cgm/datetime): systemTime and displayTime. */
export interface ClockSample {
  t: number;
  displayMs: number;
}

/** The two clocks of the newest record of one data group; null when the service holds none. */
export function newestOf(range: DataRangeResponse, group: keyof DataRangeResponse): ClockSample | null {
  const end = range[group]?.end;
  const t = end ? parseDateTime(end.systemTime) : null;
  const displayMs = end ? parseDateTime(end.displayTime) : null;
  return t === null || displayMs === null ? null : { t, displayMs };
}

/**
 * The newest record's two clocks: the newest EGV's, as every report ends there; for exports
 * (`anyGroup`) of an account without EGVs, the newest event's or calibration's.
 */
export function newestRecord(range: DataRangeResponse, anyGroup = false): ClockSample | null {
  if (range.egvs || !anyGroup) return newestOf(range, "egvs");
  const events = newestOf(range, "events");
  const calibrations = newestOf(range, "calibrations");
  return events && calibrations
    ? events.t >= calibrations.t
      ? events
      : calibrations
    : (events ?? calibrations);
}

/**
 * Now on UTC, whole seconds, as the newest record of an account that has none: without a reading
 * there is no receiver's clock to go by, so "the last 30 days" are then UTC days up to now.
 */
export function utcNow(nowMs: number): ClockSample {
  const t = Math.floor(nowMs / 1000) * 1000;
  return { t, displayMs: t };
}

/** A run of the receiver's calendar days, both included (YYYY-MM-DD). */
export interface PatientDays {
  firstDay: string;
  lastDay: string;
}

const DAY_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** Midnight starting `day` on the receiver's clock (naive axis); null for a day that is no date. */
export function dayStartMs(day: string): number | null {
  return DAY_SHAPE.test(day) ? parseDateTime(`${day}T00:00:00`) : null;
}

/** The calendar day of a clock reading on the naive axis. */
export const dayOf = (ms: number): string =>
  formatDateTime(Math.floor(ms / MS_PER_DAY) * MS_PER_DAY).slice(0, 10);

/** The day `n` days after `day` (before, for negative n). */
export const addDays = (day: string, n: number): string => dayOf((dayStartMs(day) ?? 0) + n * MS_PER_DAY);

/** How many calendar days the run holds. */
export const dayCount = (days: PatientDays): number =>
  Math.round(((dayStartMs(days.lastDay) ?? 0) - (dayStartMs(days.firstDay) ?? 0)) / MS_PER_DAY) + 1;

/**
 * A run of days as every page names it: "Thu 12 Nov 2026 – Wed 25 Nov 2026 (14 days)" (the AGP's
 * period, the record pages' and the statistics').
 */
export function patientDaysText(days: PatientDays): string {
  const n = dayCount(days);
  return `${formatDayText(days.firstDay)} – ${formatDayText(days.lastDay)} (${n} ${n === 1 ? "day" : "days"})`;
}

/** "The last `n` days of data": `n` days ending on the receiver's day of the newest reading. */
export function lastPatientDays(newest: ClockSample, n: number): PatientDays {
  const lastDay = dayOf(newest.displayMs);
  return { firstDay: addDays(lastDay, -(n - 1)), lastDay };
}

/** As many days as `days` holds, just before it (the earlier period of a comparison). */
export function previousPatientDays(days: PatientDays): PatientDays {
  const n = dayCount(days);
  return { firstDay: addDays(days.firstDay, -n), lastDay: addDays(days.firstDay, -1) };
}

/**
 * Two picked days checked as a run of at most `maxDays` days: messages say what to change.
 * Both days must lie where a request may read (lib/cgm/window-bounds.ts).
 */
export function checkPatientDays(
  firstDay: string | undefined,
  lastDay: string | undefined,
  maxDays: number,
): { ok: true; days: PatientDays } | { ok: false; message: string } {
  if (!firstDay || !lastDay) return { ok: false, message: "choose both a first and a last day" };
  const start = dayStartMs(firstDay);
  const end = dayStartMs(lastDay);
  if (start === null) return { ok: false, message: "the first day is not a date (YYYY-MM-DD)" };
  if (end === null) return { ok: false, message: "the last day is not a date (YYYY-MM-DD)" };
  if (end < start) return { ok: false, message: "the last day must not be before the first day" };
  if (start < EARLIEST_MS || end > LATEST_MS) {
    return { ok: false, message: `days must lie between ${dayOf(EARLIEST_MS)} and ${dayOf(LATEST_MS)}` };
  }
  const days = { firstDay, lastDay };
  const n = dayCount(days);
  if (n > maxDays) return { ok: false, message: `choose at most ${maxDays} days; these span ${n}` };
  return { ok: true, days };
}

/**
 * The clock offset (displayTime − systemTime, ms) in force at `wallMs` on the receiver's clock:
 * that of the sample nearest to it on that clock, rounded to whole quarter hours (so the drift of
 * a receiver's clock is not read as a change of zone); `fallbackMs` when there is no sample.
 */
export function offsetAt(samples: readonly ClockSample[], wallMs: number, fallbackMs: number): number {
  let best: ClockSample | null = null;
  for (const s of samples) {
    if (!best || Math.abs(s.displayMs - wallMs) < Math.abs(best.displayMs - wallMs)) best = s;
  }
  return best ? offsetMinutesOf(best.t, best.displayMs) * MS_PER_MINUTE : fallbackMs;
}

/**
 * A systemTime instant (a device's last upload, which the service gives in UTC only) on the
 * receiver's clock: moved by the offset of the sample nearest it in time, rounded to quarter
 * hours; by `fallbackMs` without samples.
 */
export function onReceiverClock(t: number, samples: readonly ClockSample[], fallbackMs: number): number {
  let best: ClockSample | null = null;
  for (const s of samples) if (!best || Math.abs(s.t - t) < Math.abs(best.t - t)) best = s;
  return t + (best ? offsetMinutesOf(best.t, best.displayMs) * MS_PER_MINUTE : fallbackMs);
}

/** The receiver's-clock bounds of a run of days: its first 00:00:00 and the midnight after it. */
export function wallBounds(days: PatientDays): { startMs: number; endMs: number } {
  return { startMs: dayStartMs(days.firstDay) ?? 0, endMs: (dayStartMs(days.lastDay) ?? 0) + MS_PER_DAY };
}

/**
 * The systemTime window of `days`: from the first day's 00:00:00 to the last day's 23:59:59 on the
 * receiver's clock, each end moved by the offset in force there. A window reaching past the newest
 * record (`dataEndMs`) ends there: the rest of today has no readings yet, and counting it would
 * lower the sensor's active time. A window that the clock's changes made longer than `maxDays`
 * (90 days across the end of daylight saving are 90 days and an hour) loses that much of its first
 * day: no request may read more (lib/cgm/window-bounds.ts).
 */
export function patientDaysWindow(
  days: PatientDays,
  offsets: { startMs: number; endMs: number },
  dataEndMs: number | null,
  maxDays = Number.POSITIVE_INFINITY,
): { startMs: number; endMs: number } {
  const wall = wallBounds(days);
  let startMs = wall.startMs - offsets.startMs;
  let endMs = wall.endMs - 1000 - offsets.endMs;
  if (dataEndMs !== null && dataEndMs >= startMs && dataEndMs < endMs) endMs = dataEndMs;
  startMs = Math.max(startMs, endMs - maxDays * MS_PER_DAY);
  return { startMs, endMs };
}

/** How far around a guessed boundary records are read to learn the clock offset there. */
export const CLOCK_PROBE_MS = 2 * 60 * MS_PER_MINUTE;

/** The systemTime window read to learn the offset at `wallMs`, guessing the offset is `guessMs`. */
export function clockProbeWindow(wallMs: number, guessMs: number): { startMs: number; endMs: number } {
  const at = wallMs - guessMs;
  return { startMs: at - CLOCK_PROBE_MS, endMs: at + CLOCK_PROBE_MS };
}

/**
 * The days a systemTime window covers on the receiver's clock, its ends moved by the offset of the
 * sample nearest each (for windows given on systemTime, such as the API's startDate/endDate).
 */
export function windowDays(
  window: { startMs: number; endMs: number },
  samples: readonly ClockSample[],
): PatientDays | null {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last) return null;
  return {
    firstDay: dayOf(window.startMs + (first.displayMs - first.t)),
    lastDay: dayOf(window.endMs + (last.displayMs - last.t)),
  };
}
