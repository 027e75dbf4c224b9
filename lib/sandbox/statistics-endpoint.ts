import "server-only";
import { statisticsV1RequestSchema, statisticsV2RequestSchema, zodMessage } from "@/lib/cgm";
import { ApiError } from "./errors";
import { type DataContext, readJson } from "./http";
import { statistics } from "./service";

/** POST /v{1,2}/users/self/statistics: the body is validated by spec section 4's rules (400 with the reason). */
export async function statisticsEndpoint(version: "v1" | "v2", ctx: DataContext) {
  const raw = await readJson(ctx.req);
  if (version === "v1") {
    const parsed = statisticsV1RequestSchema.safeParse(raw);
    if (!parsed.success) throw new ApiError(400, "invalid_request", zodMessage(parsed.error.issues));
    return statistics(ctx.user, ctx.window, ctx.nowMs, { version, body: parsed.data });
  }
  const parsed = statisticsV2RequestSchema.safeParse(raw);
  if (!parsed.success) throw new ApiError(400, "invalid_request", zodMessage(parsed.error.issues));
  return statistics(ctx.user, ctx.window, ctx.nowMs, { version, body: parsed.data });
}
