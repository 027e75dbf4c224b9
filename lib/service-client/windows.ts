import { MS_PER_DAY, MS_PER_SECOND } from "@/lib/cgm/datetime";
import type { WindowMs } from "@/lib/cgm/window";

/**
 * Splitting a long read into windows the service accepts, and putting the answers back together.
 * The service's windows are inclusive at both ends with a resolution of one second, so chunk k ends
 * one second before chunk k+1 starts: no record falls in two chunks and none between them. The merge
 * still removes duplicates by key, since a record can move between chunks while we read (smoothed
 * values arrive late).
 */

/** Consecutive chunks of at most `maxDays` covering [startMs, endMs] exactly. */
export function splitWindow(startMs: number, endMs: number, maxDays: number): WindowMs[] {
  if (endMs < startMs) return [];
  const span = maxDays * MS_PER_DAY;
  const chunks: WindowMs[] = [];
  let from = startMs;
  while (endMs - from > span) {
    chunks.push({ startMs: from, endMs: from + span - MS_PER_SECOND });
    from += span;
  }
  chunks.push({ startMs: from, endMs });
  return chunks;
}

/**
 * The same for API v3, whose windows include their start and exclude their end (service-v3-notes.md
 * §1.2): consecutive chunks [startMs, endMs) of at most `maxDays` each, covering the app's window
 * [startMs, endMs] including its end, so the last chunk ends one second (the resolution of the
 * service's times) after it. Each chunk starts where the one before ends: nothing falls in two
 * chunks or between them. A window of exactly `maxDays` days therefore takes a second chunk of one
 * second, as no chunk may be longer than the limit.
 */
export function splitWindowEndExclusive(startMs: number, endMs: number, maxDays: number): WindowMs[] {
  if (endMs < startMs) return [];
  const span = maxDays * MS_PER_DAY;
  const end = endMs + MS_PER_SECOND;
  const chunks: WindowMs[] = [];
  for (let from = startMs; from < end; from += span)
    chunks.push({ startMs: from, endMs: Math.min(from + span, end) });
  return chunks;
}

/**
 * Concatenates chunk results, keeping the first of any records with the same key and the order
 * they came in (chunks are in time order and each is ordered by the service).
 */
export function mergeBySystemTime<T extends { systemTime: string }>(
  parts: readonly (readonly T[])[],
  key: (record: T) => string = (r) => r.systemTime,
): T[] {
  const seen = new Set<string>();
  const merged: T[] = [];
  for (const part of parts) {
    for (const record of part) {
      const k = key(record);
      if (seen.has(k)) continue;
      seen.add(k);
      merged.push(record);
    }
  }
  return merged;
}

/**
 * Runs `task` over `items` with at most `limit` in flight; results keep the items' order. Once a
 * task fails no new one starts (the answer is lost anyway: a refused budget, a caller gone, the
 * service failing), and the tasks under way are left to settle.
 */
export async function mapWithConcurrency<I, O>(
  items: readonly I[],
  limit: number,
  task: (item: I, index: number) => Promise<O>,
): Promise<O[]> {
  const results = new Array<O>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const index = next++;
      try {
        results[index] = await task(items[index] as I, index);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Fetches `items` with at most `ahead` in flight and hands each result to `consume` in the items'
 * order, one at a time: while one is consumed (written to the database, say) the next ones are
 * already on their way. A failure stops the run; fetches already started are left to settle.
 */
export async function fetchAheadInOrder<I, O>(
  items: readonly I[],
  ahead: number,
  fetch: (item: I) => Promise<O>,
  consume: (result: O, item: I) => Promise<void>,
): Promise<void> {
  const started: Promise<O>[] = [];
  const start = (k: number) => {
    if (k >= items.length) return;
    const p = fetch(items[k] as I);
    // Awaited below unless an earlier step fails; then its rejection must not go unhandled.
    p.catch(() => {});
    started[k] = p;
  };
  for (let k = 0; k < Math.min(ahead, items.length); k++) start(k);
  for (let k = 0; k < items.length; k++) {
    const result = await (started[k] as Promise<O>);
    start(k + ahead);
    await consume(result, items[k] as I);
  }
}
