import { formRoute } from "@/lib/api/route";
import { setTargetGroupRoute } from "@/lib/clinic/patient-routes";

export const dynamic = "force-dynamic";
export const POST = formRoute(setTargetGroupRoute);
