/**
 * A budget of service calls per user: at most `calls` in any window of `windowMs`, counted as a
 * log of each user's recent calls (a sliding window, exact in every minute, unlike a counter per
 * clock minute that lets twice the budget through across a minute's edge). Every attempt is
 * charged, retries and window chunks included, since each one costs the service a request. No
 * I/O here; lib/service-client/request-calls.ts charges it before each call of a request.
 */

export const BUDGET_WINDOW_MS = 60_000;

// Next bundles this module once per layer (pages, route handlers) while one budget serves both
// (request-calls.ts): the error is recognised by a registered symbol every copy shares.
const EXCEEDED = Symbol.for("glucose-dashboard.CallBudgetExceeded");

/** A user asked for more calls than the budget allows; `retryAfterSeconds` until one is free. */
export class CallBudgetExceeded extends Error {
  readonly [EXCEEDED] = true;
  static override [Symbol.hasInstance](x: unknown): boolean {
    return typeof x === "object" && x !== null && EXCEEDED in x;
  }
  constructor(
    readonly calls: number,
    readonly retryAfterSeconds: number,
  ) {
    super(
      `Your requests asked the glucose service for more than ${calls} reads in a minute; try again in ${retryAfterSeconds} s.`,
    );
    this.name = "CallBudgetExceeded";
  }
}

/** Idle users' logs are dropped every this many charges, so memory follows the active users. */
const SWEEP_EVERY = 1_000;

export class CallBudget {
  private readonly logs = new Map<string, number[]>();
  private charges = 0;

  constructor(
    readonly calls: number,
    readonly windowMs = BUDGET_WINDOW_MS,
  ) {
    if (!(calls >= 1) || !(windowMs > 0)) throw new RangeError("A call budget needs calls ≥ 1 and a window.");
  }

  /** Counts one call of `user` at `nowMs`, or throws CallBudgetExceeded (and counts nothing). */
  charge(user: string, nowMs: number): void {
    const refused = this.refusal(user, nowMs);
    if (refused) throw refused;
    const log = this.recent(user, nowMs);
    log.push(nowMs);
    this.logs.set(user, log);
    if (++this.charges % SWEEP_EVERY === 0) this.sweep(nowMs);
  }

  /**
   * Why `user` may make no call at `nowMs` (the error charge would throw), or null while one is
   * left. Counts nothing: for work that spends calls somewhere this budget cannot see (the PDF's
   * page render, in a browser of its own) and should not start when none is left.
   */
  refusal(user: string, nowMs: number): CallBudgetExceeded | null {
    const log = this.recent(user, nowMs);
    if (log.length < this.calls) return null;
    const freeAtMs = (log[0] as number) + this.windowMs;
    return new CallBudgetExceeded(this.calls, Math.max(1, Math.ceil((freeAtMs - nowMs) / 1000)));
  }

  /** Calls of `user` in the window ending at `nowMs`. */
  used(user: string, nowMs: number): number {
    return this.recent(user, nowMs).length;
  }

  /** Users whose calls are still kept (idle ones go at the next sweep). */
  get users(): number {
    return this.logs.size;
  }

  private recent(user: string, nowMs: number): number[] {
    const log = this.logs.get(user) ?? [];
    const from = nowMs - this.windowMs;
    let stale = 0;
    while (stale < log.length && (log[stale] as number) <= from) stale++;
    return stale ? log.slice(stale) : log;
  }

  private sweep(nowMs: number): void {
    for (const [user, log] of this.logs) {
      if ((log[log.length - 1] ?? 0) <= nowMs - this.windowMs) this.logs.delete(user);
    }
  }
}
