import { downloadRoute } from "@/lib/api/download";
import { agpPdfRead } from "@/lib/api/reports";
import { patientRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
export const GET = downloadRoute(patientRoute(agpPdfRead), () => "/reports");
