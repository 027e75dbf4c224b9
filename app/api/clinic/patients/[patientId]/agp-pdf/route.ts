import { clinicReportPage, downloadRoute } from "@/lib/api/download";
import { agpPdfOf } from "@/lib/api/reports";
import { clinicPatientRoute } from "@/lib/api/route";
import { pdfRenderCookie } from "@/lib/clinic/security/pdf-render";

export const dynamic = "force-dynamic";
export const GET = downloadRoute(
  clinicPatientRoute(
    "download.agp_pdf",
    (ctx) => {
      const patientId = String(ctx.params.patientId);
      // The download is the one entry: the page render behind it carries the marker that says so.
      const marker = pdfRenderCookie(ctx.req, patientId);
      return agpPdfOf(`/clinic/patients/${encodeURIComponent(patientId)}/agp`, ctx, marker ? [marker] : []);
    },
    (req) => req.nextUrl.search.slice(1) || null,
  ),
  clinicReportPage("/agp"),
);
