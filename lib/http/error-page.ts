import type { Refusal } from "./input";

/**
 * An error as a person in a browser reads it. A browser that navigated or sent a form (it accepts
 * HTML) gets a short page saying what was wrong, with the same status and headers (Retry-After)
 * and a way back; anything else gets the JSON every API error has. The page has no script or
 * style, so the security headers' CSP applies to it unchanged.
 */

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** Whether the asker reads HTML: a browser's navigation or form post, not a fetch of our pages. */
export const wantsHtml = (accept: string | null) => (accept ?? "").includes("text/html");

function titleOf(status: number): string {
  if (status === 403) return "This request must come from the dashboard's own pages";
  if (status === 404) return "Not found";
  if (status === 409) return "This cannot be done now";
  if (status === 410) return "This is no longer available";
  if (status === 413) return "This request is too large";
  if (status === 415) return "This request's content type is not accepted";
  if (status === 429) return "Too many requests";
  if (status === 503 || status === 502) return "The glucose service is busy";
  if (status >= 500) return "Something went wrong";
  return "This address or form could not be read";
}

export interface ErrorPage {
  status: number;
  message: string;
  title?: string;
  /** A path of this site to go back to; the start page by default. */
  back?: { href: string; label: string };
  headers?: Record<string, string>;
}

export function errorPage(page: ErrorPage): Response {
  const title = page.title ?? titleOf(page.status);
  const back = page.back ?? { href: "/", label: "Go to the start page" };
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>${escapeHtml(title)} · Glucose Dashboard</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(page.message)}</p><p><a href="${escapeHtml(back.href)}">${escapeHtml(back.label)}</a></p></main></body></html>`;
  return new Response(html, {
    status: page.status,
    headers: { ...page.headers, "Cache-Control": "no-store", "Content-Type": "text/html; charset=utf-8" },
  });
}

/** A refusal at the edge, as a page or as JSON by what the asker reads. */
export function refusalResponse(refusal: Refusal, accept: string | null, headers: Record<string, string>) {
  if (wantsHtml(accept)) return errorPage({ status: refusal.status, message: refusal.message, headers });
  return Response.json(
    { error: refusal.code, message: refusal.message },
    { status: refusal.status, headers: { ...headers, "Cache-Control": "no-store" } },
  );
}

/**
 * A JSON error answer (`{ error, message }`) turned into a page for a browser that reads HTML,
 * keeping its status and Retry-After; any other answer, or asker, unchanged.
 */
export async function forBrowser(
  accept: string | null,
  res: Response,
  back?: ErrorPage["back"],
): Promise<Response> {
  if (!wantsHtml(accept) || res.status < 400 || !res.headers.get("content-type")?.includes("json"))
    return res;
  const body = (await res.clone().json()) as { message?: unknown };
  const retryAfter = res.headers.get("retry-after");
  return errorPage({
    status: res.status,
    message: typeof body.message === "string" ? body.message : "The request could not be completed.",
    back,
    headers: retryAfter ? { "Retry-After": retryAfter } : {},
  });
}
