import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What the service calls made inside `withCallGate` / `withCallContext` answer to: a gate awaited
 * before each request to the service, and the signal that abandons them. The background sync
 * paces its calls under the service's rate limit with a gate (lib/sync/limiter.ts); a request of
 * the dashboard's API charges its user's call budget with one and stops its calls when its client
 * goes away (lib/service-client/request-calls.ts). The gate is asked before every attempt, retries
 * included, because the service counts every request it receives. An async context and not a
 * parameter, so that the typed calls (getEgvs, …) and their window chunks need no extra argument
 * for a concern only their callers have.
 */
export type CallGate = () => Promise<void>;

export interface CallContext {
  gate?: CallGate;
  /** Aborted when the calls' result is no longer wanted: no attempt, retry or chunk starts after. */
  signal?: AbortSignal;
}

const contexts = new AsyncLocalStorage<CallContext>();

export function withCallContext<T>(context: CallContext, run: () => Promise<T>): Promise<T> {
  return contexts.run(context, run);
}

/**
 * The calls of `run` answer to `gate` alone (none: no gate), whatever context they were started
 * from: the background sync, even when a request's work started it, is never charged to a user's
 * budget nor stopped with that request. (A clinician's "Sync now" is the request's own work and
 * runs in its context instead: lib/sync/pass.ts.)
 */
export function withCallGate<T>(gate: CallGate | null, run: () => Promise<T>): Promise<T> {
  return contexts.run(gate ? { gate } : {}, run);
}

/** The context of the calling code; an empty one outside both. */
export function currentCallContext(): CallContext {
  return contexts.getStore() ?? {};
}
