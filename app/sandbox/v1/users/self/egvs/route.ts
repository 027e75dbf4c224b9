import { dataRoute } from "@/lib/sandbox/http";
import { egvsV1 } from "@/lib/sandbox/service";

export const dynamic = "force-dynamic";
export const GET = dataRoute({ version: "v1", windowed: true }, ({ user, window, nowMs }) =>
  egvsV1(user, window, nowMs),
);
