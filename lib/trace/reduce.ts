import { DEFAULT_MAX_GAP_MS, type GapBreak } from "./gaps";

type Reading = { t: number; value: number; sentinel?: "low" | "high" | null };

// Order matters: reduce AFTER withGapBreaks. Decimated points of one segment can lie more than
// 15 minutes apart, so gaps found after reducing would cut the line everywhere; breaks found before
// are kept here and mark where segments end.
//
// Size: with S segments, output ≤ maxPoints + 2·S + (sentinel points) whenever maxPoints ≥ 3·S.
// Each segment's first and last and the S − 1 breaks come off the budget; the 2·S excess is each
// segment's guaranteed bucket (a short segment squeezed to nothing could hide a low).

/** Min/max decimation per gap-separated segment, keeping first, last, sentinels, and breaks in time order. */
export function reduceForDrawing<P extends Reading | GapBreak>(
  points: P[],
  maxPoints: number,
  maxGapMs: number = DEFAULT_MAX_GAP_MS,
): P[] {
  if (points.length <= maxPoints) return points;
  const items: ReadonlyArray<Reading | GapBreak> = points;

  const segments: Array<[start: number, end: number]> = [];
  let breaks = 0;
  let start = -1;
  for (let i = 0; i < items.length; i++) {
    const p = items[i]!;
    if (p.value === null) {
      breaks++;
      if (start >= 0) segments.push([start, i]);
      start = -1;
      continue;
    }
    if (start >= 0 && p.t - items[i - 1]!.t > maxGapMs) {
      segments.push([start, i]);
      start = i;
    }
    if (start < 0) start = i;
  }
  if (start >= 0) segments.push([start, items.length]);

  const readings = items.length - breaks;
  const bucketBudget = Math.max(0, Math.floor(maxPoints) - 2 * segments.length - breaks);
  const keep = new Uint8Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const p = items[i]!;
    if (p.value === null || (p.sentinel !== null && p.sentinel !== undefined)) keep[i] = 1;
  }
  for (const [first, end] of segments) {
    const last = end - 1;
    keep[first] = 1;
    keep[last] = 1;
    const interior = last - first - 1;
    const buckets = Math.max(1, Math.floor((bucketBudget * (end - first)) / readings / 2));
    if (interior <= 2 * buckets) {
      keep.fill(1, first, end);
      continue;
    }
    for (let b = 0; b < buckets; b++) {
      // Buckets by index: inside a segment readings are evenly spaced, so index stands for time.
      const from = first + 1 + Math.floor((b * interior) / buckets);
      const to = first + 1 + Math.floor(((b + 1) * interior) / buckets);
      let lo = from;
      let hi = from;
      for (let i = from; i < to; i++) {
        const v = (items[i] as Reading).value;
        if (v < (items[lo] as Reading).value) lo = i;
        if (v > (items[hi] as Reading).value) hi = i;
      }
      keep[lo] = 1;
      keep[hi] = 1;
    }
  }
  return points.filter((_, i) => keep[i] === 1);
}
