import { formRoute } from "@/lib/api/route";
import { invite } from "@/lib/clinic/routes";

export const dynamic = "force-dynamic";
export const POST = formRoute(invite);
