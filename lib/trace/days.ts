import { MS_PER_MINUTE } from "@/lib/cgm/datetime";
import { READING_INTERVAL_MINUTES } from "@/lib/metrics/sensor";

export const READING_INTERVAL_MS = READING_INTERVAL_MINUTES * MS_PER_MINUTE;

/** Points by the calendar day of their displayTime ("yyyy-MM-dd"), days ascending, each in systemTime order. */
export function groupByDisplayDay<P extends { t: number; display: string }>(
  points: readonly P[],
): Map<string, P[]> {
  const byDay = new Map<string, P[]>();
  for (const p of points) {
    const day = p.display.slice(0, 10);
    const list = byDay.get(day);
    if (list) list.push(p);
    else byDay.set(day, [p]);
  }
  // A clock set back (fall-back, travel west) revisits wall-clock times: the patient's day is
  // ordered by when readings happened, never by what the clock said.
  const days = [...byDay.keys()].sort();
  return new Map(days.map((d) => [d, byDay.get(d)!.sort((a, b) => a.t - b.t)]));
}

/** Readings a [startMs, endMs) systemTime window should hold at one per 5 minutes. */
export function expectedReadings(startMs: number, endMs: number): number {
  // The sensor reads every 5 real minutes whatever the wall clock does: counted on systemTime, a
  // 23 h spring-forward day expects 276 readings, not 288, and a 25 h fall-back day 300.
  return Math.max(0, Math.floor((endMs - startMs) / READING_INTERVAL_MS));
}

/** How many readings the [startMs, endMs) systemTime window lacks, never below 0. */
export function missingReadings(
  points: ReadonlyArray<{ t: number }>,
  startMs: number,
  endMs: number,
): number {
  let present = 0;
  for (const p of points) if (p.t >= startMs && p.t < endMs) present++;
  return Math.max(0, expectedReadings(startMs, endMs) - present);
}
