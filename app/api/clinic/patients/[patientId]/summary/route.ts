import { summaryRead } from "@/lib/api/reports";
import { clinicPatientRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
export const GET = clinicPatientRoute(
  "view.summary",
  summaryRead,
  (req) => req.nextUrl.search.slice(1) || null,
);
