import { sandboxRoute } from "@/lib/sandbox/http";
import { handleLogout } from "@/lib/sandbox/login";

export const dynamic = "force-dynamic";
export const POST = sandboxRoute(handleLogout);
