import { agpPdfOf } from "@/lib/api/reports";
import { clinicPatientRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
export const GET = clinicPatientRoute(
  "download.agp_pdf",
  (ctx) => agpPdfOf(`/clinic/patients/${encodeURIComponent(String(ctx.params.patientId))}/agp`, ctx),
  (req) => req.nextUrl.search.slice(1) || null,
);
