import { clinicReportPage, downloadRoute } from "@/lib/api/download";
import { fhirClientErrors, fhirExportRead } from "@/lib/api/fhir-export";
import { clinicPatientRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
// Followed as a link from the patient's pages: a browser that cannot get the Bundle gets a page
// saying why, with the way back to the patient; a FHIR client gets an OperationOutcome, and any
// other API client the JSON error.
export const GET = downloadRoute(
  fhirClientErrors(
    clinicPatientRoute("download.fhir", fhirExportRead, (req) => req.nextUrl.search.slice(1) || null),
  ),
  clinicReportPage(""),
);
