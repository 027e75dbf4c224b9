import { proxyRead, proxyStatistics } from "@/lib/api/cgm-proxy";
import { patientRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
export const GET = patientRoute(proxyRead);
export const POST = patientRoute(proxyStatistics);
