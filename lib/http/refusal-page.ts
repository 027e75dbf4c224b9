import type { Refusal } from "./input";

/**
 * A refusal at the edge as the asker can read it: a browser that navigated (it accepts HTML)
 * gets a short page saying what was wrong, anything else the JSON every API error has. The page
 * has no script or style, so the security headers' CSP applies to it unchanged.
 */

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

const TITLES: Record<Refusal["status"], string> = {
  400: "This address or form could not be read",
  403: "This request must come from the dashboard's own pages",
  413: "This request is too large",
  415: "This request's content type is not accepted",
};

export function refusalResponse(refusal: Refusal, accept: string | null, headers: Record<string, string>) {
  const common = { ...headers, "Cache-Control": "no-store" };
  if (!(accept ?? "").includes("text/html")) {
    return Response.json(
      { error: refusal.code, message: refusal.message },
      { status: refusal.status, headers: common },
    );
  }
  const title = TITLES[refusal.status];
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(refusal.message)}</p><p><a href="/">Go to the start page</a></p></main></body></html>`;
  return new Response(html, {
    status: refusal.status,
    headers: { ...common, "Content-Type": "text/html; charset=utf-8" },
  });
}
