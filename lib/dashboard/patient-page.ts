import "server-only";
import { redirect } from "next/navigation";
import { currentUserId } from "@/lib/auth";
import { isClinician } from "@/lib/clinic/clinics";
import type { Preferences } from "@/lib/preferences";
import { preferencesOf } from "@/lib/preferences/store";
import type { ResolvedTargetGroup } from "@/lib/preferences/target-group";
import { targetGroupFor } from "@/lib/preferences/target-group-store";
import { withCallContext } from "@/lib/service-client/call-gate";
import { requestCalls } from "@/lib/service-client/request-calls";
import { type ConnectionRow, connectionOfOwner } from "@/lib/service-client/tokens";
import { type BlockedState, serviceState } from "./service-state";

export type { BlockedState };

export interface PatientPage {
  userId: string;
  connection: ConnectionRow;
  preferences: Preferences;
  /** The target group the patient's own pages judge by, and their clinic's choice to show them. */
  goals: ResolvedTargetGroup;
}

/**
 * What every patient page needs before it can show data: who is signed in (else back to "/"),
 * their own connection and their preferences.
 */
export async function patientPage(): Promise<PatientPage | { blocked: BlockedState }> {
  const userId = await currentUserId();
  if (!userId) redirect("/");
  const [connection, preferences, goals] = await Promise.all([
    connectionOfOwner(userId),
    preferencesOf(userId),
    targetGroupFor(userId),
  ]);
  // A clinician's account has no CGM of its own: the page says so and leads to the clinic.
  if (!connection) return { blocked: (await isClinician(userId)) ? "clinician" : "not_connected" };
  if (connection.status === "needs_reconnect") return { blocked: "reconnect" };
  return { userId, connection, preferences, goals };
}

/**
 * Runs the page's service calls, charged to the signed-in viewer's call budget as the API's are
 * (lib/service-client/request-calls.ts); a revoked authorization, an unreachable service, a
 * spent budget or a window the client refuses to ask for (one the page derived from the data or
 * from a valid period, such as the period before it, that leaves the dates a request may read)
 * becomes a state, never a 500.
 */
export async function withServiceStates<T>(load: () => Promise<T>): Promise<T | { blocked: BlockedState }> {
  const viewerId = await currentUserId();
  try {
    return await withCallContext(viewerId ? requestCalls(viewerId) : {}, load);
  } catch (e) {
    const state = serviceState(e);
    if (state) return { blocked: state };
    throw e;
  }
}

export const isBlocked = (x: unknown): x is { blocked: BlockedState } =>
  typeof x === "object" && x !== null && "blocked" in x;
