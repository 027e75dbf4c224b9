import { compareRead } from "@/lib/api/reports";
import { patientRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
export const GET = patientRoute(compareRead);
