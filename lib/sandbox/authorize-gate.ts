import "server-only";
import { checkAuthorizeRequest, pickAuthorizeParams } from "./authorization-requests";

/**
 * The status of the sandbox's authorization pages (login and consent). A request that names no
 * registered app, or a redirect URI the app did not register, cannot be answered at the client
 * (RFC 6749 §4.1.2.1: the user is told, not redirected): the page explains, with status 400, since
 * the request itself is bad. Pages cannot set their own status, so proxy.ts asks this first and
 * lets the page render with it; the page then shows the same explanation.
 */

export const AUTHORIZE_PAGES: ReadonlySet<string> = new Set([
  "/sandbox/v3/oauth2/login",
  "/sandbox/v3/oauth2/consent",
]);

/** 400 when the page will explain a bad request, null when it renders (or redirects) as usual. */
export async function authorizePageStatus(pathname: string, query: URLSearchParams): Promise<400 | null> {
  if (!AUTHORIZE_PAGES.has(pathname)) return null;
  const check = await checkAuthorizeRequest(pickAuthorizeParams(query));
  return !check.ok && !check.redirect ? 400 : null;
}
