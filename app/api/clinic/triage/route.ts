import { formRoute } from "@/lib/api/route";
import { saveTriage } from "@/lib/clinic/population-routes";

export const dynamic = "force-dynamic";
export const POST = formRoute(saveTriage);
