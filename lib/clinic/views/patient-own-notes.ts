import "server-only";
import { clinicsSeeingPatientNotes, type NoteView, notesFor } from "../domain/notes";

/** The patient's side of the notes: what they read, and who reads what they write, in words. */
export async function patientOwnNotes(userId: string): Promise<{ notes: NoteView[]; seenBy: string }> {
  const [notes, clinics] = await Promise.all([
    notesFor({ kind: "patient", userId }),
    clinicsSeeingPatientNotes(userId),
  ]);
  const seenBy =
    clinics.length === 0
      ? "Your notes are yours alone: you share your data with no clinic now. Notes your clinic shares with you appear here too."
      : `Your notes are seen by the clinics you share your data with now (${clinics.join(", ")}), and by any clinic you share with later; a clinic you stop sharing with stops seeing them. Notes a clinician shares with you appear here too.`;
  return { notes, seenBy };
}
