import "server-only";
import { adapter, newSessionToken } from "@/lib/auth/adapter";
import { sessionCookie } from "@/lib/auth/cookies";
import { NoReport, PdfUnavailable, ReportBusy, renderReportPdf } from "@/lib/reports/agp/pdf";
import { STATUS_LABEL } from "../domain/patient-status";
import { clinicSubject } from "../domain/subject";
import { pdfRenderCookieForSession } from "../security/pdf-render";

/**
 * One patient's AGP PDF for a clinic day, printed from the clinic's AGP page exactly as a
 * clinician's download is (lib/api/reports.ts agpPdfOf), with the access of the clinician who
 * prepared the day, checked again now: a patient who stopped sharing, or was removed, or a
 * clinician no longer in the clinic, fails the item with the reason in words.
 *
 * There is no request, so no session cookie to hand to the printer: the runner opens a session of
 * that clinician for this one render (expiring with the item's lease, deleted when the render
 * ends) and the server-signed marker that keeps the render out of the audit log as a view (the
 * packet's download is logged, per patient, as download.agp_pdf).
 */

export type RenderOutcome =
  | { kind: "done"; pdf: Buffer; period: string | null }
  | { kind: "failed"; reason: string }
  /** The clinician's call budget for the minute is spent: the item waits and is tried again. */
  | { kind: "later" };

export async function renderClinicDayPdf(options: {
  clinicianId: string | null;
  clinicPatientId: string | null;
  patientName: string;
  days: number;
  leaseUntil: Date;
}): Promise<RenderOutcome> {
  const { clinicianId, clinicPatientId, patientName, days } = options;
  if (!clinicianId)
    return { kind: "failed", reason: "The clinician who prepared this day no longer has an account." };
  if (!clinicPatientId)
    return { kind: "failed", reason: `${patientName} is no longer a patient of the clinic.` };
  const subject = await clinicSubject(clinicianId, clinicPatientId);
  if (!subject.ok) {
    const { refusal } = subject;
    if (refusal.reason === "not_shared") {
      const status = STATUS_LABEL[refusal.access.patient.status].toLowerCase();
      return {
        kind: "failed",
        reason: `${patientName} does not share their data with the clinic now (${status}).`,
      };
    }
    if (refusal.reason !== "reconnect") {
      return {
        kind: "failed",
        reason: `${patientName} is no longer a patient of the clinic, or the clinician who prepared this day is no longer a member.`,
      };
    }
  }
  const sessionToken = newSessionToken();
  await adapter.createSession?.({ sessionToken, userId: clinicianId, expires: options.leaseUntil });
  try {
    const cookies = [
      { name: sessionCookie().name, value: sessionToken },
      pdfRenderCookieForSession(sessionToken, clinicPatientId),
    ];
    const { pdf, period } = await renderReportPdf(
      `/clinic/patients/${encodeURIComponent(clinicPatientId)}/agp?days=${days}`,
      cookies,
      "a4",
    );
    if (pdf.subarray(0, 5).toString("latin1") !== "%PDF-") {
      return { kind: "failed", reason: "The printer gave no PDF; try again." };
    }
    return { kind: "done", pdf, period };
  } catch (e) {
    if (e instanceof NoReport)
      return {
        kind: "failed",
        reason: "The glucose service holds no readings for this patient: there is no report.",
      };
    if (e instanceof PdfUnavailable) return { kind: "failed", reason: e.message };
    if (e instanceof ReportBusy) return { kind: "later" };
    console.error(`clinic day: an AGP PDF could not be rendered: ${(e as Error).message.split("\n")[0]}`);
    return {
      kind: "failed",
      reason: "The report could not be prepared (the glucose service did not answer in time); try again.",
    };
  } finally {
    await adapter.deleteSession?.(sessionToken);
  }
}
