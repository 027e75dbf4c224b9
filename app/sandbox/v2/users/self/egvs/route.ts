import { dataRoute } from "@/lib/sandbox/http";
import { egvsV2 } from "@/lib/sandbox/service";

export const dynamic = "force-dynamic";
export const GET = dataRoute({ version: "v2", windowed: true }, ({ user, window, nowMs }) =>
  egvsV2(user, window, nowMs),
);
