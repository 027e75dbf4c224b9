import { handleGetFaults, handlePutFaults } from "@/lib/sandbox/developer";
import { sandboxRoute } from "@/lib/sandbox/http";

export const dynamic = "force-dynamic";
export const GET = sandboxRoute(async (req, { params }) =>
  handleGetFaults(req, (await params).clientId ?? ""),
);
export const PUT = sandboxRoute(async (req, { params }) =>
  handlePutFaults(req, (await params).clientId ?? ""),
);
