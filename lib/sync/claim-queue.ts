/**
 * Hands out leased items one at a time, leasing the next batch when the last one is handed out;
 * null once a lease comes back empty. Callers waiting together share the one lease in flight, so
 * a pass's workers never lease twice for one empty queue. Used by the sync pass with
 * store.ts `claimDue`, which leases as many connections as the pass runs at once.
 */
export function claimQueue<T>(lease: () => Promise<T[]>): () => Promise<T | null> {
  const queued: T[] = [];
  let pending: Promise<void> | null = null;
  let exhausted = false;
  return async () => {
    for (;;) {
      if (queued.length > 0) return queued.shift() as T;
      if (exhausted) return null;
      pending ??= lease()
        .then((leased) => {
          queued.push(...leased);
          exhausted = leased.length === 0;
        })
        .finally(() => {
          pending = null;
        });
      await pending;
    }
  };
}
