import "server-only";
import { z } from "zod";
import { signedInPatient } from "@/lib/auth/patient";
import { addNote, deleteNote, editNote, notesFor } from "@/lib/clinic/domain/notes";
import { seeOther } from "@/lib/http/redirect";
import { ownPath } from "@/lib/http/return-path";
import { NOTE_TEXT, noteFieldsOf, noteOffset } from "./clinic-notes-routes";
import { InputError } from "./errors";
import { type FormUser, formRoute } from "./route";

/**
 * A patient's own notes on their data ("ill", "new pump"): forms that go back to the page they were
 * sent from (a dashboard path), and the notes the patient may read as JSON: their own and those a
 * clinician of theirs marked shared. Only the author edits or deletes a note (403 otherwise).
 */

const patient: FormUser<{ userId: string; connectionId: string }> = async () => {
  const signed = await signedInPatient();
  if (!signed) throw new InputError("Sign in to write notes on your data.", 401, "unauthenticated");
  if (!signed.connection)
    throw new InputError(
      "Connect your CGM account first: notes are written on its data.",
      409,
      "not_connected",
    );
  return { userId: signed.userId, connectionId: signed.connection.id };
};

const anyFields = z.record(z.string(), z.string().optional());

/** Back to the dashboard page the form was on, else the notes page. */
function back(returnTo: string | undefined, outcome: string): Response {
  const path = returnTo ? ownPath(returnTo) : null;
  const base = path?.startsWith("/dashboard")
    ? (path.split("#")[0] ?? "/dashboard/notes")
    : "/dashboard/notes";
  return seeOther(`${base}${base.includes("?") ? "&" : "?"}note=${outcome}#notes`);
}

const noteId = (params: Record<string, string | string[]>) =>
  typeof params.noteId === "string" ? params.noteId : "";

/** POST /api/notes: the patient writes a note. */
export const addPatientNoteRoute = formRoute(
  { schema: anyFields, user: patient, multiline: NOTE_TEXT },
  async ({ user, fields }) => {
    const note = noteFieldsOf(fields);
    await addNote(
      { kind: "patient", userId: user.userId },
      note,
      await noteOffset(user.connectionId, fields, note),
    );
    return back(fields.returnTo, "saved");
  },
);

/** POST /api/notes/:noteId: the patient edits their note. */
export const editPatientNoteRoute = formRoute(
  { schema: anyFields, user: patient, multiline: NOTE_TEXT },
  async ({ user, fields, params }) => {
    const note = noteFieldsOf(fields);
    await editNote(
      { kind: "patient", userId: user.userId },
      noteId(params),
      note,
      await noteOffset(user.connectionId, fields, note),
    );
    return back(fields.returnTo, "edited");
  },
);

/** POST /api/notes/:noteId/delete: the patient deletes their note. */
export const deletePatientNoteRoute = formRoute(
  { schema: anyFields, user: patient },
  async ({ user, fields, params }) => {
    await deleteNote({ kind: "patient", userId: user.userId }, noteId(params));
    return back(fields.returnTo, "deleted");
  },
);

/** The notes the signed-in patient may read. */
export const patientNotesJson = async (userId: string) => ({
  notes: await notesFor({ kind: "patient", userId }),
});
