import { saveTriage } from "@/lib/api/clinic-population-routes";
import { formRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
export const POST = formRoute(saveTriage);
