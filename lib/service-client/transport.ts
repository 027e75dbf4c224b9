/**
 * One HTTP exchange with the service, retried the way a polite client retries: only statuses that
 * say "try again" (408, 425, 429, 500, 502, 503, 504) and network failures, with exponential
 * backoff and full jitter (AWS Architecture Blog, "Exponential Backoff and Jitter"), honouring
 * Retry-After (RFC 9110 section 10.2.3, seconds or an HTTP date), and never past a total budget so a
 * page request cannot hang behind an outage. The caller's signal (`init.signal`: the request whose
 * client went away) stops it at once: the attempt under way, the wait before a retry, and any
 * attempt not yet started. Kept free of tokens and config so it can be tested alone.
 */
import { setTimeout as delay } from "node:timers/promises";

export type ServiceErrorCode =
  | "unavailable"
  | "rate_limited"
  | "upstream_error"
  | "malformed_response"
  | "network";

/** The service could not give us what we asked for; `status` is the upstream status (0 for network). */
export class ServiceError extends Error {
  constructor(
    readonly code: ServiceErrorCode,
    readonly status: number,
    message: string,
    readonly upstreamBody?: unknown,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

/** The caller stopped wanting the answer (its signal aborted): nothing more is asked of the service. */
export class CallsAbandoned extends Error {
  constructor() {
    super("The calls to the service were abandoned: whoever asked has gone.");
    this.name = "CallsAbandoned";
  }
}

function assertWanted(signal: AbortSignal | null | undefined): void {
  if (signal?.aborted) throw new CallsAbandoned();
}

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 425, 429, 500, 502, 503, 504]);

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** No retry is started if it would end after this many ms from the first attempt. */
  maxTotalMs: number;
  attemptTimeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
  maxTotalMs: 15_000,
  attemptTimeoutMs: 20_000,
};

/** Retry-After as milliseconds, or null when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs: number): number | null {
  if (header === null) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

/** Full jitter: a uniform wait in [0, min(cap, base * 2^attempt)). `random` is injectable for tests. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/** Whether a URL's host is this machine (localhost, 127.0.0.0/8, ::1). */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The request's headers, asking a service on this machine (the embedded sandbox, or one beside
 * the app) for its answer uncompressed unless the caller chose an encoding. Over loopback there is
 * no bandwidth to save, and gzip costs CPU twice, on this process's one thread when the sandbox is
 * embedded: the service's compression of every answer and undici's inflating of it (zlib was the
 * top of the overview's profile). A remote service is still asked for gzip as fetch always asks.
 */
export function withEncodingFor(url: string, headers: RequestInit["headers"]): Headers {
  const h = new Headers(headers);
  if (!h.has("Accept-Encoding") && isLoopback(url)) h.set("Accept-Encoding", "identity");
  return h;
}

/**
 * Fetches with retries. Returns the last Response, which may itself be an error status (a
 * non-retryable one at once, a retryable one once the attempts or the budget run out), so the
 * caller decides what each status means. Network failures that outlast the retries throw
 * ServiceError("network").
 */
export async function fetchWithRetry(
  url: string,
  init: RequestInit,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  /** Awaited before every attempt (a rate limit's turn); the service counts retries too. */
  beforeAttempt?: () => Promise<void>,
): Promise<Response> {
  const startedAt = Date.now();
  const caller = init.signal;
  const headers = withEncodingFor(url, init.headers);
  for (let attempt = 0; ; attempt++) {
    const last = attempt + 1 >= policy.maxAttempts;
    let response: Response | null = null;
    let failure: unknown = null;
    assertWanted(caller);
    await beforeAttempt?.();
    // A gate may have made it wait (the sync's rate limit): the caller may be gone meanwhile.
    assertWanted(caller);
    const timeout = AbortSignal.timeout(policy.attemptTimeoutMs);
    try {
      response = await fetch(url, {
        ...init,
        headers,
        signal: caller ? AbortSignal.any([caller, timeout]) : timeout,
      });
    } catch (e) {
      assertWanted(caller);
      failure = e;
    }
    if (response && !RETRYABLE_STATUSES.has(response.status)) return response;
    const wait = Math.max(
      backoffMs(attempt, policy),
      response ? (retryAfterMs(response.headers.get("Retry-After"), Date.now()) ?? 0) : 0,
    );
    if (last || Date.now() - startedAt + wait > policy.maxTotalMs) {
      if (response) return response;
      throw new ServiceError("network", 0, `The service could not be reached: ${String(failure)}`);
    }
    await response?.body?.cancel();
    await delay(wait, undefined, caller ? { signal: caller } : {}).catch(() => assertWanted(caller));
  }
}
