import "server-only";
import { performance } from "node:perf_hooks";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * V8 collects its old generation as it nears its limit, not when the process goes quiet: after
 * five 90-day overviews the server held about 590 MB resident, 230 MB of it garbage, for as long
 * as it stayed idle (bench part `startup`). One full collection once the event loop has been
 * quiet for a while gives it back (about 370 MB). It costs one collection (100–200 ms on 2 cores),
 * taken only when nothing else is running, and only after the heap has grown.
 */

/** How often the process looks whether it is idle. */
export const IDLE_CHECK_MS = 10_000;
/** The event loop's busy share over the last check below which the process counts as idle. */
export const IDLE_UTILISATION = 0.02;
/** Growth of the heap since the last collection worth one (smaller, a collection returns little). */
export const GROWTH_WORTH_COLLECTING_BYTES = 32 * 1024 * 1024;

/** Whether to collect now: idle over the last check, and grown enough since the last collection. */
export function shouldCollect(sample: {
  utilisation: number;
  heapUsed: number;
  heapAfterLastCollection: number;
}) {
  return (
    sample.utilisation < IDLE_UTILISATION &&
    sample.heapUsed - sample.heapAfterLastCollection >= GROWTH_WORTH_COLLECTING_BYTES
  );
}

/** Starts the idle collector of this process (instrumentation.ts); its timer never keeps the process up. */
export function collectGarbageWhenIdle(): void {
  // The one documented way to reach V8's collector without a command-line flag, so that every way
  // of starting the server (npm start, a container's own command) gets it.
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as (() => void) | undefined;
  if (typeof gc !== "function") return;
  const heapUsed = () => getHeapStatistics().used_heap_size;
  let last = performance.eventLoopUtilization();
  let heapAfterLastCollection = heapUsed();
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    const utilisation = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (!shouldCollect({ utilisation, heapUsed: heapUsed(), heapAfterLastCollection })) return;
    gc();
    heapAfterLastCollection = heapUsed();
    // The collection's own time is not the next check's work.
    last = performance.eventLoopUtilization();
  }, IDLE_CHECK_MS).unref();
}
