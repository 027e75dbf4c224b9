import { saveUnitForm } from "@/lib/api/dashboard";
import { formRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
export const POST = formRoute(saveUnitForm);
