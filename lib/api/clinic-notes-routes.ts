import "server-only";
import { z } from "zod";
import { zodMessage } from "@/lib/cgm/schemas";
import {
  type NoteFields,
  parseNoteFields,
  parseTagName,
  reviewFieldsSchema,
} from "@/lib/clinic/domain/note-input";
import {
  addNote,
  deleteNote,
  editNote,
  type NoteViewer,
  notesFor,
  receiverOffsetNear,
} from "@/lib/clinic/domain/notes";
import type { ClinicPatientAccess } from "@/lib/clinic/domain/patients";
import { markReviewed } from "@/lib/clinic/domain/reviews";
import { clinicPatientAccess } from "@/lib/clinic/domain/subject";
import { createTag, deleteTag, renameTag, setPatientTags, type TagChange } from "@/lib/clinic/domain/tags";
import { clinicPatientPath } from "@/lib/clinic/views/patient-page";
import { seeOther } from "@/lib/http/redirect";
import { assertMember, clinician, clinicianOfPatient, patientNotFound } from "./clinic-users";
import { InputError } from "./errors";
import { type FormFields, formRoute } from "./route";

/**
 * The clinic's notes on a patient, "Mark reviewed" and the clinic's tags: forms (same origin, 303
 * back to the page, so they work without JavaScript) and the notes as JSON. The patient's id is
 * checked against the clinician's clinics first (another clinic's: 404), then the note's or the
 * tag's against that clinic (another clinic's: 404 as well); a note of a colleague is read, never
 * changed (403).
 */

/** A note's text may have paragraphs. */
export const NOTE_TEXT: ReadonlySet<string> = new Set(["text"]);

/** Every field is read by the note's own rules (lib/clinic/domain/note-input.ts), which word each problem. */
const anyFields = z.record(z.string(), z.string().optional());

/** The note's fields, or a 400 that says what to fix. */
export function noteFieldsOf(fields: FormFields): NoteFields {
  const parsed = parseNoteFields(fields);
  if (!parsed.ok) throw new InputError(parsed.message, 400, "invalid_note");
  return parsed.note;
}

/**
 * The receiver clock's offset for the note's range: from the patient's synced readings, else the
 * offset the page showed (`clockOffset`, minutes, bounded to real zones), else UTC.
 */
export async function noteOffset(connectionId: string | null, fields: FormFields, note: NoteFields) {
  if (!note.range) return 0;
  const shown = Number(fields.clockOffset);
  const fallback = Number.isInteger(shown) && Math.abs(shown) <= 16 * 60 ? shown : null;
  return receiverOffsetNear(connectionId, note.range.startWall, fallback);
}

const noteId = (params: Record<string, string | string[]>) =>
  typeof params.noteId === "string" ? params.noteId : "";

const viewerOf = (userId: string, access: ClinicPatientAccess): NoteViewer => ({
  kind: "clinician",
  userId,
  access,
});

/** POST /api/clinic/patients/:patientId/notes: a clinician writes a note (text, optional range, shared). */
export const addClinicNoteRoute = formRoute(
  { schema: anyFields, user: clinicianOfPatient, multiline: NOTE_TEXT },
  async ({ user: { userId, access }, fields }) => {
    const note = noteFieldsOf(fields);
    await addNote(
      viewerOf(userId, access),
      note,
      await noteOffset(access.patient.connectionId, fields, note),
    );
    return seeOther(`${clinicPatientPath(access.patient.id)}?note=saved#notes`);
  },
);

/** POST /api/clinic/patients/:patientId/notes/:noteId: the author edits their note. */
export const editClinicNoteRoute = formRoute(
  { schema: anyFields, user: clinicianOfPatient, multiline: NOTE_TEXT },
  async ({ user: { userId, access }, fields, params }) => {
    const note = noteFieldsOf(fields);
    await editNote(
      viewerOf(userId, access),
      noteId(params),
      note,
      await noteOffset(access.patient.connectionId, fields, note),
    );
    return seeOther(`${clinicPatientPath(access.patient.id)}?note=edited#notes`);
  },
);

/** POST /api/clinic/patients/:patientId/notes/:noteId/delete: the author deletes their note. */
export const deleteClinicNoteRoute = formRoute(
  { schema: z.object({}), user: clinicianOfPatient },
  async ({ user: { userId, access }, params }) => {
    await deleteNote(viewerOf(userId, access), noteId(params));
    return seeOther(`${clinicPatientPath(access.patient.id)}?note=deleted#notes`);
  },
);

/**
 * The notes a clinician may read on a patient, as JSON: their clinic's notes and, while the
 * patient shares with the clinic, the patient's own. Audited as a view of the patient.
 */
export async function clinicNotesJson(userId: string, patientId: string) {
  const found = await clinicPatientAccess(userId, patientId);
  if (!found.ok) throw patientNotFound();
  return { notes: await notesFor(viewerOf(found.viewerId, found.access)) };
}

/** POST /api/clinic/patients/:patientId/review (periodStart, periodEnd): "Mark reviewed". */
export const reviewRoute = formRoute(
  {
    schema: reviewFieldsSchema,
    user: clinicianOfPatient,
    invalid: ({ error }) => {
      throw new InputError(zodMessage(error.issues.map(({ message }) => ({ path: [], message }))));
    },
  },
  async ({ user: { userId, access }, form }) => {
    await markReviewed(access, userId, form);
    return seeOther(`${clinicPatientPath(access.patient.id)}?reviewed=1#review`);
  },
);

/**
 * POST /api/clinic/patients/:patientId/tags: the patient's tags become exactly those checked (a
 * field `tag_<id>` each; none checked clears them). A tag of another clinic: 404, nothing changed.
 */
export const patientTagsRoute = formRoute(
  { schema: anyFields, user: clinicianOfPatient },
  async ({ user: { userId, access }, fields }) => {
    const ids = Object.keys(fields)
      .filter((k) => k.startsWith("tag_") && fields[k] !== undefined && fields[k] !== "")
      .map((k) => k.slice(4));
    if (ids.length > 200) throw new InputError("Choose at most 200 tags.");
    await setPatientTags(access, userId, ids);
    return seeOther(`${clinicPatientPath(access.patient.id)}?tags=saved#tags`);
  },
);

const populationTags = (clinicId: string, outcome: string) =>
  `/clinic/population?clinic=${encodeURIComponent(clinicId)}&tags=${outcome}#tags`;

function tagNameOf(fields: FormFields): string {
  const parsed = parseTagName(fields.name);
  if (!parsed.ok) throw new InputError(parsed.message, 400, "invalid_tag");
  return parsed.name;
}

function afterChange(clinicId: string, change: TagChange, done: string): Response {
  if (change.ok) return seeOther(populationTags(clinicId, done));
  throw change.reason === "duplicate"
    ? new InputError("The clinic has a tag of this name already. Choose another name.", 409, "duplicate_tag")
    : new InputError(
        "The clinic has 200 tags, the most it may have. Delete one first.",
        409,
        "too_many_tags",
      );
}

/** POST /api/clinic/tags (clinicId, name): a member creates a tag of their clinic. */
export const createTagRoute = formRoute({ schema: anyFields, user: clinician }, async ({ user, fields }) => {
  const clinicId = await assertMember(user, fields.clinicId);
  return afterChange(clinicId, await createTag(clinicId, user, tagNameOf(fields)), "created");
});

/** POST /api/clinic/tags/:tagId (clinicId, name): renames the clinic's tag; another clinic's: 404. */
export const renameTagRoute = formRoute(
  { schema: anyFields, user: clinician },
  async ({ user, fields, params }) => {
    const clinicId = await assertMember(user, fields.clinicId);
    const tagId = typeof params.tagId === "string" ? params.tagId : "";
    return afterChange(clinicId, await renameTag(clinicId, user, tagId, tagNameOf(fields)), "renamed");
  },
);

/** POST /api/clinic/tags/:tagId/delete (clinicId): deletes the clinic's tag from every patient. */
export const deleteTagRoute = formRoute(
  { schema: anyFields, user: clinician },
  async ({ user, fields, params }) => {
    const clinicId = await assertMember(user, fields.clinicId);
    await deleteTag(clinicId, user, typeof params.tagId === "string" ? params.tagId : "");
    return seeOther(populationTags(clinicId, "deleted"));
  },
);
