import { MS_PER_MINUTE, parseDateTime } from "./datetime";

// Real zone offsets are whole quarter hours; rounding absorbs the seconds by which the receiver's
// clock and the system clock drift apart, so drift never reads as a zone change.
const OFFSET_STEP_MINUTES = 15;

/** displayTime − systemTime in minutes, rounded to 15; null when either DateTime does not parse. */
export function clockOffsetMinutes(systemTime: string, displayTime: string): number | null {
  const system = parseDateTime(systemTime);
  const display = parseDateTime(displayTime);
  if (system === null || display === null) return null;
  return offsetMinutesOf(system, display);
}

/** displayTime − systemTime in minutes, rounded to 15, for times already read (naive UTC axis). */
export function offsetMinutesOf(systemMs: number, displayMs: number): number {
  // `+ 0` turns the −0 that Math.round yields for small negative drift into 0.
  return Math.round((displayMs - systemMs) / MS_PER_MINUTE / OFFSET_STEP_MINUTES) * OFFSET_STEP_MINUTES + 0;
}
