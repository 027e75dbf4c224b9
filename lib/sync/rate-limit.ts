/**
 * Pacing of the sync's service calls under the service's rate limit (the real one: 60,000 calls
 * per app per hour), shared by every process of one app registration. No I/O here: the database
 * side (lib/sync/limiter.ts) applies `nextTat` in one atomic statement on a row per app.
 *
 * The algorithm is GCRA (the "generic cell rate algorithm" of ATM networks, a token bucket kept as
 * one timestamp): `tat`, the theoretical arrival time, is when the calls reserved so far would be
 * done if each took one `intervalMs`. A call reserves `intervalMs` after max(tat, now) and may start
 * once it is no more than `burst` intervals ahead of now. Why this and not a counter per clock
 * hour: a counter lets a full hour's budget through at 10:59 and another at 11:00, twice the limit
 * in one sliding hour; we do not know how the service draws its hours, so the pacing must hold in
 * every window. Why reserve-then-wait instead of try-and-retry: one statement per call, no polling,
 * and callers are served in the order they asked, so no worker starves.
 *
 * The bound: a call that starts at s has tat ≥ s + interval, and the k-th call after it has
 * tat ≥ s + (k + 1)·interval and starts no earlier than its tat − burst·interval; so a window of
 * length P holds fewer than burst + P / interval calls. With interval ≥ P / (calls − burst + 1)
 * that is at most `calls` (and the margin below leaves room for the time a request takes to
 * leave). The burst lets a small pass after an idle spell go at full speed; it is
 * a sixtieth of the limit (one minute's worth), taken from the steady rate.
 */

export interface RateLimit {
  /** At most this many calls in any window of `periodMs`. */
  calls: number;
  periodMs: number;
}

export interface Pacing {
  intervalMs: number;
  burst: number;
}

export function pacing(limit: RateLimit): Pacing {
  if (!(limit.calls >= 1) || !(limit.periodMs > 0))
    throw new RangeError("A rate limit needs calls ≥ 1 and a period.");
  const burst = Math.max(1, Math.floor(limit.calls / 60));
  // The schedule is kept on the database's clock, but a request leaves a database round trip and
  // a timer later, by a little more for one call than for the next (an event loop busy parsing a
  // large answer, a loaded machine); so the period is stretched by a margin (1%, at least 1 s) for
  // that jitter. 250 ms proved too little on a loaded CI machine: a call a quarter second late
  // and the next on time put six calls into a 2 s window of a 5-per-2 s limit.
  // Whole milliseconds, rounded up, so that a call due exactly at the end of a window does not fall
  // inside it by a rounding error.
  const margin = Math.max(limit.periodMs / 100, 1_000);
  return { burst, intervalMs: Math.ceil((limit.periodMs + margin) / (limit.calls - burst + 1)) };
}

/** The tat after one more call is reserved at `nowMs` (null: the first call ever). */
export function nextTat(tatMs: number | null, nowMs: number, p: Pacing): number {
  return Math.max(tatMs ?? nowMs, nowMs) + p.intervalMs;
}

/** How long the call that moved the tat to `tatMs` waits before it starts. */
export function waitMs(tatMs: number, nowMs: number, p: Pacing): number {
  return Math.max(0, tatMs - p.burst * p.intervalMs - nowMs);
}

/** The most calls that start within any window of `periodMs` (start inclusive, end exclusive). */
export function maxInWindow(startsMs: readonly number[], periodMs: number): number {
  const s = [...startsMs].sort((a, b) => a - b);
  let most = 0;
  let from = 0;
  for (let to = 0; to < s.length; to++) {
    while ((s[to] as number) - (s[from] as number) >= periodMs) from++;
    most = Math.max(most, to - from + 1);
  }
  return most;
}

/**
 * A call that would have waited longer than its caller allows for the shared rate limit (a "Sync
 * now", which a person waits for), refused without taking a turn: `retryAfterSeconds` until the
 * turn it would have had.
 */
export class RateLimitBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(
      `The glucose service's shared rate limit is used up for now; try again in ${retryAfterSeconds} s (the background sync goes on meanwhile).`,
    );
    this.name = "RateLimitBusy";
  }
}
