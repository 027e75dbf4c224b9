import { MS_PER_DAY, MS_PER_HOUR } from "@/lib/cgm/datetime";
import { convertGlucose, type GlucoseUnit, roundForUnit } from "@/lib/cgm/units";
import { MEASURING_RANGE_MGDL } from "@/lib/cgm/values";
import {
  HIGH_MAX_MGDL,
  IN_RANGE_MAX_MGDL,
  LOW_BELOW_MGDL,
  VERY_LOW_BELOW_MGDL,
} from "@/lib/metrics/constants";

/** A share of the day in percent as hours per day (4 % → 0.96 h). */
export function hoursPerDay(percent: number): number {
  return (percent * 24) / 100;
}

/** Minutes as a person reads a duration: "45 min", "2 h", "3 h 29 min". */
export function formatDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** A percentage for people: one decimal below 1 %, whole numbers otherwise ("0.4%", "71%"). */
export function formatPercent(percent: number): string {
  // The consensus target for time below 54 mg/dL is < 1 %: shown as a whole number, 0.4 % would read
  // "0%" (no lows at all) and 0.6 % "1%" (target missed); the decimal keeps the target readable.
  return percent < 1 ? `${percent.toFixed(1)}%` : `${Math.round(percent)}%`;
}

// Measuring-range edges and the consensus range boundaries: the lines a reader looks for.
const TICKS_MGDL = [
  MEASURING_RANGE_MGDL.min,
  VERY_LOW_BELOW_MGDL,
  LOW_BELOW_MGDL,
  IN_RANGE_MAX_MGDL,
  HIGH_MAX_MGDL,
  MEASURING_RANGE_MGDL.max,
] as const;

/** Y-axis ticks in the unit: [40, 54, 70, 180, 250, 400] mg/dL or [2.2, 3.0, 3.9, 10.0, 13.9, 22.2] mmol/L. */
export function axisTicks(unit: GlucoseUnit): number[] {
  return TICKS_MGDL.map((mgdl) => roundForUnit(convertGlucose(mgdl, "mg/dL", unit), unit));
}

/**
 * A systemTime as the patient's clock showed it: the wall clock is systemTime + the offset in
 * force (displayTime − systemTime), formatted as UTC so the viewer's own zone plays no part.
 * Spans up to two days label hours ("14:05"); longer ones days ("Sun 22 Nov").
 */
export function wallClockLabel(t: number, offsetMinutes: number, spanMs: number): string {
  const wall = new Date(t + offsetMinutes * 60_000);
  const hh = String(wall.getUTCHours()).padStart(2, "0");
  const mm = String(wall.getUTCMinutes()).padStart(2, "0");
  if (spanMs <= 2 * MS_PER_DAY) return `${hh}:${mm}`;
  return dayText(wall);
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/** The offset in force at t, given the first reading's offset and the changes after it. */
export function offsetAt(
  t: number,
  initialOffsetMinutes: number,
  changes: ReadonlyArray<{ t: number; toMinutes: number }>,
): number {
  let offset = initialOffsetMinutes;
  for (const c of changes) {
    if (c.t > t) break;
    offset = c.toMinutes;
  }
  return offset;
}

/** A displayTime ("2026-11-22T14:05:00") for people: "Sun 22 Nov, 14:05". */
export function formatDisplayTime(displayTime: string): string {
  const d = displayDate(displayTime);
  return d ? `${dayText(d)}, ${displayTime.slice(11, 16)}` : displayTime;
}

/** The day of a displayTime for people: "Sun 22 Nov". */
export function formatDisplayDay(displayTime: string): string {
  const d = displayDate(displayTime);
  return d ? dayText(d) : displayTime;
}

// displayTime is the receiver's wall clock without a zone: read on the UTC axis, so the viewer's
// own zone plays no part.
function displayDate(displayTime: string): Date | null {
  const ms = Date.parse(`${displayTime.slice(0, 19)}Z`);
  return Number.isNaN(ms) ? null : new Date(ms);
}

const dayText = (d: Date) => `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;

// Hour steps divide the day, so every tick falls on the same wall-clock hours each day.
const TICK_STEPS_MS = [
  MS_PER_HOUR,
  2 * MS_PER_HOUR,
  3 * MS_PER_HOUR,
  6 * MS_PER_HOUR,
  12 * MS_PER_HOUR,
  MS_PER_DAY,
  2 * MS_PER_DAY,
  7 * MS_PER_DAY,
  14 * MS_PER_DAY,
];

/**
 * x-axis ticks (systemTime) at round times of the patient's own clock: whole hours (every 1–12 h)
 * or midnights (every 1–14 days), the smallest step giving at most `maxTicks`. Where the clock
 * changed, a wall time is placed with the offset in force there.
 */
export function roundWallClockTicks(
  startMs: number,
  endMs: number,
  initialOffsetMinutes: number,
  changes: ReadonlyArray<{ t: number; toMinutes: number }>,
  maxTicks = 8,
): number[] {
  const span = endMs - startMs;
  const step = TICK_STEPS_MS.find((s) => span / s <= maxTicks) ?? TICK_STEPS_MS.at(-1)!;
  const unit = Math.min(step, MS_PER_DAY);
  const every = step / unit;
  const offsetMs = (t: number) => offsetAt(t, initialOffsetMinutes, changes) * 60_000;
  const ticks: number[] = [];
  let previous = startMs;
  let candidates = 0;
  for (let wall = Math.ceil((startMs + offsetMs(startMs)) / unit) * unit; ; wall += unit) {
    const t = wall - offsetMs(wall - offsetMs(previous));
    if (t > endMs) break;
    previous = t;
    // Day steps count from the first midnight shown, so a 7-day step starts on the first day.
    if (t >= startMs && candidates++ % every === 0) ticks.push(t);
  }
  return ticks;
}
