import "server-only";
import { CallBudgetExceeded } from "@/lib/service-client/call-budget";
import { WindowRefused } from "@/lib/service-client/client";
import { ReconnectRequired, TokenUnavailable } from "@/lib/service-client/tokens";
import { ServiceError } from "@/lib/service-client/transport";
import type { BlockedState } from "./blocked-state";

export type { BlockedState };

/**
 * The state a page shows for an error of its service calls; null for an error that is a bug
 * (it stays a 500). A window the client refuses to ask for is one the page derived (the period
 * before a chosen one, a lookback from the data's end) that leaves the dates a request may read:
 * the request's fault, which the page states, not the server's.
 */
export function serviceState(e: unknown): BlockedState | null {
  if (e instanceof ReconnectRequired) return "reconnect";
  if (e instanceof CallBudgetExceeded) return "busy";
  if (e instanceof WindowRefused) return "refused";
  if (e instanceof ServiceError) {
    // Kept for the operator: a 4xx here is our request's fault, not the service's. The message
    // names the status and path only, never a token.
    console.error(`dashboard: service call failed (${e.code}, ${e.status}): ${e.message}`);
    return "unavailable";
  }
  if (e instanceof TokenUnavailable) return "unavailable";
  return null;
}
