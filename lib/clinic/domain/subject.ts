import "server-only";
import { type Refusal, type Resolved, refuse, type Subject, usable } from "@/lib/auth/subject";
import type { AuditAction } from "@/lib/db/schema/clinic";
import type { Preferences } from "@/lib/preferences/schema";
import type { ResolvedTargetGroup } from "@/lib/preferences/target-group";
import { targetGroupFor } from "@/lib/preferences/target-group-store";
import { recordAudit } from "../security/audit";
import { type ClinicPatientAccess, clinicPatientFor, sharedConnection } from "./patients";

/**
 * A clinician's view of one clinic patient (lib/auth/subject.ts): allowed to a member of the
 * patient's clinic, through the connection the patient shares. Anyone else is told "not found",
 * whether the id exists or not, so ids of other clinics cannot be probed.
 */
export interface ClinicSubject extends Subject {
  access: ClinicPatientAccess;
}

export type ClinicRefusal =
  | Refusal<ClinicSubject>
  /** The patient does not share their data with the clinic now: pages still show who they are. */
  | { reason: "not_shared"; access: ClinicPatientAccess; viewerId: string };

/** The goals the clinic judges the patient by: the clinic's choice wins over the patient's. */
export const clinicGoals = (
  access: ClinicPatientAccess,
  preferences?: Preferences,
): Promise<ResolvedTargetGroup> =>
  targetGroupFor(access.patient.patientUserId, { clinicPatientId: access.patient.id }, preferences);

/** Writes what the clinician saw of the patient to the clinic's audit log. */
export const auditView =
  (access: ClinicPatientAccess, viewerId: string) =>
  (action: AuditAction, detail?: string | null): Promise<void> =>
    recordAudit({
      clinicId: access.clinicId,
      actorUserId: viewerId,
      clinicPatientId: access.patient.id,
      action,
      detail: detail ?? null,
    });

/** The viewer's access to a patient of their clinics: the first check of every clinic patient route and page. */
export async function clinicPatientAccess(
  viewerId: string | null,
  patientId: string,
): Promise<
  | { ok: true; viewerId: string; access: ClinicPatientAccess }
  | { ok: false; refusal: { reason: "signed_out"; viewer: "clinician" } | { reason: "not_found" } }
> {
  if (!viewerId) return refuse({ reason: "signed_out", viewer: "clinician" });
  const access = await clinicPatientFor(viewerId, patientId);
  return access ? { ok: true, viewerId, access } : refuse({ reason: "not_found" });
}

export async function clinicSubject(
  viewerId: string | null,
  patientId: string,
): Promise<Resolved<ClinicSubject, ClinicRefusal>> {
  const found = await clinicPatientAccess(viewerId, patientId);
  if (!found.ok) return found;
  const { access } = found;
  const connection = await sharedConnection(access);
  const { patientUserId } = access.patient;
  if (!connection || !patientUserId)
    return refuse({ reason: "not_shared", access, viewerId: found.viewerId });
  return usable<ClinicSubject>({
    userId: patientUserId,
    viewerId: found.viewerId,
    connection,
    access,
    targetGroup: (preferences) => clinicGoals(access, preferences),
    audit: auditView(access, found.viewerId),
  });
}
