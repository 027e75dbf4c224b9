import "server-only";
import { redirect } from "next/navigation";
import { currentUserId } from "@/lib/auth";
import { ownSubject } from "@/lib/auth/subject";
import { isClinician } from "@/lib/clinic/domain/clinics";
import type { Preferences } from "@/lib/preferences";
import { preferencesOf } from "@/lib/preferences/store";
import type { ResolvedTargetGroup } from "@/lib/preferences/target-group";
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
 * their own connection and their preferences; the refusals of the patient's own subject
 * (lib/auth/subject.ts) become the page's states.
 */
export async function patientPage(): Promise<PatientPage | { blocked: BlockedState }> {
  const userId = await currentUserId();
  const resolved = ownSubject(userId ? { userId, connection: await connectionOfOwner(userId) } : null);
  if (resolved.ok) {
    const { subject } = resolved;
    const preferences = await preferencesOf(subject.userId);
    const goals = await subject.targetGroup(preferences);
    return { userId: subject.userId, connection: subject.connection, preferences, goals };
  }
  switch (resolved.refusal.reason) {
    case "signed_out":
      return redirect("/");
    case "reconnect":
      return { blocked: "reconnect" };
    // A clinician's account has no CGM of its own: the page says so and leads to the clinic.
    default:
      return { blocked: userId && (await isClinician(userId)) ? "clinician" : "not_connected" };
  }
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
