import { downloadRoute } from "@/lib/api/download";
import { exportRead } from "@/lib/api/reports-export";
import { patientRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
export const GET = downloadRoute(patientRoute(exportRead), () => "/reports/export");
