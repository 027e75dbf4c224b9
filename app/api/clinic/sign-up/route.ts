import { formRoute } from "@/lib/api/route";
import { signUp } from "@/lib/clinic/routes";

export const dynamic = "force-dynamic";
export const POST = formRoute(signUp);
