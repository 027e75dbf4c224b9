/**
 * A note as pages and the notes API show it, declared apart from the server module (notes.ts) so
 * components can name it. Times are instants (ISO) and, for a range, the same times on the
 * patient's receiver clock they were typed on ("2026-11-20T08:00").
 */
export interface NoteView {
  id: string;
  /** "clinician": written in a clinic; "patient": the patient's own. */
  authorKind: "clinician" | "patient";
  authorName: string | null;
  /** The clinic of a clinician's note (the patient may share with several). */
  clinicName: string | null;
  text: string;
  range: NoteRange | null;
  /** A clinician's note the patient is shown; a patient's note is always seen by their clinics. */
  shared: boolean;
  createdAt: string;
  updatedAt: string;
  /** Whether the viewer wrote it: only the author edits or deletes a note. */
  mine: boolean;
}

export interface NoteRange {
  startAt: string;
  endAt: string;
  /** On the patient's receiver clock, as typed: yyyy-mm-ddThh:mm. */
  startLocal: string;
  endLocal: string;
  /** The receiver clock's offset from UTC the times were typed on, in minutes. */
  offsetMinutes: number;
}

/** A note's range as the trace draws it: a band over the systemTime axis (instants, ms). */
export interface NoteBand {
  id: string;
  startMs: number;
  endMs: number;
  label: string;
  authorKind: "clinician" | "patient";
}

export const noteBands = (notes: readonly NoteView[]): NoteBand[] =>
  notes.flatMap((n) =>
    n.range
      ? [
          {
            id: n.id,
            startMs: Date.parse(n.range.startAt),
            endMs: Date.parse(n.range.endAt),
            label: n.text.length > 40 ? `${n.text.slice(0, 39)}…` : n.text,
            authorKind: n.authorKind,
          },
        ]
      : [],
  );
