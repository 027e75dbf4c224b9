import "server-only";
import { env } from "@/lib/platform/env";
import { CallBudget, CallBudgetExceeded } from "./call-budget";
import type { CallContext } from "./call-gate";

/**
 * The service calls of one request made on behalf of a signed-in user (a patient, or a clinician
 * viewing a patient): each attempt is charged to that user's budget of
 * CGM_USER_CALLS_PER_MINUTE (CallBudgetExceeded past it, a 429 to the user), and none starts
 * once the request's client has gone (`signal`). A clinician's "Sync now" runs its sync in this
 * context too (then each call also waits its turn under the sync's rate limit); the background
 * sync runs outside it (withCallGate), so it is never charged to anyone's budget.
 *
 * The budget is counted in this process's memory: with several server processes behind a load
 * balancer a user may get up to that many times the budget. That is enough for what it is for,
 * keeping one person (or one stolen session) from holding a server and spending the app's shared
 * rate limit, without a database write before every call; the sync's own pacing, which must hold
 * across processes, is kept in the database (lib/sync/limiter.ts).
 */

declare global {
  // One budget per process: Next bundles this module once for pages and once for route handlers,
  // and a user's pages and API calls spend the same budget.
  var __cgmCallBudget: CallBudget | undefined;
}

function callBudget(): CallBudget {
  globalThis.__cgmCallBudget ??= new CallBudget(env().CGM_USER_CALLS_PER_MINUTE);
  return globalThis.__cgmCallBudget;
}

/** `signal`: the request's, where there is one (API routes; Server Components get none). */
export function requestCalls(userId: string, signal?: AbortSignal): CallContext {
  const budget = callBudget();
  return { signal, gate: async () => budget.charge(userId, Date.now()) };
}

/**
 * The 429 `userId` would meet on their next call, or null while a call is left: asked before
 * work that spends the budget out of this request's sight (a page rendered for a PDF).
 */
export function callBudgetRefusal(userId: string): CallBudgetExceeded | null {
  return callBudget().refusal(userId, Date.now());
}

/**
 * The 429 for work that met the spent budget (a page rendered for a PDF showed the budget's
 * notice): the wait until a call is free, at least a second even if one came free meanwhile.
 */
export function callBudgetSpent(userId: string): CallBudgetExceeded {
  return callBudgetRefusal(userId) ?? new CallBudgetExceeded(callBudget().calls, 1);
}
