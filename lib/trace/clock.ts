import { MS_PER_MINUTE, parseDateTime } from "@/lib/cgm/datetime";

// Real zone offsets are whole quarter hours; rounding absorbs the seconds by which the receiver's
// clock and the system clock drift apart, so drift never reads as a zone change.
const OFFSET_STEP_MINUTES = 15;

export interface ClockChange {
  /** systemTime (epoch ms) of the first reading on the new offset. */
  t: number;
  fromMinutes: number;
  toMinutes: number;
}

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

/** Every place where the rounded offset differs from the reading before (points in systemTime order). */
export function clockChanges(points: ReadonlyArray<{ t: number; offsetMinutes: number }>): ClockChange[] {
  const changes: ClockChange[] = [];
  for (let i = 1; i < points.length; i++) {
    const before = points[i - 1]!;
    const p = points[i]!;
    if (p.offsetMinutes !== before.offsetMinutes) {
      changes.push({ t: p.t, fromMinutes: before.offsetMinutes, toMinutes: p.offsetMinutes });
    }
  }
  return changes;
}
