import { sandboxRoute } from "@/lib/sandbox/http";
import { handleLoginSubmit } from "@/lib/sandbox/login";

export const dynamic = "force-dynamic";
export const POST = sandboxRoute(handleLoginSubmit);
