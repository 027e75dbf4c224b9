import { sandboxRoute } from "@/lib/sandbox/http";
import { handleRevoke } from "@/lib/sandbox/login";

export const dynamic = "force-dynamic";
export const POST = sandboxRoute(handleRevoke);
