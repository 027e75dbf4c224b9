import { MS_PER_MINUTE } from "@/lib/cgm/datetime";

/**
 * Sliding-window limits on failed clinician sign-ins: at most 5 failures per email and 20 per
 * client address in any 15 minutes; and on demo clinics made (each one an account and a clinic
 * kept for a week): at most 5 per client address in any 15 minutes, so that nobody can fill the
 * database with them. Pure: the store (attempts.ts) reads the attempts'
 * times and asks; the answer says whether to refuse and for how long.
 */

export const WINDOW_MS = 15 * MS_PER_MINUTE;
export const LIMITS = { email: 5, ip: 20, demoPerIp: 5 } as const;

export type LimitDecision = { limited: false } | { limited: true; retryAfterS: number };

/**
 * With `limit` failures or more inside the window, the next attempt is refused until enough of
 * them have left the window for one more to fit: the failure at index count − limit (oldest first).
 */
export function limitDecision(
  failures: readonly Date[],
  now: Date,
  limit: number,
  windowMs = WINDOW_MS,
): LimitDecision {
  const since = now.getTime() - windowMs;
  const recent = failures
    .map((d) => d.getTime())
    .filter((t) => t > since && t <= now.getTime())
    .sort((a, b) => a - b);
  if (recent.length < limit) return { limited: false };
  const freesAt = (recent[recent.length - limit] ?? now.getTime()) + windowMs;
  return { limited: true, retryAfterS: Math.max(1, Math.ceil((freesAt - now.getTime()) / 1000)) };
}

/** The stricter of several decisions: refused if any refuses, for the longest wait. */
export function combine(decisions: readonly LimitDecision[]): LimitDecision {
  let wait = 0;
  for (const d of decisions) if (d.limited) wait = Math.max(wait, d.retryAfterS);
  return wait > 0 ? { limited: true, retryAfterS: wait } : { limited: false };
}

/** "in 12 minutes", "in 1 minute", "in 40 seconds": for the message a person reads. */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return `in ${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `in ${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/**
 * The client's address as the nearest hop saw it: the last X-Forwarded-For entry, which a proxy in
 * front of us appends (and `next start` sets from the socket when there is no proxy and no header).
 * Without a proxy a client can choose it; the per-email limit does not depend on it.
 */
export function clientAddress(forwardedFor: string | null): string {
  const last = forwardedFor?.split(",").at(-1)?.trim();
  return last && last.length <= 64 ? last : "unknown";
}
