import { exportRead } from "@/lib/api/reports-export";
import { clinicPatientRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
export const GET = clinicPatientRoute(
  "download.export",
  exportRead,
  (req) => req.nextUrl.search.slice(1) || null,
);
