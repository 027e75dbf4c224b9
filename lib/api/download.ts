import "server-only";
import type { NextRequest } from "next/server";
import { errorPage, wantsHtml } from "@/lib/http/error-page";

/**
 * A download (PDF, zip) followed as a link: a browser that cannot get the file gets a page that
 * says why and what to do, with a way back to the report, never the API's raw JSON; an API client
 * (anything that does not ask for HTML) keeps the JSON error `{ error, message }` with its status.
 */

type Handler = (
  req: NextRequest,
  ctx: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

/** The page's title by the API's error code: what went wrong, in the reader's words. */
const TITLES: Record<string, string> = {
  no_data: "There is no report to download",
  invalid_request: "This period cannot be downloaded",
  unauthenticated: "Sign in to download this report",
  not_found: "This patient is not in your clinic",
  not_shared: "This patient does not share their data now",
  not_connected: "Connect your CGM account first",
  reconnect_required: "Reconnect your CGM account",
  too_many_requests: "Too many requests just now",
  pdf_unavailable: "The PDF cannot be made on this server",
  report_unavailable: "The report could not be prepared",
  service_unavailable: "The glucose service is not answering",
  service_unreachable: "The glucose service cannot be reached",
  service_busy: "The glucose service is busy",
};

/** What to do next, by code, added to the message the API gives. */
const NEXT_STEP: Record<string, string> = {
  no_data: "Choose another period on the report page, or wait until the sensor's readings are uploaded.",
  invalid_request: "Choose the period on the report page and download it from there.",
  not_shared:
    "Ask the patient to share their data with the clinic again (an invitation from the patient's page).",
  pdf_unavailable: "Print the report from your browser instead (the Print button on the report page).",
};

export function downloadRoute(
  inner: Handler,
  back: (req: NextRequest, params: Record<string, string | string[]>) => string,
): Handler {
  return async (req, ctx) => {
    const res = await inner(req, ctx);
    const accept = req.headers.get("accept");
    if (res.status < 400 || !wantsHtml(accept) || !res.headers.get("content-type")?.includes("json"))
      return res;
    let code = "";
    let message = "The file could not be made.";
    try {
      const body = (await res.clone().json()) as { error?: unknown; message?: unknown };
      if (typeof body.error === "string") code = body.error;
      if (typeof body.message === "string") message = body.message;
    } catch {
      // Not our JSON after all: the generic words stand.
    }
    const retryAfter = res.headers.get("retry-after");
    const next = NEXT_STEP[code];
    // A route without dynamic segments may be given no params at all.
    const params = (await ctx?.params) ?? {};
    const signIn = typeof params.patientId === "string" ? "/clinic/sign-in" : "/";
    const href = code === "unauthenticated" ? signIn : back(req, params);
    return errorPage({
      status: res.status,
      title: TITLES[code],
      message: next ? `${message} ${next}` : message,
      back: { href, label: code === "unauthenticated" ? "Go to the sign-in" : "Back to the report" },
      headers: { Vary: "Cookie, Accept", ...(retryAfter ? { "Retry-After": retryAfter } : {}) },
    });
  };
}

/** The clinic's report page of the patient in the path, to go back to from a failed download. */
export const clinicReportPage =
  (view: "/agp" | "" = "/agp") =>
  (_req: NextRequest, params: Record<string, string | string[]>) =>
    typeof params.patientId === "string"
      ? `/clinic/patients/${encodeURIComponent(params.patientId)}${view}`
      : "/clinic";
