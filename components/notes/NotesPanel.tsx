import { inputClass, primaryButtonClass, secondaryButtonClass } from "@/components/clinic/ClinicForm";
import { Panel } from "@/components/patient/Panel";
import { NOTE_MAX_CHARS } from "@/lib/clinic/domain/note-input";
import type { NoteView } from "@/lib/clinic/domain/note-types";

/**
 * Notes on a patient's data, and the forms to write, edit and delete them: plain HTML forms that
 * work without JavaScript (POST, then back to the page). Shown to a clinician (their clinic's notes
 * and the patient's own) and to the patient (their own and those a clinician shared). Only the
 * author of a note sees its edit and delete buttons; the server checks it again.
 */

export type NotesAudience = "clinician" | "patient";

const utcText = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
const localText = (local: string) => `${local.slice(0, 10)} ${local.slice(11, 16)}`;

const STATUS_TEXT: Record<string, string> = {
  saved: "Note saved.",
  edited: "Note changed.",
  deleted: "Note deleted.",
};

/** One end of a note's time range, a wall-clock time on the receiver's clock. */
function RangeEnd({ id, name, label, value }: { id: string; name: string; label: string; value?: string }) {
  return (
    <div>
      <label htmlFor={id} className="block font-medium">
        {label}
      </label>
      <input id={id} name={name} type="datetime-local" defaultValue={value} className={inputClass} />
    </div>
  );
}

function NoteFields({
  idPrefix,
  audience,
  note,
  clockName,
}: {
  idPrefix: string;
  audience: NotesAudience;
  note?: NoteView;
  clockName: string;
}) {
  return (
    <>
      <div>
        <label htmlFor={`${idPrefix}-text`} className="block font-medium">
          Note
        </label>
        <textarea
          id={`${idPrefix}-text`}
          name="text"
          required
          maxLength={NOTE_MAX_CHARS}
          rows={3}
          defaultValue={note?.text}
          className={inputClass}
        />
      </div>
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="text-sm text-slate-700 dark:text-slate-300">
          Time range on {clockName} (optional: both or neither; at most 90 days)
        </legend>
        <RangeEnd id={`${idPrefix}-start`} name="start" label="From" value={note?.range?.startLocal} />
        <RangeEnd id={`${idPrefix}-end`} name="end" label="To" value={note?.range?.endLocal} />
      </fieldset>
      {audience === "clinician" && (
        <label className="flex items-center gap-2 font-medium">
          <input type="checkbox" name="shared" defaultChecked={note?.shared} className="h-5 w-5" />
          Share with the patient (they see it on their dashboard)
        </label>
      )}
    </>
  );
}

export function NotesPanel({
  notes,
  audience,
  action,
  clockName,
  clockOffsetMinutes,
  returnTo,
  status,
  seenBy,
}: {
  notes: NoteView[];
  audience: NotesAudience;
  /** Where the forms post: the new note's URL; a note's own is `${action}/${id}`. */
  action: string;
  /** The clock the ranges are typed and shown on, named for the reader. */
  clockName: string;
  /** The receiver clock's offset the page showed: the server's fallback when it has no synced reading. */
  clockOffsetMinutes: number | null;
  /** The patient's page to come back to. */
  returnTo?: string;
  status?: string;
  /** Who else reads the notes written here, in words. */
  seenBy: string;
}) {
  const hidden = (
    <>
      {clockOffsetMinutes !== null && <input type="hidden" name="clockOffset" value={clockOffsetMinutes} />}
      {returnTo && <input type="hidden" name="returnTo" value={returnTo} />}
    </>
  );
  const statusText = status ? STATUS_TEXT[status] : undefined;
  return (
    <div id="notes" className="scroll-mt-4 print:hidden">
      <Panel title="Notes" id="notes-panel">
        <p className="text-sm text-slate-700 dark:text-slate-300">{seenBy}</p>
        {statusText && (
          <p
            role="status"
            className="font-medium text-emerald-800 dark:text-emerald-300"
            data-testid="note-status"
          >
            {statusText}
          </p>
        )}
        {notes.length === 0 ? (
          <p data-testid="notes-none">No notes yet.</p>
        ) : (
          <ul className="space-y-3" data-testid="notes">
            {notes.map((n) => (
              <li
                key={n.id}
                data-note={n.id}
                data-author={n.authorKind}
                className="rounded-lg border border-slate-300 p-3 dark:border-slate-700"
              >
                <p className="text-sm text-slate-700 dark:text-slate-300">
                  <span className="font-medium text-slate-900 dark:text-slate-100">
                    {n.authorKind === "patient"
                      ? audience === "patient"
                        ? "You"
                        : "The patient"
                      : `${n.authorName ?? "A clinician"}${n.clinicName ? `, ${n.clinicName}` : ""}`}
                  </span>{" "}
                  · {utcText(n.createdAt)}
                  {n.updatedAt !== n.createdAt && `, edited ${utcText(n.updatedAt)}`}
                  {audience === "clinician" && n.authorKind === "clinician" && (
                    <>
                      {" "}
                      {/* A block of its own words: on a phone it goes whole to the next line, not indented. */}
                      <span
                        className={`inline-block whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ${n.shared ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100" : "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200"}`}
                        data-testid="note-shared"
                      >
                        {n.shared ? "Shared with the patient" : "Clinic only"}
                      </span>
                    </>
                  )}
                </p>
                {n.range && (
                  <p className="text-sm font-medium" data-testid="note-range">
                    {localText(n.range.startLocal)} to {localText(n.range.endLocal)} on {clockName}
                  </p>
                )}
                <p className="whitespace-pre-wrap break-words">{n.text}</p>
                {n.mine && (
                  <div className="mt-2 flex flex-wrap items-start gap-3">
                    <details className="w-full sm:w-auto sm:flex-1">
                      <summary className="cursor-pointer font-medium text-blue-700 underline dark:text-blue-300">
                        Edit
                      </summary>
                      <form
                        method="post"
                        action={`${action}/${encodeURIComponent(n.id)}`}
                        className="mt-2 space-y-3"
                      >
                        {hidden}
                        <NoteFields
                          idPrefix={`note-${n.id}`}
                          audience={audience}
                          note={n}
                          clockName={clockName}
                        />
                        <button type="submit" className={primaryButtonClass}>
                          Save the note
                        </button>
                      </form>
                    </details>
                    <form method="post" action={`${action}/${encodeURIComponent(n.id)}/delete`}>
                      {returnTo && <input type="hidden" name="returnTo" value={returnTo} />}
                      <button type="submit" className={secondaryButtonClass}>
                        Delete
                      </button>
                    </form>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
        <details
          className="rounded-lg border border-slate-300 p-3 dark:border-slate-700"
          open={notes.length === 0}
        >
          <summary className="cursor-pointer font-medium">Write a note</summary>
          <form method="post" action={action} className="mt-3 space-y-3" data-testid="note-form">
            {hidden}
            <NoteFields idPrefix="new-note" audience={audience} clockName={clockName} />
            <button type="submit" className={primaryButtonClass}>
              Add the note
            </button>
          </form>
        </details>
      </Panel>
    </div>
  );
}
