import { dataRoute, parseLastSyncTime } from "@/lib/sandbox/http";
import { dataRangeV3Response, userIdFor } from "@/lib/sandbox/service-v3";

export const dynamic = "force-dynamic";
export const GET = dataRoute({ version: "v3", windowed: false }, ({ req, user, identity, nowMs }) =>
  dataRangeV3Response(
    user,
    nowMs,
    userIdFor(user.username, identity.clientId),
    parseLastSyncTime(req.nextUrl.searchParams),
  ),
);
