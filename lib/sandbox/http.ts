import "server-only";
import type { NextRequest } from "next/server";
import {
  MS_PER_DAY,
  MS_PER_MINUTE,
  parseDateTime,
  V3_MAX_WINDOW_DAYS,
  v3LastSyncTimeSchema,
  v3QueryTimeMs,
  v3WindowQuerySchema,
  windowQueryFrom,
  zodMessage,
} from "@/lib/cgm";
import { readForm } from "@/lib/http/body";
import { InputRefused, isCrossSiteRequest } from "@/lib/http/input";
import { env } from "@/lib/platform/env";
import { ApiError, OAuthError } from "./errors";
import { applyFaults, type FaultSettings, NO_FAULTS } from "./faults";
import { authenticateBearer, type BearerIdentity } from "./grants";
import { RawJson } from "./raw-json";
import { findSandboxUser, type SandboxUser } from "./users";

/**
 * Route-handler wrappers of the sandbox: each route file is one call to these, and errors are
 * mapped to responses here and nowhere else.
 */

type RouteContext = { params: Promise<Record<string, string>> };
type Handler = (req: NextRequest, ctx: RouteContext) => Promise<Response>;

const NO_STORE = { "Cache-Control": "no-store" };

export function jsonError(
  status: number,
  error: string,
  message: string,
  headers: Record<string, string> = {},
) {
  return Response.json({ error, message }, { status, headers: { ...NO_STORE, ...headers } });
}

/** Every sandbox route: 404 when the sandbox is off, and one error mapping. */
export function sandboxRoute(handler: Handler): Handler {
  return async (req, ctx) => {
    if (!env().sandboxEnabled)
      return jsonError(404, "not_found", "The embedded sandbox is off (SANDBOX=off).");
    try {
      return await handler(req, ctx);
    } catch (e) {
      if (e instanceof OAuthError) {
        return Response.json(
          { error: e.code, error_description: e.description },
          {
            status: e.status,
            headers: {
              ...NO_STORE,
              Pragma: "no-cache",
              ...(e.status === 401 ? { "WWW-Authenticate": "Basic" } : {}),
            },
          },
        );
      }
      if (e instanceof ApiError) return jsonError(e.status, e.code, e.message, e.headers);
      if (e instanceof InputRefused) return jsonError(e.status, e.code, e.message);
      console.error("sandbox: unexpected error", e instanceof Error ? e.message : e);
      return jsonError(500, "server_error", "The sandbox failed unexpectedly; the request can be retried.");
    }
  };
}

/**
 * The spec does not show a maximum window. The sandbox allows 90 days, enough for a 90-day AGP in
 * one call, and refuses longer ones so that no request can make it build years of records at once.
 */
export const MAX_WINDOW_DAYS = 90;
const MAX_WINDOW_MS = MAX_WINDOW_DAYS * 86_400_000;

/** The window of a data request: records with startMs ≤ systemTime ≤ endMs (both inclusive). */
export interface DataWindow {
  startMs: number;
  endMs: number;
}

export type ApiVersion = "v1" | "v2" | "v3";

export interface DataContext {
  req: NextRequest;
  user: SandboxUser;
  identity: BearerIdentity;
  /** Current time as the data sees it: readings newer than the release delay are not yet published. */
  nowMs: number;
  faults: FaultSettings;
  window: DataWindow;
}

function bearerToken(req: NextRequest): string | null {
  const header = req.headers.get("authorization");
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m?.[1] ?? null;
}

/** Parses startDate/endDate of a windowed endpoint, or throws a 400 that says what is wrong. */
export function parseWindow(searchParams: URLSearchParams, limitLength = true): DataWindow {
  const parsed = windowQueryFrom(searchParams);
  if (!parsed.success) {
    throw new ApiError(400, "invalid_request", zodMessage(parsed.error.issues));
  }
  const window = {
    startMs: parseDateTime(parsed.data.startDate)!,
    endMs: parseDateTime(parsed.data.endDate)!,
  };
  if (limitLength && window.endMs - window.startMs > MAX_WINDOW_MS) {
    throw new ApiError(
      400,
      "invalid_request",
      `The window is longer than ${MAX_WINDOW_DAYS} days; request it in parts of at most ${MAX_WINDOW_DAYS} days.`,
    );
  }
  return window;
}

const V3_MAX_WINDOW_MS = V3_MAX_WINDOW_DAYS * MS_PER_DAY;

/**
 * The startDate/endDate of a windowed v3 endpoint (service-v3-notes §1.2): start inclusive, end
 * exclusive, on systemTime, at most 30 days; a zone and a fraction of a second are read, a time
 * without a zone is UTC. Returned with an inclusive end one millisecond before endDate (records
 * sit on whole seconds), as every generator reads windows.
 */
export function parseV3Window(searchParams: URLSearchParams): DataWindow {
  const parsed = windowQueryFrom(searchParams, v3WindowQuerySchema);
  if (!parsed.success) throw new ApiError(400, "invalid_request", zodMessage(parsed.error.issues));
  const startMs = v3QueryTimeMs(parsed.data.startDate)!;
  const endMs = v3QueryTimeMs(parsed.data.endDate)!;
  if (endMs - startMs > V3_MAX_WINDOW_MS) {
    throw new ApiError(
      400,
      "invalid_request",
      `The window is longer than ${V3_MAX_WINDOW_DAYS} days, the most API v3 answers at once; request it in parts of at most ${V3_MAX_WINDOW_DAYS} days.`,
    );
  }
  return { startMs, endMs: endMs - 1 };
}

/** The optional `lastSyncTime` of v3 dataRange, as a UTC instant (null when absent; 400 when malformed). */
export function parseLastSyncTime(searchParams: URLSearchParams): number | null {
  const raw = searchParams.get("lastSyncTime");
  if (raw === null) return null;
  const parsed = v3LastSyncTimeSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ApiError(400, "invalid_request", `lastSyncTime: ${zodMessage(parsed.error.issues)}`);
  }
  return v3QueryTimeMs(parsed.data);
}

/** /v3/users/self/statistics: v3 has no statistics endpoint (service-v3-notes §1.1). */
export const v3HasNoStatistics: Handler = sandboxRoute(async () =>
  jsonError(
    404,
    "not_found",
    "API v3 has no statistics endpoint: compute statistics from /v3/users/self/egvs (POST /v2/users/self/statistics remains in v2).",
  ),
);

/**
 * The user as a version of the API sees them. The service serves G7 15-day and ONE+ data only
 * through v3 (service-v3-notes §1.1): to v1 and v2 such an account is one without data, answered
 * like User6's (empty groups, a null dataRange, no device), never an error a v2 client could not
 * tell from a fault. Every generator checks `hasData` before it reads or fills a cache of days,
 * so the view never fills a cache the user's v3 data reads.
 */
export function userAsServedBy(user: SandboxUser, version: ApiVersion): SandboxUser {
  return version === "v3" || user.servedBeforeV3 ? user : { ...user, hasData: false };
}

/**
 * A data endpoint: bearer token (401 otherwise), the app's faults, then the window (400 when
 * required and malformed). The handler returns the JSON body.
 */
export function dataRoute(
  /** `limitWindow: false` for devices, whose answer does not grow with the window. */
  options: { version: ApiVersion; windowed: boolean; limitWindow?: boolean },
  handler: (ctx: DataContext) => Promise<unknown> | unknown,
): Handler {
  return sandboxRoute(async (req) => {
    const token = bearerToken(req);
    if (!token) {
      throw new ApiError(401, "unauthorized", "An Authorization: Bearer <access token> header is required.", {
        "WWW-Authenticate": 'Bearer realm="sandbox"',
      });
    }
    const identity = await authenticateBearer(token);
    if (!identity) {
      throw new ApiError(
        401,
        "invalid_token",
        "The access token is invalid, expired or revoked; refresh it.",
        {
          "WWW-Authenticate": 'Bearer realm="sandbox", error="invalid_token"',
        },
      );
    }
    const account = findSandboxUser(identity.username);
    if (!account) throw new ApiError(401, "invalid_token", "The access token's user no longer exists.");
    const user = userAsServedBy(account, options.version);
    // Faults an app set while the controls were on do not outlive them.
    const faults = env().SANDBOX_FAULTS === "on" ? identity.faults : NO_FAULTS;
    await applyFaults(identity.clientId, faults);
    const window = !options.windowed
      ? { startMs: 0, endMs: 0 }
      : options.version === "v3"
        ? parseV3Window(req.nextUrl.searchParams)
        : parseWindow(req.nextUrl.searchParams, options.limitWindow ?? true);
    const nowMs = Date.now() - faults.releaseDelayMinutes * MS_PER_MINUTE;
    const started = performance.now();
    const result = await handler({ req, user, identity, nowMs, faults, window });
    const body = result instanceof RawJson ? result.text : JSON.stringify(result);
    return new Response(body, {
      headers: {
        "Content-Type": "application/json",
        "Cache-Control": "private, no-store",
        // Time spent producing the body (generation, statistics, serialization), for benchmarks.
        "Server-Timing": `app;dur=${(performance.now() - started).toFixed(1)}`,
      },
    });
  });
}

/** JSON bodies are read by the shared reader (content type, size, characters): 400 or 415 otherwise. */
export { readJson } from "@/lib/http/body";

/**
 * A form post of the sandbox's own pages (login, consent, Permissions, logout): refused from
 * another site by the same rule as the dashboard's forms (the sandbox is served at the app's
 * origin), then its body read through the shared form reader.
 */
export async function readOwnForm(req: NextRequest): Promise<FormData> {
  if (isCrossSiteRequest(req, new URL(env().APP_URL).origin)) {
    throw new ApiError(403, "forbidden", "Cross-site form posts are refused: use the sandbox's own pages.");
  }
  return readForm(req);
}
