import "server-only";
import { addDays } from "@/lib/reports/period/patient-days";
import { type NoteView, notesFor } from "../domain/notes";
import type { ClinicPatientAccess } from "../domain/patients";
import type { ReviewView, TagView } from "../domain/review-types";
import { latestReviews } from "../domain/reviews";
import { tagsOf, tagsOfPatient } from "../domain/tags";

/**
 * What the clinic's page of a patient shows around the data: the notes the clinician may read,
 * the latest review and the patient's tags with the clinic's, read together.
 */
export interface ClinicPatientNotes {
  notes: NoteView[];
  lastReview: ReviewView | null;
  tags: TagView[];
  patientTags: TagView[];
}

export async function clinicPatientNotes(
  access: ClinicPatientAccess,
  viewerId: string,
): Promise<ClinicPatientNotes> {
  const [notes, reviews, tags, patientTags] = await Promise.all([
    notesFor({ kind: "clinician", userId: viewerId, access }),
    latestReviews(access.clinicId, [access.patient.id]),
    tagsOf(access.clinicId),
    tagsOfPatient(access.clinicId, access.patient.id),
  ]);
  return { notes, lastReview: reviews.get(access.patient.id) ?? null, tags, patientTags };
}

/**
 * The period "Mark reviewed" offers: the days the page's summary covers, to the newest reading's day
 * on the patient's clock; without data, the 14 days to today (UTC).
 */
export function reviewPeriod(latestDisplayTime: string | null, days = 14): { start: string; end: string } {
  const end = latestDisplayTime ? latestDisplayTime.slice(0, 10) : new Date().toISOString().slice(0, 10);
  return { start: addDays(end, -(days - 1)), end };
}
