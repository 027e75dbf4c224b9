import { clinicDayDownload } from "@/lib/api/clinic-day-routes";
import { downloadRoute } from "@/lib/api/download";
import { clinicianRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
// A browser following the link gets a page saying why (expired, not ready), an API client JSON.
export const GET = downloadRoute(clinicianRoute(clinicDayDownload), () => "/clinic/clinic-day");
