import { formRoute } from "@/lib/api/route";
import { startSignIn } from "@/lib/auth/routes";

export const dynamic = "force-dynamic";
export const POST = formRoute(startSignIn);
