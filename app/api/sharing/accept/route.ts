import { acceptShareRoute } from "@/lib/api/clinic-patient-routes";
import { formRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
export const POST = formRoute(acceptShareRoute);
