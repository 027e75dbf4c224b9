import { clinicReportPage, downloadRoute } from "@/lib/api/download";
import { exportRead } from "@/lib/api/reports-export";
import { clinicPatientRoute } from "@/lib/api/route";
import { clinicPatientIdentity } from "@/lib/reports/identity/identity-load";

export const dynamic = "force-dynamic";
export const GET = downloadRoute(
  clinicPatientRoute(
    "download.export",
    // The clinic's record of the patient names the file and heads methods.txt.
    async (ctx) => exportRead(ctx, await clinicPatientIdentity(String(ctx.params.patientId))),
    (req) => req.nextUrl.search.slice(1) || null,
  ),
  clinicReportPage(""),
);
