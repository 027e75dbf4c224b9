import { MS_PER_MINUTE } from "@/lib/cgm/datetime";

// Readings come every 5 minutes; 15 minutes tolerates two lost readings before the line breaks.
export const DEFAULT_MAX_GAP_MS = 15 * MS_PER_MINUTE;

/** A point with no value: recharts with connectNulls={false} stops the line there. */
export interface GapBreak {
  t: number;
  value: null;
}

/** Runs of points (in time order) in which no two neighbours are more than maxGapMs apart. */
export function splitAtGaps<P extends { t: number }>(
  points: readonly P[],
  maxGapMs: number = DEFAULT_MAX_GAP_MS,
): P[][] {
  const segments: P[][] = [];
  let current: P[] = [];
  for (const p of points) {
    const last = current[current.length - 1];
    if (last !== undefined && p.t - last.t > maxGapMs) {
      segments.push(current);
      current = [];
    }
    current.push(p);
  }
  if (current.length > 0) segments.push(current);
  return segments;
}

/** The points with a null-valued break inserted inside every gap longer than maxGapMs. */
export function withGapBreaks<P extends { t: number }>(
  points: readonly P[],
  maxGapMs: number = DEFAULT_MAX_GAP_MS,
): Array<P | GapBreak> {
  const out: Array<P | GapBreak> = [];
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    const before = points[i - 1];
    // The midpoint lies strictly inside the gap, so the break never shares an x with a reading
    // (which a tooltip would then show as empty).
    if (before !== undefined && p.t - before.t > maxGapMs) {
      out.push({ t: before.t + Math.floor((p.t - before.t) / 2), value: null });
    }
    out.push(p);
  }
  return out;
}
