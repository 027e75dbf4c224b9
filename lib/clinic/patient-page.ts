import "server-only";
import { notFound, redirect } from "next/navigation";
import { currentUserId } from "@/lib/auth";
import type { AuditAction } from "@/lib/db/schema/clinic";
import type { Preferences } from "@/lib/preferences";
import { preferencesOf } from "@/lib/preferences/store";
import type { ResolvedTargetGroup } from "@/lib/preferences/target-group";
import { targetGroupFor } from "@/lib/preferences/target-group-store";
import type { ConnectionRow } from "@/lib/service-client/tokens";
import { recordAudit } from "./audit";
import { type ClinicPatientAccess, clinicPatientFor, sharedConnection } from "./patients";

/**
 * What a clinician's page about one patient needs: the access check (not signed in: to the sign-in;
 * not a member of the patient's clinic: 404, as for an id that does not exist), the connection
 * the patient shares (null when they do not share now: the page says why) and the patient's own
 * preferences (their unit and target range). `audit` writes the view to the clinic's log, called
 * by the page once it has the data to show.
 */
export interface ClinicPatientPage {
  access: ClinicPatientAccess;
  connection: ConnectionRow | null;
  preferences: Preferences;
  /** The target group the clinic's pages judge the patient by (the clinic's choice wins). */
  goals: ResolvedTargetGroup;
  audit: (action: AuditAction, detail?: string) => Promise<void>;
}

export async function clinicPatientPage(patientId: string): Promise<ClinicPatientPage> {
  const viewerId = await currentUserId();
  if (!viewerId) redirect("/clinic/sign-in");
  const access = await clinicPatientFor(viewerId, patientId);
  if (!access) notFound();
  const [connection, preferences, goals] = await Promise.all([
    sharedConnection(access),
    preferencesOf(access.patient.patientUserId ?? viewerId),
    targetGroupFor(access.patient.patientUserId, { clinicPatientId: access.patient.id }),
  ]);
  return {
    access,
    connection: access.patient.patientUserId ? connection : null,
    preferences,
    goals,
    audit: (action, detail) =>
      recordAudit({
        clinicId: access.clinicId,
        actorUserId: viewerId,
        clinicPatientId: access.patient.id,
        action,
        detail: detail ?? null,
      }),
  };
}

export const clinicPatientPath = (patientId: string, view: "" | "/agp" = "") =>
  `/clinic/patients/${encodeURIComponent(patientId)}${view}`;
