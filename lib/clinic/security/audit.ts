import "server-only";
import { randomUUID } from "node:crypto";
import { and, desc, eq, lt, or } from "drizzle-orm";
import { db, schema } from "@/lib/db";
import type { AuditAction } from "@/lib/db/schema/clinic";

/**
 * The clinic's audit log: who viewed, downloaded or changed access to which patient's data, and
 * when. Written by the server at the moment it serves the data (never from what a page reports),
 * read only by the clinic's administrators.
 */

export interface AuditEntry {
  clinicId: string;
  actorUserId: string | null;
  /** null: every patient of the clinic at once (the population view). */
  clinicPatientId: string | null;
  action: AuditAction;
  detail?: string | null;
}

/**
 * Records one entry. Names are copied from the current rows in the same statement, so the entry
 * still says who and whom after the patient is removed or the account deleted.
 */
export async function recordAudit(entry: AuditEntry): Promise<void> {
  const database = await db();
  const [actor] = entry.actorUserId
    ? await database
        .select({ name: schema.users.name })
        .from(schema.users)
        .where(eq(schema.users.id, entry.actorUserId))
    : [];
  const [patient] = entry.clinicPatientId
    ? await database
        .select({ name: schema.clinicPatients.name })
        .from(schema.clinicPatients)
        .where(eq(schema.clinicPatients.id, entry.clinicPatientId))
    : [];
  await database.insert(schema.auditEvents).values({
    id: randomUUID(),
    clinicId: entry.clinicId,
    actorUserId: entry.actorUserId,
    actorName: actor?.name ?? null,
    clinicPatientId: entry.clinicPatientId,
    patientName: patient?.name ?? null,
    action: entry.action,
    detail: entry.detail ?? null,
    // Set here, not by the database: a JavaScript Date holds milliseconds, and the log's paging
    // compares times it handed out with stored ones, which must then be equal.
    at: new Date(),
  });
}

export const AUDIT_PAGE_SIZE = 100;

/**
 * A page of a clinic's log, newest first; `before` (the last entry's time and id) pages further
 * back. Both are compared, so entries of the same millisecond are neither skipped nor repeated.
 */
export async function auditLogOf(clinicId: string, before?: { at: Date; id: string }) {
  const { auditEvents: a } = schema;
  return (await db())
    .select({
      id: a.id,
      at: a.at,
      actorName: a.actorName,
      actorUserId: a.actorUserId,
      clinicPatientId: a.clinicPatientId,
      patientName: a.patientName,
      action: a.action,
      detail: a.detail,
    })
    .from(a)
    .where(
      before
        ? and(
            eq(a.clinicId, clinicId),
            or(lt(a.at, before.at), and(eq(a.at, before.at), lt(a.id, before.id))),
          )
        : eq(a.clinicId, clinicId),
    )
    .orderBy(desc(a.at), desc(a.id))
    .limit(AUDIT_PAGE_SIZE);
}

export const AUDIT_ACTION_LABEL: Record<AuditAction, string> = {
  "patient.added": "Added the patient",
  "patient.removed": "Removed the patient",
  "patient.invitation_renewed": "Created a new invitation link",
  "patient.accepted": "Patient allowed access",
  "patient.withdrew": "Patient withdrew access",
  "patient.synced": "Synced the patient's data now",
  "patient.target_group_set": "Set the patient's goals (target group)",
  "view.population": "Viewed the population (every patient's last 14 days)",
  "view.dashboard": "Viewed the dashboard",
  "view.agp": "Viewed the AGP report",
  "view.day": "Viewed the daily view",
  "view.events": "Viewed the events",
  "view.alerts": "Viewed the alerts",
  "view.calibrations": "Viewed the calibrations",
  "view.devices": "Viewed the devices",
  "view.compare": "Viewed the comparison of two periods",
  "view.statistics": "Viewed the statistics by time of day",
  "view.export": "Viewed the export page",
  "view.summary": "Read the summary metrics (API)",
  "download.agp_pdf": "Downloaded the AGP report (PDF)",
  "download.export": "Exported the data (CSV)",
  "note.created": "Wrote a note",
  "note.edited": "Edited a note",
  "note.deleted": "Deleted a note",
  "view.notes": "Read the notes (API)",
  "patient.reviewed": "Marked the patient reviewed",
  "patient.tags_set": "Set the patient's tags",
  "tag.created": "Created a tag",
  "tag.renamed": "Renamed a tag",
  "tag.deleted": "Deleted a tag",
  "download.fhir": "Downloaded the FHIR Bundle (CGM summary, AGP PDF)",
  "clinic_day.created": "Prepared a clinic day's AGP reports",
  "clinic_day.downloaded": "Downloaded a clinic day's AGP reports (zip)",
};
