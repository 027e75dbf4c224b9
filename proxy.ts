import { type NextRequest, NextResponse } from "next/server";
import { edgeRefusal } from "@/lib/http/body";
import { refusalResponse } from "@/lib/http/error-page";
import { env } from "@/lib/platform/env";
import { newNonce, securityHeaders } from "@/lib/platform/security/headers";
import { authorizePageStatus } from "@/lib/sandbox/authorize-gate";

/**
 * Runs before every page and route: the input rules of the edge (lib/http: a NUL, a control
 * character or an over-long part of the URL, a cross-site server action, a body too large or
 * broken is refused here, before any page or route reads it), then a fresh CSP nonce and the
 * security headers. The policy is also set on the request, which is where Next reads the nonce
 * for its own scripts. The sandbox's authorization pages get their status here (400 for a link
 * that names no registered app or redirect URI: lib/sandbox/authorize-gate.ts), as a page cannot
 * set its own.
 */
export async function proxy(request: NextRequest) {
  const e = env();
  const nonce = newNonce();
  const headers = securityHeaders({
    nonce,
    pathname: request.nextUrl.pathname,
    https: e.APP_URL.startsWith("https://"),
    development: e.NODE_ENV === "development",
    serviceOrigin: new URL(e.CGM_API_BASE_URL).origin,
  });
  const refused = await edgeRefusal(request, new URL(e.APP_URL).origin);
  if (refused) return refusalResponse(refused, request.headers.get("accept"), headers);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"] ?? "");
  const status =
    e.sandboxEnabled && request.method === "GET"
      ? await authorizePageStatus(request.nextUrl.pathname, request.nextUrl.searchParams)
      : null;
  const response = NextResponse.next({ request: { headers: requestHeaders }, ...(status ? { status } : {}) });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [{ source: "/((?!_next/static|_next/image|favicon.ico).*)" }],
};
