import { handleRotateSecret } from "@/lib/sandbox/developer";
import { sandboxRoute } from "@/lib/sandbox/http";

export const dynamic = "force-dynamic";
export const POST = sandboxRoute(async (req, { params }) =>
  handleRotateSecret(req, (await params).clientId ?? ""),
);
