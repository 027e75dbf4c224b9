import "server-only";
import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, or, type SQL } from "drizzle-orm";
import { offsetMinutesOf } from "@/lib/cgm/clock-offset";
import { formatDateTime, parseDateTime } from "@/lib/cgm/datetime";
import { db, schema } from "@/lib/db";
import { NotFound, NotPermitted } from "@/lib/errors";
import { recordAudit } from "../security/audit";
import { instantOf, type NoteFields, wallOf } from "./note-input";
import type { NoteView } from "./note-types";
import type { ClinicPatientAccess } from "./patients";

export type { NoteView } from "./note-types";

/**
 * Notes on a patient's data, and who sees which:
 * - a clinician's note is seen by the members of its clinic (any of them reads it, only its
 *   author edits or deletes it); the patient sees it once a clinician marks it shared; another
 *   clinic never sees it, whether the patient shares with that clinic or not;
 * - a patient's own note ("ill", "new pump") is seen by the patient and by each clinic the patient
 *   shares with at the moment of reading: accepted and not withdrawn. A clinic the patient never
 *   shared with, or withdrew from, does not see it; a clinic that stops being shared with stops
 *   seeing it, and one that starts sees the patient's earlier notes too (they describe the data it
 *   is then given). Only the patient edits or deletes it.
 * Clinicians' changes are written to the clinic's audit log; a patient's notes are their own, and
 * not a clinic's action.
 */

export type NoteViewer =
  | { kind: "clinician"; userId: string; access: ClinicPatientAccess }
  | { kind: "patient"; userId: string };

/** Whether the patient's consent to the clinic stands: accepted, not withdrawn. */
const consentStands = (access: ClinicPatientAccess) =>
  access.patient.acceptedAt !== null &&
  access.patient.status !== "withdrawn" &&
  access.patient.patientUserId !== null;

/**
 * The receiver clock's offset (minutes ahead of UTC) around a wall-clock time: from the synced
 * reading nearest before it (else the first after), else `fallback` (what the page showed), else 0.
 */
export async function receiverOffsetNear(
  connectionId: string | null,
  wallMs: number,
  fallback: number | null,
): Promise<number> {
  if (connectionId) {
    const e = schema.syncedEgvs;
    const database = await db();
    // The wall time read as UTC is within a day of the instant whatever the zone.
    const at = new Date(wallMs);
    const [before] = await database
      .select({ systemTime: e.systemTime, displayTime: e.displayTime })
      .from(e)
      .where(and(eq(e.connectionId, connectionId), lte(e.systemTime, at)))
      .orderBy(desc(e.systemTime))
      .limit(1);
    const row =
      before ??
      (
        await database
          .select({ systemTime: e.systemTime, displayTime: e.displayTime })
          .from(e)
          .where(and(eq(e.connectionId, connectionId), gte(e.systemTime, at)))
          .orderBy(asc(e.systemTime))
          .limit(1)
      )[0];
    const display = row ? parseDateTime(row.displayTime) : null;
    if (row && display !== null) return offsetMinutesOf(row.systemTime.getTime(), display);
  }
  return fallback ?? 0;
}

const n = () => schema.patientNotes;

/** Which notes the viewer may read: the one rule, used for lists and for every edit and delete. */
async function visibleWhere(viewer: NoteViewer): Promise<SQL> {
  if (viewer.kind === "clinician") {
    const { access } = viewer;
    const own = and(
      eq(n().authorKind, "clinician"),
      eq(n().clinicId, access.clinicId),
      eq(n().clinicPatientId, access.patient.id),
    ) as SQL;
    const patientUserId = access.patient.patientUserId;
    if (!consentStands(access) || !patientUserId) return own;
    return or(own, and(eq(n().authorKind, "patient"), eq(n().patientUserId, patientUserId))) as SQL;
  }
  const p = schema.clinicPatients;
  const rows = await (await db()).select({ id: p.id }).from(p).where(eq(p.patientUserId, viewer.userId));
  const mine = and(eq(n().authorKind, "patient"), eq(n().patientUserId, viewer.userId)) as SQL;
  if (rows.length === 0) return mine;
  return or(
    mine,
    and(
      eq(n().authorKind, "clinician"),
      eq(n().shared, true),
      inArray(
        n().clinicPatientId,
        rows.map((r) => r.id),
      ),
    ),
  ) as SQL;
}

function viewOf(
  row: typeof schema.patientNotes.$inferSelect & { authorName: string | null; clinicName: string | null },
  viewerId: string,
): NoteView {
  const offset = row.clockOffsetMinutes ?? 0;
  return {
    id: row.id,
    authorKind: row.authorKind,
    authorName: row.authorName,
    clinicName: row.clinicName,
    text: row.text,
    range:
      row.startAt && row.endAt
        ? {
            startAt: row.startAt.toISOString(),
            endAt: row.endAt.toISOString(),
            startLocal: formatDateTime(wallOf(row.startAt, offset)).slice(0, 16),
            endLocal: formatDateTime(wallOf(row.endAt, offset)).slice(0, 16),
            offsetMinutes: offset,
          }
        : null,
    shared: row.authorKind === "patient" ? true : row.shared,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    mine: row.authorUserId === viewerId,
  };
}

/** The notes the viewer may read, newest first. */
export async function notesFor(viewer: NoteViewer, where?: SQL): Promise<NoteView[]> {
  const visible = await visibleWhere(viewer);
  const rows = await (await db())
    .select({ note: n(), authorName: schema.users.name, clinicName: schema.clinics.name })
    .from(n())
    .leftJoin(schema.users, eq(schema.users.id, n().authorUserId))
    .leftJoin(schema.clinics, eq(schema.clinics.id, n().clinicId))
    .where(where ? and(visible, where) : visible)
    .orderBy(desc(n().createdAt), desc(n().id))
    .limit(500);
  return rows.map((r) =>
    viewOf({ ...r.note, authorName: r.authorName, clinicName: r.clinicName }, viewer.userId),
  );
}

const noteValues = (fields: NoteFields, offsetMinutes: number) => ({
  text: fields.text,
  startAt: fields.range ? instantOf(fields.range.startWall, offsetMinutes) : null,
  endAt: fields.range ? instantOf(fields.range.endWall, offsetMinutes) : null,
  clockOffsetMinutes: fields.range ? offsetMinutes : null,
});

const rangeDetail = (fields: NoteFields, offsetMinutes: number) =>
  fields.range
    ? `range ${formatDateTime(fields.range.startWall).slice(0, 16)} to ${formatDateTime(fields.range.endWall).slice(0, 16)} on the receiver's clock (UTC${offsetMinutes >= 0 ? "+" : "−"}${Math.abs(offsetMinutes) / 60} h)`
    : "no range";

/** A clinician's change to a note, in their clinic's audit log; a patient's notes are not a clinic's action. */
async function auditNote(
  author: NoteViewer,
  action: "note.created" | "note.edited" | "note.deleted",
  noteId: string,
  change?: { fields: NoteFields; offsetMinutes: number },
) {
  if (author.kind !== "clinician") return;
  await recordAudit({
    clinicId: author.access.clinicId,
    actorUserId: author.userId,
    clinicPatientId: author.access.patient.id,
    action,
    detail: change
      ? `note ${noteId}; ${rangeDetail(change.fields, change.offsetMinutes)}; ${change.fields.shared ? "shared with the patient" : "not shared"}`
      : `note ${noteId}`,
  });
}

/** Whose note it is: a clinician's belongs to their clinic's patient, a patient's to their account. */
const ownerOf = (author: NoteViewer) =>
  author.kind === "clinician"
    ? {
        clinicId: author.access.clinicId,
        clinicPatientId: author.access.patient.id,
        // Left empty: the note is the clinic's record, found by its clinic patient, and must not go
        // with the patient's account (patient_user_id cascades on the account's deletion).
        patientUserId: null,
      }
    : { patientUserId: author.userId };

/**
 * The author writes a note: a clinician on their clinic's patient (shared with the patient if
 * they chose so, audited), a patient on their own data (always seen by the clinics they share with).
 */
export async function addNote(
  author: NoteViewer,
  fields: NoteFields,
  offsetMinutes: number,
): Promise<string> {
  const id = randomUUID();
  await (await db()).insert(n()).values({
    id,
    authorKind: author.kind,
    authorUserId: author.userId,
    ...ownerOf(author),
    shared: author.kind === "patient" ? true : fields.shared,
    ...noteValues(fields, offsetMinutes),
  });
  await auditNote(author, "note.created", id, { fields, offsetMinutes });
  return id;
}

/** A note the viewer cannot read, or that does not exist: the two are not told apart. */
const notFound = () => new NotFound("This note could not be found among the notes you can read.");

/** The note if the viewer may read it (else NotFound), and whether they wrote it (else NotPermitted). */
async function authoredNote(viewer: NoteViewer, noteId: string) {
  if (typeof noteId !== "string" || noteId.length === 0 || noteId.length > 64) throw notFound();
  const visible = await visibleWhere(viewer);
  const [row] = await (await db())
    .select()
    .from(n())
    .where(and(visible, eq(n().id, noteId)));
  if (!row) throw notFound();
  if (row.authorUserId !== viewer.userId) {
    throw new NotPermitted("Only the author of a note can change or delete it.");
  }
  return row;
}

/** The author changes their note (its text, range and, for a clinician, whether the patient sees it). */
export async function editNote(
  viewer: NoteViewer,
  noteId: string,
  fields: NoteFields,
  offsetMinutes: number,
) {
  const row = await authoredNote(viewer, noteId);
  await (await db())
    .update(n())
    .set({
      ...noteValues(fields, offsetMinutes),
      shared: row.authorKind === "patient" ? true : fields.shared,
      updatedAt: new Date(),
    })
    .where(eq(n().id, row.id));
  await auditNote(viewer, "note.edited", row.id, { fields, offsetMinutes });
}

/** The author deletes their note. */
export async function deleteNote(viewer: NoteViewer, noteId: string) {
  const row = await authoredNote(viewer, noteId);
  await (await db()).delete(n()).where(eq(n().id, row.id));
  await auditNote(viewer, "note.deleted", row.id);
}

/** Notes whose range overlaps [fromMs, toMs) (instants): the bands of a trace. */
export const overlapping = (fromMs: number, toMs: number): SQL =>
  and(isNotNull(n().startAt), lte(n().startAt, new Date(toMs)), gte(n().endAt, new Date(fromMs))) as SQL;

/** The patient's clinic rows their notes reach now: for the patient's page to say who sees them. */
export async function clinicsSeeingPatientNotes(userId: string): Promise<string[]> {
  const p = schema.clinicPatients;
  const rows = await (await db())
    .selectDistinct({ name: schema.clinics.name })
    .from(p)
    .innerJoin(schema.clinics, eq(schema.clinics.id, p.clinicId))
    .where(and(eq(p.patientUserId, userId), isNotNull(p.acceptedAt), isNull(p.withdrawnAt)));
  return rows.map((r) => r.name);
}
