import { deletedEventIds } from "@/lib/sandbox/deletions";
import { dataRoute } from "@/lib/sandbox/http";
import { eventsV2 } from "@/lib/sandbox/service";

export const dynamic = "force-dynamic";
export const GET = dataRoute({ version: "v2", windowed: true }, async ({ user, identity, window, nowMs }) =>
  eventsV2(user, window, nowMs, await deletedEventIds(identity.clientId, user.username, window)),
);
