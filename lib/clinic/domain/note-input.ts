import { z } from "zod";
import { formatDateTime, MS_PER_DAY, MS_PER_MINUTE, parseDateTime } from "@/lib/cgm/datetime";

/**
 * The fields of a note and of a review as forms send them, checked on the server. Pure: no
 * database, so the rules are unit-tested and the same for a clinician's note and a patient's.
 * Times are typed on the patient's receiver clock (a datetime-local field, "2026-11-20T08:00") and
 * stored as instants with the clock's offset, so they are shown again on the clock they were typed on.
 */

export const NOTE_MAX_CHARS = 2000;
/** A note's range: what a clinician circles on a trace, at most the longest period a report reads. */
export const NOTE_RANGE_MAX_DAYS = 90;
/** A review covers at most a year, the longest a clinic looks back in one sitting. */
export const REVIEW_MAX_DAYS = 366;
/** The service's own bounds (lib/cgm/window-bounds.ts): nothing earlier or later is ever data. */
const FIRST_MS = Date.UTC(2000, 0, 1);
const END_MS = Date.UTC(2100, 0, 1);

const LOCAL_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

/** Milliseconds on the naive axis (the receiver's wall clock read as UTC) of a datetime-local value. */
export function parseLocalDateTime(text: string): number | null {
  const t = text.trim();
  if (!LOCAL_SHAPE.test(t)) return null;
  return parseDateTime(t.length === 16 ? `${t}:00` : t);
}

/** The start of a yyyy-mm-dd day on the naive axis, or null for a wrong date. */
export const dayStart = (date: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(date) ? parseDateTime(`${date}T00:00:00`) : null;

/** A wall-clock time (naive ms) as the datetime-local field shows it. */
export const localFieldValue = (wallMs: number) => formatDateTime(wallMs).slice(0, 16);

export interface NoteFields {
  text: string;
  /** The range on the receiver's clock (naive ms), or null for a note on the patient as a whole. */
  range: { startWall: number; endWall: number } | null;
  shared: boolean;
}

export type NoteFieldsResult = { ok: true; note: NoteFields } | { ok: false; message: string };

/** A note's form fields, every problem said in words a person can act on. */
export function parseNoteFields(fields: Record<string, string | undefined>): NoteFieldsResult {
  const text = (fields.text ?? "").trim();
  if (text.length === 0) return { ok: false, message: "Write the note: its text is empty." };
  if (text.length > NOTE_MAX_CHARS)
    return {
      ok: false,
      message: `A note holds at most ${NOTE_MAX_CHARS} characters; this one has ${text.length}. Shorten it.`,
    };
  const startText = (fields.start ?? "").trim();
  const endText = (fields.end ?? "").trim();
  const shared = fields.shared === "on" || fields.shared === "true" || fields.shared === "1";
  if (startText === "" && endText === "") return { ok: true, note: { text, range: null, shared } };
  if (startText === "" || endText === "")
    return {
      ok: false,
      message:
        "Give both the start and the end of the time range, or neither for a note on the patient as a whole.",
    };
  const startWall = parseLocalDateTime(startText);
  const endWall = parseLocalDateTime(endText);
  if (startWall === null || endWall === null)
    return { ok: false, message: "Write the times as date and time, like 2026-11-20T08:00." };
  if (startWall < FIRST_MS || endWall >= END_MS)
    return { ok: false, message: "The time range must lie between 1 January 2000 and 31 December 2099." };
  if (startWall >= endWall) return { ok: false, message: "The range must end after it starts." };
  if (endWall - startWall > NOTE_RANGE_MAX_DAYS * MS_PER_DAY)
    return {
      ok: false,
      message: `A note's range covers at most ${NOTE_RANGE_MAX_DAYS} days. Shorten it, or write a note without a range.`,
    };
  return { ok: true, note: { text, range: { startWall, endWall }, shared } };
}

/** The instant of a wall-clock time on a clock `offsetMinutes` ahead of UTC. */
export const instantOf = (wallMs: number, offsetMinutes: number) =>
  new Date(wallMs - offsetMinutes * MS_PER_MINUTE);
/** The wall-clock time (naive ms) of an instant on that clock. */
export const wallOf = (instant: Date, offsetMinutes: number) =>
  instant.getTime() + offsetMinutes * MS_PER_MINUTE;

export const reviewFieldsSchema = z
  .object({
    periodStart: z.string({ error: "Give the first day of the period reviewed (yyyy-mm-dd)." }),
    periodEnd: z.string({ error: "Give the last day of the period reviewed (yyyy-mm-dd)." }),
  })
  .superRefine((f, ctx) => {
    const start = dayStart(f.periodStart.trim());
    const end = dayStart(f.periodEnd.trim());
    if (start === null || end === null) {
      ctx.addIssue({ code: "custom", message: "Write the period's days as yyyy-mm-dd, like 2026-11-14." });
      return;
    }
    if (start < FIRST_MS || end >= END_MS)
      ctx.addIssue({
        code: "custom",
        message: "The period must lie between 1 January 2000 and 31 December 2099.",
      });
    else if (start > end)
      ctx.addIssue({ code: "custom", message: "The period must end on or after its first day." });
    else if ((end - start) / MS_PER_DAY + 1 > REVIEW_MAX_DAYS)
      ctx.addIssue({
        code: "custom",
        message: `A review covers at most ${REVIEW_MAX_DAYS} days. Choose a shorter period.`,
      });
  })
  .transform((f) => ({ periodStart: f.periodStart.trim(), periodEnd: f.periodEnd.trim() }));

export const TAG_NAME_MAX = 40;

/** A tag's name: trimmed, spaces collapsed, 1 to 40 characters. */
export function parseTagName(
  value: string | undefined,
): { ok: true; name: string } | { ok: false; message: string } {
  const name = (value ?? "").trim().replace(/\s+/g, " ");
  if (name.length === 0) return { ok: false, message: "Give the tag a name." };
  if (name.length > TAG_NAME_MAX)
    return {
      ok: false,
      message: `A tag's name has at most ${TAG_NAME_MAX} characters; this one has ${name.length}.`,
    };
  return { ok: true, name };
}
