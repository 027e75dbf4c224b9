import "server-only";
import type { NextRequest } from "next/server";
import { ApiError } from "./errors";
import {
  checkAuthorizeRequest,
  endSandboxSession,
  findApp,
  issueCode,
  pickAuthorizeParams,
  redirectWith,
  revokeAppForUser,
  SANDBOX_SESSION_COOKIE,
  sandboxSessionUser,
  startSandboxSession,
} from "./oauth";
import { findSandboxUser } from "./users";

/**
 * The browser side of the sandbox's authorization: the username form and the consent decision.
 * Forms post here; pages only render.
 */

const SESSION_COOKIE_PATH = "/sandbox";

function see(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, {
    status: 303,
    headers: { Location: location, "Cache-Control": "no-store", ...headers },
  });
}

/** Refuses a form post from another site: the login and consent forms only work from our pages. */
export function assertSameOrigin(req: NextRequest): void {
  const origin = req.headers.get("origin");
  if (origin && origin !== req.nextUrl.origin) {
    throw new ApiError(403, "forbidden", "Cross-site form posts are refused.");
  }
}

/** Only paths inside the sandbox may be a post-login destination. */
function safeNext(value: FormDataEntryValue | null): string | null {
  if (typeof value !== "string") return null;
  return /^\/sandbox(\/[\w\-./?=&%]*)?$/.test(value) && !value.includes("//") ? value : null;
}

export async function handleLoginSubmit(req: NextRequest): Promise<Response> {
  assertSameOrigin(req);
  const form = await req.formData();
  const username = String(form.get("username") ?? "").trim();
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(pickAuthorizeParams(Object.fromEntries(form))))
    if (v !== undefined) params.set(k, v);
  const next = safeNext(form.get("next"));
  const back = next ?? `/sandbox/v3/oauth2/login?${params}`;
  const user = findSandboxUser(username);
  if (!user) {
    const sep = back.includes("?") ? "&" : "?";
    return see(`${back}${sep}login_error=${encodeURIComponent(`No sandbox user is named "${username}".`)}`);
  }
  const session = await startSandboxSession(user.username);
  const cookie = [
    `${SANDBOX_SESSION_COOKIE}=${session.id}`,
    `Path=${SESSION_COOKIE_PATH}`,
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${session.maxAgeSeconds}`,
    ...(req.nextUrl.protocol === "https:" ? ["Secure"] : []),
  ].join("; ");
  return see(next ?? `/sandbox/v3/oauth2/consent?${params}`, { "Set-Cookie": cookie });
}

export async function handleLogout(req: NextRequest): Promise<Response> {
  assertSameOrigin(req);
  await endSandboxSession(req.cookies.get(SANDBOX_SESSION_COOKIE)?.value);
  return see("/sandbox", {
    "Set-Cookie": `${SANDBOX_SESSION_COOKIE}=; Path=${SESSION_COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=0`,
  });
}

/** Allow or Deny at the consent page: 302 to the client with a code, or with error=access_denied. */
export async function handleConsentDecision(req: NextRequest): Promise<Response> {
  assertSameOrigin(req);
  const form = await req.formData();
  const params = pickAuthorizeParams(Object.fromEntries(form));
  const check = await checkAuthorizeRequest(params);
  if (!check.ok) {
    if (check.redirect) return Response.redirect(check.location, 302);
    throw new ApiError(400, "invalid_request", check.message);
  }
  const username = await sandboxSessionUser(req.cookies.get(SANDBOX_SESSION_COOKIE)?.value);
  if (!username) {
    const query = new URLSearchParams(
      Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined),
    );
    return see(`/sandbox/v3/oauth2/login?${query}`);
  }
  const { redirect_uri: redirectUri, state } = check.params;
  if (form.get("decision") !== "allow") {
    return Response.redirect(redirectWith(redirectUri, { error: "access_denied", state }), 302);
  }
  const code = await issueCode({
    clientId: check.params.client_id,
    username,
    redirectUri,
    codeChallenge: check.params.code_challenge,
  });
  return Response.redirect(redirectWith(redirectUri, { code, state }), 302);
}

/** Revoke at the Permissions page: the app's refresh tokens then answer 400 and access tokens 401. */
export async function handleRevoke(req: NextRequest): Promise<Response> {
  assertSameOrigin(req);
  const username = await sandboxSessionUser(req.cookies.get(SANDBOX_SESSION_COOKIE)?.value);
  if (!username) return see("/sandbox/permissions");
  const clientId = String((await req.formData()).get("client_id") ?? "");
  const app = clientId ? await findApp(clientId) : null;
  if (!app) throw new ApiError(400, "invalid_request", "No app with that client_id.");
  await revokeAppForUser(username, clientId);
  return see(`/sandbox/permissions?revoked=${encodeURIComponent(app.name)}`);
}
