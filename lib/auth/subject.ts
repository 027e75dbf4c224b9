import "server-only";
import type { AuditAction } from "@/lib/db/schema/clinic";
import type { Preferences } from "@/lib/preferences/schema";
import type { ResolvedTargetGroup } from "@/lib/preferences/target-group";
import { targetGroupFor } from "@/lib/preferences/target-group-store";
import type { ConnectionRow } from "@/lib/service-client/tokens";
import type { SignedInPatient } from "./patient";

/**
 * Whose data a request or a page reads, and who asks: one answer for the patient's own views and
 * a clinician's views of a patient, which routes turn into JSON errors (lib/api/route.ts) and pages
 * into a redirect, a 404 or a notice (lib/dashboard/patient-page.ts, lib/clinic/views/patient-page.ts).
 */
export interface Subject {
  /** The patient whose data is read: their preferences apply, never the clinician's. */
  userId: string;
  /** Who asks (the patient, or the clinician viewing them): whose call budget the reads spend. */
  viewerId: string;
  /** The connection the data comes through: the patient's own, or the one they share. */
  connection: ConnectionRow;
  /**
   * The target group the view judges by (lib/preferences/target-group.ts), read when asked; given
   * the patient's preferences when the caller has them, it does not read them again.
   */
  targetGroup: (preferences?: Preferences) => Promise<ResolvedTargetGroup>;
  /** Writes the view to the clinic's audit log, once the data is ready; nothing for the patient's own. */
  audit: (action: AuditAction, detail?: string | null) => Promise<void>;
}

/** Why a subject's data cannot be read now. */
export type Refusal<S extends Subject = Subject> =
  | { reason: "signed_out"; viewer: "patient" | "clinician" }
  /** Not a patient of the viewer's clinics, whether the id exists elsewhere or not. */
  | { reason: "not_found" }
  /** The patient has connected no CGM account. */
  | { reason: "not_connected" }
  /** The service refused the connection's refresh: the subject is known, its data needs a reconnect. */
  | { reason: "reconnect"; subject: S };

export type Resolved<S extends Subject = Subject, R = Refusal<S>> =
  | { ok: true; subject: S }
  | { ok: false; refusal: R };

export const refuse = <R>(refusal: R) => ({ ok: false, refusal }) as const;

/** A subject, refused when its connection needs a reconnect. */
export function usable<S extends Subject>(subject: S): Resolved<S> {
  return subject.connection.status === "needs_reconnect"
    ? refuse({ reason: "reconnect", subject })
    : { ok: true, subject };
}

/** The signed-in patient reading their own data through their own connection. */
export function ownSubject(signedIn: SignedInPatient | null): Resolved {
  if (!signedIn) return refuse({ reason: "signed_out", viewer: "patient" });
  const { userId, connection } = signedIn;
  if (!connection) return refuse({ reason: "not_connected" });
  return usable({
    userId,
    viewerId: userId,
    connection,
    targetGroup: (preferences) => targetGroupFor(userId, undefined, preferences),
    audit: async () => {},
  });
}
