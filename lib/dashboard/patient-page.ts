import "server-only";
import { redirect } from "next/navigation";
import { currentUserId } from "@/lib/auth";
import { isClinician } from "@/lib/clinic/clinics";
import type { Preferences } from "@/lib/preferences";
import { preferencesOf } from "@/lib/preferences/store";
import { CallBudgetExceeded } from "@/lib/service-client/call-budget";
import { withCallContext } from "@/lib/service-client/call-gate";
import { requestCalls } from "@/lib/service-client/request-calls";
import {
  type ConnectionRow,
  connectionOfOwner,
  ReconnectRequired,
  TokenUnavailable,
} from "@/lib/service-client/tokens";
import { ServiceError } from "@/lib/service-client/transport";

/**
 * What every patient page needs before it can show data: who is signed in (else back to "/"),
 * their own connection and their preferences. The states a page must design for besides data are
 * named here once, so every page words them the same way.
 */
export type BlockedState = "not_connected" | "reconnect" | "unavailable" | "clinician" | "busy";

export interface PatientPage {
  userId: string;
  connection: ConnectionRow;
  preferences: Preferences;
}

export async function patientPage(): Promise<PatientPage | { blocked: BlockedState }> {
  const userId = await currentUserId();
  if (!userId) redirect("/");
  const [connection, preferences] = await Promise.all([connectionOfOwner(userId), preferencesOf(userId)]);
  // A clinician's account has no CGM of its own: the page says so and leads to the clinic.
  if (!connection) return { blocked: (await isClinician(userId)) ? "clinician" : "not_connected" };
  if (connection.status === "needs_reconnect") return { blocked: "reconnect" };
  return { userId, connection, preferences };
}

/**
 * Runs the page's service calls, charged to the signed-in viewer's call budget as the API's are
 * (lib/service-client/request-calls.ts); a revoked authorization, an unreachable service or a
 * spent budget becomes a state.
 */
export async function withServiceStates<T>(load: () => Promise<T>): Promise<T | { blocked: BlockedState }> {
  const viewerId = await currentUserId();
  try {
    return await withCallContext(viewerId ? requestCalls(viewerId) : {}, load);
  } catch (e) {
    if (e instanceof ReconnectRequired) return { blocked: "reconnect" };
    if (e instanceof CallBudgetExceeded) return { blocked: "busy" };
    if (e instanceof ServiceError) {
      // Kept for the operator: a 4xx here is our request's fault, not the service's. The message
      // names the status and path only, never a token.
      console.error(`dashboard: service call failed (${e.code}, ${e.status}): ${e.message}`);
      return { blocked: "unavailable" };
    }
    if (e instanceof TokenUnavailable) return { blocked: "unavailable" };
    throw e;
  }
}

export const isBlocked = (x: unknown): x is { blocked: BlockedState } =>
  typeof x === "object" && x !== null && "blocked" in x;
