import "server-only";
import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { checkLocation } from "@/lib/http/input";
import { env } from "@/lib/platform/env";
import { type AuthorizeCheck, checkAuthorizeRequest, pickAuthorizeParams } from "./authorization-requests";
import { SANDBOX_SESSION_COOKIE, sandboxSessionUser } from "./login-sessions";

/** For sandbox pages: 404 when the sandbox is off, else the signed-in sandbox user (or null). */
export async function sandboxPageUser(): Promise<string | null> {
  if (!env().sandboxEnabled) notFound();
  const jar = await cookies();
  return sandboxSessionUser(jar.get(SANDBOX_SESSION_COOKIE)?.value);
}

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export function toURLSearchParams(record: Record<string, string | string[] | undefined>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(record)) if (typeof v === "string") out.set(k, v);
  return out;
}

/**
 * The authorization request of the login and consent pages: errors the client may hear are sent
 * back to its redirect URI at once; the rest is for the page to show.
 */
export async function pageAuthorizeRequest(searchParams: SearchParams) {
  const query = toURLSearchParams(await searchParams);
  const params = pickAuthorizeParams(query);
  let check: AuthorizeCheck = await checkAuthorizeRequest(params);
  if (!check.ok && check.redirect) {
    // An error sent back carries the client's state: one too long to send is shown here instead.
    const tooLong = checkLocation(check.location);
    if (!tooLong) redirect(check.location);
    check = { ok: false, redirect: false, message: `${check.message}. ${tooLong.message}` };
  }
  return { query, params, check };
}
