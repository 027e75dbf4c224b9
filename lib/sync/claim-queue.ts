/**
 * Hands out leased items to callers, leasing only as many as callers are waiting when the lease
 * starts, so that every item leased is handed to a caller that starts on it at once: none sits
 * leased in a queue while a "Sync now" is told that its sync is running. Callers that arrive
 * together (a pass's workers at its start, in one tick) are counted into one lease, so a pass's
 * first lease is as large as it runs at once; later ones follow the workers as they come free.
 * Null once a lease comes back with fewer items than asked (nothing more is due). Used by the sync
 * pass with store.ts `claimDue`.
 */
export function claimQueue<T>(lease: (count: number) => Promise<T[]>): () => Promise<T | null> {
  const leased: T[] = [];
  let waiting = 0;
  let pending: Promise<void> | null = null;
  let exhausted = false;
  const leaseForWaiting = async () => {
    // One tick later: the callers that arrived together are all counted.
    await Promise.resolve();
    const count = waiting;
    const items = await lease(count);
    leased.push(...items);
    exhausted = items.length < count;
  };
  return async () => {
    waiting++;
    try {
      for (;;) {
        if (leased.length > 0) return leased.shift() as T;
        if (exhausted) return null;
        pending ??= leaseForWaiting().finally(() => {
          pending = null;
        });
        await pending;
      }
    } finally {
      waiting--;
    }
  };
}
