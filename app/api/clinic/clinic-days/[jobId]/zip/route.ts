import { clinicDayDownload } from "@/lib/api/clinic-day-routes";
import { clinicianRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
export const GET = clinicianRoute(clinicDayDownload);
