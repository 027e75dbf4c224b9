import { dataRoute } from "@/lib/sandbox/http";
import { devices } from "@/lib/sandbox/service";

export const dynamic = "force-dynamic";
export const GET = dataRoute(
  { version: "v2", windowed: true, limitWindow: false },
  ({ user, window, nowMs }) => devices(user, "v2", window, nowMs),
);
