import { startSignIn } from "@/lib/api/auth-routes";
import { formRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";
export const POST = formRoute(startSignIn);
