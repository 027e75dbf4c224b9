import { dataRoute } from "@/lib/sandbox/http";
import { devices } from "@/lib/sandbox/service";

export const dynamic = "force-dynamic";
export const GET = dataRoute(
  { version: "v1", windowed: true, limitWindow: false },
  ({ user, window, nowMs }) => devices(user, "v1", window, nowMs),
);
