import "server-only";
import { performance } from "node:perf_hooks";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * V8 collects its old generation as it nears its limit, not when the process goes quiet: after
 * five 90-day overviews the server held about 510 MB resident, 170 MB of it garbage, for as long
 * as it stayed idle (bench part `startup`, which reads memory 10 s after the last view). So once
 * the event loop has been quiet for a few seconds after the heap grew, the process collects, and
 * after a few more quiet seconds collects once more to settle (idleAction). Each costs 100–300 ms
 * on 2 cores, taken only when nothing else is running.
 */

/** How often the process looks whether it is idle: short, so a burst's end is seen at once. */
export const IDLE_CHECK_MS = 1_000;
/** The event loop's busy share over one check below which that check counts as quiet. */
export const IDLE_UTILISATION = 0.02;
/**
 * Quiet checks in a row before a collection (counted afresh after each): a pause between a page's
 * requests is not idle.
 */
export const QUIET_CHECKS = 3;
/** Growth of the heap since the last collection worth one (smaller, a collection returns little). */
export const GROWTH_WORTH_COLLECTING_BYTES = 32 * 1024 * 1024;

/** Quiet checks in a row after this one: counts up while the loop is quiet, back to 0 when it is not. */
export function quietChecksAfter(quietChecks: number, utilisation: number): number {
  return utilisation < IDLE_UTILISATION ? quietChecks + 1 : 0;
}

/**
 * What to do at a check, once quiet long enough: "collect" when the heap has grown enough since the
 * last collection; else "settle" when the last collection is still to be settled. The first
 * collection, right after a burst, frees the garbage, but V8 keeps its young generation at its
 * grown size (32 MB) and the pages it did not compact (measured: 84 MB live in 137–173 MB of
 * heap); one more once the process has stayed quiet gives them back (93–106 MB of heap).
 */
export function idleAction(sample: {
  quietChecks: number;
  heapUsed: number;
  heapAfterLastCollection: number;
  settlePending: boolean;
}): "collect" | "settle" | null {
  if (sample.quietChecks < QUIET_CHECKS) return null;
  if (sample.heapUsed - sample.heapAfterLastCollection >= GROWTH_WORTH_COLLECTING_BYTES) return "collect";
  return sample.settlePending ? "settle" : null;
}

/** V8's own full collection; undefined where it cannot be reached. */
function v8FullCollection(): (() => void) | undefined {
  // The one documented way to reach V8's collector without a command-line flag, so that every way
  // of starting the server (npm start, a container's own command) gets it.
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as unknown;
  return typeof gc === "function" ? (gc as () => void) : undefined;
}

/**
 * Starts the idle collector of this process (instrumentation.ts); its timer never keeps the process
 * up. Returns what stops it. `collect` and `heapUsed` are V8's unless given (tests count the
 * collections against a heap they control).
 */
export function collectGarbageWhenIdle(
  options: { collect?: () => void; heapUsed?: () => number } = {},
): () => void {
  const collect = options.collect ?? v8FullCollection();
  if (!collect) return () => {};
  const heapUsed = options.heapUsed ?? (() => getHeapStatistics().used_heap_size);
  let last = performance.eventLoopUtilization();
  let quietChecks = 0;
  let heapAfterLastCollection = heapUsed();
  let settlePending = false;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    quietChecks = quietChecksAfter(quietChecks, performance.eventLoopUtilization(now, last).utilization);
    last = now;
    const action = idleAction({ quietChecks, heapUsed: heapUsed(), heapAfterLastCollection, settlePending });
    if (!action) return;
    collect();
    heapAfterLastCollection = heapUsed();
    settlePending = action === "collect";
    quietChecks = 0;
    // The collection's own time is not the next check's work.
    last = performance.eventLoopUtilization();
  }, IDLE_CHECK_MS).unref();
  return () => clearInterval(timer);
}
