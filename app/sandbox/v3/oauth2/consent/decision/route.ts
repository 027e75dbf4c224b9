import { sandboxRoute } from "@/lib/sandbox/http";
import { handleConsentDecision } from "@/lib/sandbox/login";

export const dynamic = "force-dynamic";
export const POST = sandboxRoute(handleConsentDecision);
