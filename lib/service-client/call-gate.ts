import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

/**
 * A wait before each request to the service, for the calls made inside `withCallGate`: the
 * background sync paces its calls under the service's rate limit this way (lib/sync/limiter.ts)
 * while page views, outside any gate, are not held up. It is asked before every attempt,
 * retries included, because the service counts every request it receives. An async context and
 * not a parameter, so that the typed calls (getEgvs, …) and their window chunks need no extra
 * argument for a concern only one caller has.
 */
export type CallGate = () => Promise<void>;

const gates = new AsyncLocalStorage<CallGate>();

export function withCallGate<T>(gate: CallGate | null, run: () => Promise<T>): Promise<T> {
  return gate ? gates.run(gate, run) : run();
}

/** The gate of the calling context; none outside `withCallGate`. */
export function currentCallGate(): CallGate | undefined {
  return gates.getStore();
}
