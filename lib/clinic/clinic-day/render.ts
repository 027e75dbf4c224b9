import "server-only";
import { renderReportPdf } from "@/lib/reports/agp/pdf";
import { renderGrantCookie } from "../security/pdf-render";
import { clinicDayRefusal } from "./access";
import { outcomeOfError, RENDER_FAILURES, type RenderOutcome } from "./failure";

/**
 * One patient's AGP PDF for a clinic day, printed from the clinic's AGP page exactly as a
 * clinician's download is (lib/api/reports.ts agpPdfOf), with the access of the clinician who
 * prepared the day, checked again now: a patient who stopped sharing, or was removed, or a
 * clinician no longer in the clinic, fails the item with the reason in words.
 *
 * There is no request, so no session cookie to hand to the printer, and none is made: the
 * headless browser gets a render grant (lib/clinic/security/render-grant.ts), signed by the
 * server for this clinician and this patient for a minute, which only the clinic AGP page accepts
 * (checking the membership and the share again) and which also keeps the render out of the audit
 * log as a view (the packet's download is logged, per patient, as download.agp_pdf).
 */

export type { RenderOutcome } from "./failure";

export async function renderClinicDayPdf(
  options: {
    clinicianId: string | null;
    clinicPatientId: string | null;
    patientName: string;
    days: number;
  },
  log: (line: string) => void = (l) => console.error(l),
): Promise<RenderOutcome> {
  const { clinicianId, clinicPatientId, patientName, days } = options;
  const refusal = await clinicDayRefusal(clinicianId, clinicPatientId, patientName);
  if (refusal !== null) return { kind: "failed", reason: refusal };
  // clinicDayRefusal refuses a missing clinician or patient: both are known from here on.
  if (!clinicianId || !clinicPatientId) return { kind: "failed", reason: RENDER_FAILURES.unexpected };
  try {
    const { pdf, period } = await renderReportPdf(
      `/clinic/patients/${encodeURIComponent(clinicPatientId)}/agp?days=${days}`,
      // Made when the page is opened (a render may wait for a free slot first).
      () => [renderGrantCookie(clinicianId, clinicPatientId)],
      "a4",
    );
    if (pdf.subarray(0, 5).toString("latin1") !== "%PDF-")
      return { kind: "failed", reason: RENDER_FAILURES.notPdf };
    return { kind: "done", pdf, period };
  } catch (e) {
    const { outcome, log: line } = outcomeOfError(e);
    if (line) log(line);
    return outcome;
  }
}
