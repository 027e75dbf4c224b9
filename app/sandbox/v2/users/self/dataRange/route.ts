import { dataRoute } from "@/lib/sandbox/http";
import { dataRangeOf } from "@/lib/sandbox/service";

export const dynamic = "force-dynamic";
export const GET = dataRoute({ version: "v2", windowed: false }, ({ user, nowMs }) =>
  dataRangeOf(user, nowMs),
);
