import { dataRoute } from "@/lib/sandbox/http";
import { egvsV3, userIdFor } from "@/lib/sandbox/service-v3";

export const dynamic = "force-dynamic";
export const GET = dataRoute({ version: "v3", windowed: true }, ({ user, identity, window, nowMs }) =>
  egvsV3(user, window, nowMs, userIdFor(user.username, identity.clientId)),
);
