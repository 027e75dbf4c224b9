import { overviewRead } from "@/lib/api/dashboard";
import { patientRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
export const GET = patientRoute(overviewRead);
