import { sandboxRoute } from "@/lib/sandbox/http";
import { handleTokenRequest } from "@/lib/sandbox/token-endpoint";

export const dynamic = "force-dynamic";
export const POST = sandboxRoute(handleTokenRequest);
