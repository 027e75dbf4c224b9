import { deletedEventIds } from "@/lib/sandbox/deletions";
import { dataRoute } from "@/lib/sandbox/http";
import { eventsV1 } from "@/lib/sandbox/service";

export const dynamic = "force-dynamic";
export const GET = dataRoute({ version: "v1", windowed: true }, async ({ user, identity, window, nowMs }) =>
  eventsV1(user, window, nowMs, await deletedEventIds(identity.clientId, user.username, window)),
);
