import "server-only";
import { STATUS_LABEL } from "../domain/patient-status";
import { clinicSubject } from "../domain/subject";

/**
 * Whether a clinic day may still hold a patient's report for a clinician, checked when the PDF is
 * made (render.ts) and again when it is handed out (download.ts): null when the clinician is a
 * member of the patient's clinic and the patient shares their data now, else why not, in words.
 */
export async function clinicDayRefusal(
  clinicianId: string | null,
  clinicPatientId: string | null,
  patientName: string,
): Promise<string | null> {
  if (!clinicianId) return "The clinician who prepared this day no longer has an account.";
  if (!clinicPatientId) return `${patientName} is no longer a patient of the clinic.`;
  const subject = await clinicSubject(clinicianId, clinicPatientId);
  if (subject.ok) return null;
  const { refusal } = subject;
  // Still shared: the page reads the synced copy, or says a reconnect is needed.
  if (refusal.reason === "reconnect") return null;
  if (refusal.reason === "not_shared") {
    const status = STATUS_LABEL[refusal.access.patient.status].toLowerCase();
    return `${patientName} does not share their data with the clinic now (${status}).`;
  }
  return `${patientName} is no longer a patient of the clinic, or the clinician is no longer a member.`;
}
