import "server-only";
import type { Refusal } from "@/lib/auth/subject";
import { STATUS_LABEL } from "@/lib/clinic/domain/patient-status";
import type { ClinicRefusal } from "@/lib/clinic/domain/subject";
import { NotFound, NotPermitted } from "@/lib/errors";
import { InputRefused } from "@/lib/http/input";
import { CallBudgetExceeded } from "@/lib/service-client/call-budget";
import { WindowRefused } from "@/lib/service-client/client";
import { ReconnectRequired, TokenUnavailable } from "@/lib/service-client/tokens";
import { CallsAbandoned, ServiceError } from "@/lib/service-client/transport";
import { RateLimitBusy } from "@/lib/sync/rate-limit";

/**
 * Every error a dashboard API route can meet, mapped to one JSON answer in one place:
 * `{ error, message }` (plus `upstreamStatus` when the service answered), never a stack trace,
 * never a token. Responses carrying patient data, errors included, are private and not stored.
 */

export const PATIENT_DATA_HEADERS = { "Cache-Control": "private, no-store", Vary: "Cookie" } as const;

/** A request the user (or the page) got wrong: 400 with what to fix. */
export class InputError extends Error {
  constructor(
    message: string,
    readonly status = 400,
    readonly code = "invalid_request",
  ) {
    super(message);
  }
}

export function jsonError(
  status: number,
  error: string,
  message: string,
  extra: Record<string, unknown> = {},
) {
  return Response.json({ error, message, ...extra }, { status, headers: PATIENT_DATA_HEADERS });
}

function upstreamMessage(body: unknown): string | null {
  if (body && typeof body === "object" && "message" in body && typeof body.message === "string")
    return body.message;
  if (
    body &&
    typeof body === "object" &&
    "error_description" in body &&
    typeof body.error_description === "string"
  )
    return body.error_description;
  return null;
}

function retryLater(res: Response, e: { retryAfterSeconds: number }): Response {
  res.headers.set("Retry-After", String(e.retryAfterSeconds));
  return res;
}

/** Why a data route reads nothing for this request (lib/auth/subject.ts), as its answer. */
export function refusalResponse(refusal: Refusal | ClinicRefusal): Response {
  switch (refusal.reason) {
    case "signed_out":
      return refusal.viewer === "patient"
        ? jsonError(401, "unauthenticated", "Sign in to see glucose data.")
        : jsonError(401, "unauthenticated", "Sign in as a clinician to see patients' data.");
    case "not_found":
      return jsonError(
        404,
        "not_found",
        "This patient is not in any of your clinics. Open the patient from your clinic's list.",
      );
    case "not_connected":
      return jsonError(409, "not_connected", "Connect your CGM account to see glucose data.");
    case "not_shared": {
      const { name, status } = refusal.access.patient;
      return jsonError(
        409,
        "not_shared",
        `${name} does not share their data with the clinic now (${STATUS_LABEL[status].toLowerCase()}).`,
      );
    }
    case "reconnect":
      return errorResponse(new ReconnectRequired(refusal.subject.connection.id));
  }
}

export function errorResponse(e: unknown): Response {
  if (e instanceof InputError || e instanceof InputRefused) return jsonError(e.status, e.code, e.message);
  if (e instanceof NotPermitted) return jsonError(e.status, "forbidden", e.message);
  if (e instanceof NotFound) return jsonError(e.status, "not_found", e.message);
  if (e instanceof WindowRefused) return jsonError(400, "invalid_request", e.message);
  if (e instanceof CallBudgetExceeded) return retryLater(jsonError(429, "too_many_requests", e.message), e);
  if (e instanceof RateLimitBusy) return retryLater(jsonError(503, "service_busy", e.message), e);
  // The client has gone and reads nothing; the status (nginx's "client closed request") is for logs.
  // An AbortError is the same end met while an answer's body was still arriving.
  if (e instanceof CallsAbandoned || (e instanceof Error && e.name === "AbortError"))
    return jsonError(499, "client_closed_request", "The client closed the request.");
  if (e instanceof ReconnectRequired) {
    return jsonError(
      401,
      "reconnect_required",
      "The CGM account no longer accepts this dashboard: reconnect it to see your data again.",
    );
  }
  if (e instanceof TokenUnavailable) {
    return jsonError(
      503,
      "service_unavailable",
      "The glucose service could not renew access just now; try again shortly.",
    );
  }
  if (e instanceof ServiceError) {
    const upstreamStatus = e.status;
    switch (e.code) {
      case "rate_limited":
        return jsonError(
          503,
          "service_busy",
          "The glucose service is limiting requests; try again in a minute.",
          {
            upstreamStatus,
          },
        );
      case "unavailable":
        return jsonError(
          upstreamStatus === 503 ? 503 : 502,
          "service_unavailable",
          `The glucose service is not answering (status ${upstreamStatus}); try again shortly.`,
          { upstreamStatus },
        );
      case "network":
        return jsonError(
          502,
          "service_unreachable",
          "The glucose service could not be reached; try again shortly.",
          {
            upstreamStatus,
          },
        );
      case "malformed_response":
        return jsonError(
          502,
          "bad_upstream_response",
          "The glucose service answered something it should not.",
          {
            upstreamStatus,
          },
        );
      case "upstream_error": {
        const status = upstreamStatus >= 400 && upstreamStatus < 500 ? upstreamStatus : 502;
        return jsonError(
          status,
          "upstream_refused",
          upstreamMessage(e.upstreamBody) ??
            `The glucose service refused the request (status ${upstreamStatus}).`,
          { upstreamStatus },
        );
      }
    }
  }
  // Only the kind of error is logged: messages of unexpected errors can hold request data.
  console.error("api: unexpected error", e instanceof Error ? e.name : typeof e);
  return jsonError(
    500,
    "internal_error",
    "Something went wrong on our side; try again, and tell us if it persists.",
  );
}
