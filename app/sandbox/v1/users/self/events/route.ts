import { dataRoute } from "@/lib/sandbox/http";
import { eventsV1 } from "@/lib/sandbox/service";

export const dynamic = "force-dynamic";
export const GET = dataRoute({ windowed: true }, ({ user, window, nowMs }) => eventsV1(user, window, nowMs));
