import { handleTokenStats } from "@/lib/sandbox/developer";
import { sandboxRoute } from "@/lib/sandbox/http";

export const dynamic = "force-dynamic";
export const GET = sandboxRoute(async (req, { params }) =>
  handleTokenStats(req, (await params).clientId ?? ""),
);
