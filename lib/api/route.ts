import "server-only";
import type { NextRequest } from "next/server";
import { currentUserId } from "@/lib/auth";
import { env } from "@/lib/env";
import { connectionOfOwner, ReconnectRequired } from "@/lib/service-client/tokens";
import { errorResponse, InputError, jsonError, PATIENT_DATA_HEADERS } from "./errors";

/**
 * Route-handler wrappers of the dashboard's API (the dub pattern): a route file is one call to
 * these; session, ownership, origin checks and error mapping happen here and nowhere else.
 */

type RouteContext = { params: Promise<Record<string, string | string[]>> };

export interface PatientContext {
  req: NextRequest;
  params: Record<string, string | string[]>;
  userId: string;
  /** The signed-in patient's own connection: no route can name another. */
  connectionId: string;
}

/**
 * A state-changing request must come from our own pages: a present Origin must be ours, and a
 * browser that says the request is cross-site is refused even without one.
 */
export function assertSameOrigin(req: Request): void {
  const origin = req.headers.get("origin");
  const expected = new URL(env().APP_URL).origin;
  if (origin !== null && origin !== expected) {
    throw new InputError(
      "This action can only be started from the dashboard's own pages.",
      403,
      "forbidden_origin",
    );
  }
  if (origin === null && req.headers.get("sec-fetch-site") === "cross-site") {
    throw new InputError(
      "This action can only be started from the dashboard's own pages.",
      403,
      "forbidden_origin",
    );
  }
}

/** A route that answers with the signed-in patient's data. */
export function patientRoute(handler: (ctx: PatientContext) => Promise<unknown>) {
  return async (req: NextRequest, ctx: RouteContext): Promise<Response> => {
    try {
      const t0 = performance.now();
      if (req.method !== "GET" && req.method !== "HEAD") assertSameOrigin(req);
      const userId = await currentUserId();
      if (!userId) return jsonError(401, "unauthenticated", "Sign in to see glucose data.");
      const connection = await connectionOfOwner(userId);
      if (!connection)
        return jsonError(409, "not_connected", "Connect your CGM account to see glucose data.");
      if (connection.status === "needs_reconnect") throw new ReconnectRequired(connection.id);
      const t1 = performance.now();
      const body = await handler({ req, params: await ctx.params, userId, connectionId: connection.id });
      const t2 = performance.now();
      const text = JSON.stringify(body);
      // Where the time goes (session and connection lookup, the service call, encoding): the
      // benchmark reads it, and so can anyone looking at a slow page in the browser's tools.
      const timing = [
        `session;dur=${(t1 - t0).toFixed(1)}`,
        `service;dur=${(t2 - t1).toFixed(1)}`,
        `encode;dur=${(performance.now() - t2).toFixed(1)}`,
      ].join(", ");
      return new Response(text, {
        headers: { ...PATIENT_DATA_HEADERS, "Content-Type": "application/json", "Server-Timing": timing },
      });
    } catch (e) {
      return errorResponse(e);
    }
  };
}

/**
 * A POST from one of our forms (sign-in, disconnect): same origin only, and the handler answers
 * with where to send the browser next (303, so the browser follows with GET).
 */
export function formRoute(handler: (req: NextRequest) => Promise<Response>) {
  return async (req: NextRequest): Promise<Response> => {
    try {
      assertSameOrigin(req);
      return await handler(req);
    } catch (e) {
      return errorResponse(e);
    }
  };
}
