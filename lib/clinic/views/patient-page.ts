import "server-only";
import { notFound, redirect } from "next/navigation";
import { currentUserId } from "@/lib/auth";
import type { Resolved } from "@/lib/auth/subject";
import type { AuditAction } from "@/lib/db/schema/clinic";
import type { Preferences } from "@/lib/preferences";
import { preferencesOf } from "@/lib/preferences/store";
import type { ResolvedTargetGroup } from "@/lib/preferences/target-group";
import type { PatientView } from "@/lib/records/viewer";
import type { ConnectionRow } from "@/lib/service-client/tokens";
import type { ClinicPatientAccess } from "../domain/patients";
import {
  auditView,
  type ClinicRefusal,
  type ClinicSubject,
  clinicGoals,
  clinicSubject,
} from "../domain/subject";
import { renderGrantViewer } from "../security/pdf-render";

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

/**
 * The page's side of the clinic subject (../domain/subject.ts): refusals become a redirect, a 404 or
 * a notice. `renderGrant`: the page also takes a clinic day's render grant for this patient in
 * place of a session (only the AGP page asks: lib/clinic/security/render-grant.ts); the
 * clinician's membership and the patient's share are checked as for a session.
 */
export async function clinicPatientPage(
  patientId: string,
  options: { renderGrant?: boolean } = {},
): Promise<ClinicPatientPage> {
  const granted = options.renderGrant ? await renderGrantViewer(patientId) : null;
  const { access, viewerId, connection } = shownPatient(
    await clinicSubject(granted ?? (await currentUserId()), patientId),
  );
  const preferences = await preferencesOf(access.patient.patientUserId ?? viewerId);
  // Read once: the goals depend on the patient's own choice (targetGroupFor uses these only as theirs).
  const goals = await clinicGoals(access, preferences);
  return { access, connection, preferences, goals, audit: auditView(access, viewerId) };
}

function shownPatient(resolved: Resolved<ClinicSubject, ClinicRefusal>) {
  if (resolved.ok) return resolved.subject;
  const { refusal } = resolved;
  switch (refusal.reason) {
    case "signed_out":
      return redirect("/clinic/sign-in");
    case "not_found":
    case "not_connected":
      return notFound();
    case "not_shared":
      return { ...refusal, connection: null };
    // Still the page's to show: the loader reads the synced copy, or says a reconnect is needed.
    case "reconnect":
      return refusal.subject;
  }
}

export const clinicPatientPath = (patientId: string, view: PatientView = "") =>
  `/clinic/patients/${encodeURIComponent(patientId)}${view}`;
