import "server-only";
import { MS_PER_MINUTE } from "@/lib/cgm";
import { env } from "@/lib/platform/env";
import { describeError, runSyncPass, summaryLine } from "./pass";

/**
 * Passes at a fixed interval, one at a time in this process (a pass that runs long delays the
 * next instead of overlapping it). Used by the server when SYNC_IN_PROCESS=on and by
 * `npm run sync -- --watch`. A pass that throws (the database is down) is logged and the next one
 * comes at the usual time; a connection's own failures are in its sync state.
 */
export interface Scheduler {
  /** Stops after the pass in progress, if any; resolves when it has ended. */
  stop(): Promise<void>;
}

/**
 * A connection synced by any process within this share of the interval is left for the next pass.
 * Below 1 so that one process's own passes, an interval apart (counted from a pass's end), never
 * skip what they synced last time; high enough that staggered processes do not repeat each other.
 */
const FRESH_SHARE = 0.8;

export function startSyncScheduler(options: {
  firstDelayMs: number;
  /** The server's timers must not keep a stopping process alive; the watch script's must. */
  unref: boolean;
  log?: (line: string) => void;
}): Scheduler {
  const log = options.log ?? ((line: string) => console.log(line));
  const intervalMs = env().SYNC_INTERVAL_MINUTES * MS_PER_MINUTE;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runSyncPass({ freshForMs: FRESH_SHARE * intervalMs })
        .then((summary) => log(summaryLine(summary)))
        .catch((e) => log(`sync pass failed: ${describeError(e)}`))
        .finally(() => schedule(intervalMs));
    }, delayMs);
    if (options.unref) timer.unref();
  };
  schedule(options.firstDelayMs);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
