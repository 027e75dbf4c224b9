import { formRoute } from "@/lib/api/route";
import { signIn } from "@/lib/clinic/routes";

export const dynamic = "force-dynamic";
export const POST = formRoute(signIn);
