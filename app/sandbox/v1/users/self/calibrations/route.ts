import { dataRoute } from "@/lib/sandbox/http";
import { calibrations } from "@/lib/sandbox/service";

export const dynamic = "force-dynamic";
export const GET = dataRoute({ version: "v1", windowed: true }, ({ user, window, nowMs }) =>
  calibrations(user, window, nowMs),
);
