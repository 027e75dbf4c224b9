import { dataRoute } from "@/lib/sandbox/http";
import { eventsV2 } from "@/lib/sandbox/service";

export const dynamic = "force-dynamic";
export const GET = dataRoute({ windowed: true }, ({ user, window, nowMs }) => eventsV2(user, window, nowMs));
