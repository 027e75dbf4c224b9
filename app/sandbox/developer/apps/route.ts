import { handleCreateApp } from "@/lib/sandbox/developer";
import { sandboxRoute } from "@/lib/sandbox/http";

export const dynamic = "force-dynamic";
export const POST = sandboxRoute(handleCreateApp);
