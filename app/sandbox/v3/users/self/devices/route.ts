import { dataRoute } from "@/lib/sandbox/http";
import { devicesV3Response, userIdFor } from "@/lib/sandbox/service-v3";

export const dynamic = "force-dynamic";
/** v3 devices take no parameters (service-v3-notes §1.2): any sent are ignored. */
export const GET = dataRoute({ version: "v3", windowed: false }, ({ user, identity, nowMs }) =>
  devicesV3Response(user, nowMs, userIdFor(user.username, identity.clientId)),
);
