import { formRoute } from "@/lib/api/route";
import { disconnect } from "@/lib/auth/routes";

export const dynamic = "force-dynamic";
export const POST = formRoute(disconnect);
