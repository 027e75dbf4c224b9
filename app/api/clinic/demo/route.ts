import { formRoute } from "@/lib/api/route";
import { demo } from "@/lib/clinic/routes";

export const dynamic = "force-dynamic";
export const POST = formRoute(demo);
