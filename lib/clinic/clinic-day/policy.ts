/**
 * The runner's and the packet's rules in numbers, pure so they are tested without a database:
 * how often an item is tried before it fails for good, how often an idle runner looks for work,
 * and when a finished packet's PDFs are deleted.
 */

/**
 * Claims of one item (a render that ran out of the call budget, a lease that expired, a process
 * that crashed mid-render) before it fails with GAVE_UP: a render that kills its process every
 * time must not take the runner down forever. Retry from the page starts the count again.
 */
export const CLINIC_DAY_MAX_ATTEMPTS = 5;

export const GAVE_UP = `The report could not be prepared in ${CLINIC_DAY_MAX_ATTEMPTS} attempts (the glucose service was busy or the server restarted each time): Retry later.`;

/** What becomes of an item that is to be tried again, after its `attempts`-th claim. */
export function afterTransient(attempts: number): { kind: "wait" } | { kind: "failed"; reason: string } {
  return attempts >= CLINIC_DAY_MAX_ATTEMPTS ? { kind: "failed", reason: GAVE_UP } : { kind: "wait" };
}

/**
 * How long an idle runner waits before it looks again (one indexed "anything pending?" read),
 * after `idleRounds` looks that found nothing: 5 s, doubling up to a minute. Work made or retried
 * in this process wakes it at once; the first look after a start resumes what a restart stopped.
 */
export const IDLE_FIRST_MS = 5_000;
export const IDLE_MAX_MS = 60_000;
export function idleDelayMs(idleRounds: number): number {
  return Math.min(IDLE_MAX_MS, IDLE_FIRST_MS * 2 ** Math.max(0, Math.min(idleRounds, 16)));
}

/**
 * When a packet's PDFs are deleted: CLINIC_DAY_RETENTION_HOURS after its last patient finished.
 * Null while it is still being prepared (nothing to keep yet).
 */
export function packetExpiresAt(lastFinishedAt: Date | null, finished: boolean, hours: number): Date | null {
  if (!finished || !lastFinishedAt) return null;
  return new Date(lastFinishedAt.getTime() + hours * 3_600_000);
}

export function isExpired(expiresAt: Date | null, now: Date): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now.getTime();
}
