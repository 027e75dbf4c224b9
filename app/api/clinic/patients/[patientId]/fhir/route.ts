import { fhirExportRead } from "@/lib/api/fhir-export";
import { clinicPatientRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
export const GET = clinicPatientRoute(
  "download.fhir",
  fhirExportRead,
  (req) => req.nextUrl.search.slice(1) || null,
);
