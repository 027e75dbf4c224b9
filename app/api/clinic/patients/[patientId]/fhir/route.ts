import { clinicReportPage, downloadRoute } from "@/lib/api/download";
import { fhirExportRead } from "@/lib/api/fhir-export";
import { clinicPatientRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
// Followed as a link from the patient's pages: a browser that cannot get the Bundle gets a page
// saying why, with the way back to the patient; API and FHIR clients keep the JSON error.
export const GET = downloadRoute(
  clinicPatientRoute("download.fhir", fhirExportRead, (req) => req.nextUrl.search.slice(1) || null),
  clinicReportPage(""),
);
