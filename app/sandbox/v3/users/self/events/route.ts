import { deletedEventIds } from "@/lib/sandbox/deletions";
import { dataRoute } from "@/lib/sandbox/http";
import { eventsV3, userIdFor } from "@/lib/sandbox/service-v3";

export const dynamic = "force-dynamic";
export const GET = dataRoute({ version: "v3", windowed: true }, async ({ user, identity, window, nowMs }) =>
  eventsV3(
    user,
    window,
    nowMs,
    userIdFor(user.username, identity.clientId),
    await deletedEventIds(identity.clientId, user.username, window),
  ),
);
