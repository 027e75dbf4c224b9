import { invite } from "@/lib/api/clinic-routes";
import { formRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
export const POST = formRoute(invite);
