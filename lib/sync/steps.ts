import { fetchAheadInOrder } from "@/lib/service-client/windows";

/**
 * A long read stored in steps: windows are read oldest first, `ahead` at a time, and gathered
 * until they hold `maxRows` rows (a window is never split) or the last one came; each step is then
 * joined and stored with its last window's end, and the next windows are on their way while one
 * is stored. The last step is stored even when empty, so the caller's mark still moves to the end.
 * When a read fails, the windows read before it are stored first (then the failure goes on), so
 * a retry resumes after the last window read, as when each window was stored alone.
 */
export async function fetchInSteps<W extends { endMs: number }, D extends { rows: readonly unknown[] }>(
  windows: readonly W[],
  options: { ahead: number; maxRows: number },
  fetch: (w: W) => Promise<D>,
  join: (parts: readonly D[]) => D,
  store: (step: D, endMs: number) => Promise<void>,
): Promise<void> {
  let pending: D[] = [];
  let pendingEndMs = 0;
  let rows = 0;
  const flush = async () => {
    const step = join(pending);
    pending = [];
    rows = 0;
    await store(step, pendingEndMs);
  };
  const last = windows.at(-1);
  try {
    await fetchAheadInOrder(windows, options.ahead, fetch, async (data, w) => {
      pending.push(data);
      pendingEndMs = w.endMs;
      rows += data.rows.length;
      if (w !== last && rows < options.maxRows) return;
      await flush();
    });
  } catch (e) {
    // A failed read leaves what came before it to store; a failed store left nothing pending
    // (flush takes the step before it stores), so it is not repeated.
    if (pending.length > 0) await flush();
    throw e;
  }
}
