import "server-only";
import type { NextRequest } from "next/server";
import { found, seeOther } from "@/lib/http/redirect";
import { ownPath } from "@/lib/http/return-path";
import { findApp } from "./apps";
import {
  checkAuthorizeRequest,
  issueCode,
  pickAuthorizeParams,
  redirectWith,
} from "./authorization-requests";
import { ApiError } from "./errors";
import { revokeAppForUser } from "./grants";
import { readOwnForm } from "./http";
import {
  endSandboxSession,
  SANDBOX_SESSION_COOKIE,
  sandboxSessionUser,
  startSandboxSession,
} from "./login-sessions";
import { findSandboxUser } from "./users";

/**
 * The browser side of the sandbox's authorization: the username form and the consent decision.
 * Forms post here; pages only render.
 */

const SESSION_COOKIE_PATH = "/sandbox";

/** Only paths inside the sandbox, once normalised, may be a post-login destination. */
const safeNext = (value: FormDataEntryValue | null) => ownPath(value, { within: "/sandbox" });

/** A name short enough to quote back in the error, which travels in the login page's URL. */
const quoted = (username: string) => (username.length <= 64 ? ` named "${username}"` : " with that name");

export async function handleLoginSubmit(req: NextRequest): Promise<Response> {
  const form = await readOwnForm(req);
  const username = String(form.get("username") ?? "").trim();
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(pickAuthorizeParams(Object.fromEntries(form))))
    if (v !== undefined) params.set(k, v);
  const next = safeNext(form.get("next"));
  const back = next ?? `/sandbox/v3/oauth2/login?${params}`;
  const user = findSandboxUser(username);
  if (!user) {
    const sep = back.includes("?") ? "&" : "?";
    return seeOther(`${back}${sep}login_error=${encodeURIComponent(`No sandbox user${quoted(username)}.`)}`);
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
  return seeOther(next ?? `/sandbox/v3/oauth2/consent?${params}`, { "Set-Cookie": cookie });
}

export async function handleLogout(req: NextRequest): Promise<Response> {
  await readOwnForm(req);
  await endSandboxSession(req.cookies.get(SANDBOX_SESSION_COOKIE)?.value);
  return seeOther("/sandbox", {
    "Set-Cookie": `${SANDBOX_SESSION_COOKIE}=; Path=${SESSION_COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=0`,
  });
}

/** Allow or Deny at the consent page: 302 to the client with a code, or with error=access_denied. */
export async function handleConsentDecision(req: NextRequest): Promise<Response> {
  const form = await readOwnForm(req);
  const params = pickAuthorizeParams(Object.fromEntries(form));
  const check = await checkAuthorizeRequest(params);
  if (!check.ok) {
    if (check.redirect) return found(check.location);
    throw new ApiError(400, "invalid_request", check.message);
  }
  const username = await sandboxSessionUser(req.cookies.get(SANDBOX_SESSION_COOKIE)?.value);
  if (!username) {
    const query = new URLSearchParams(
      Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined),
    );
    return seeOther(`/sandbox/v3/oauth2/login?${query}`);
  }
  const { redirect_uri: redirectUri, state } = check.params;
  if (form.get("decision") !== "allow") {
    return found(redirectWith(redirectUri, { error: "access_denied", state }));
  }
  const code = await issueCode({
    clientId: check.params.client_id,
    username,
    redirectUri,
    codeChallenge: check.params.code_challenge,
  });
  return found(redirectWith(redirectUri, { code, state }));
}

/** Revoke at the Permissions page: the app's refresh tokens then answer 400 and access tokens 401. */
export async function handleRevoke(req: NextRequest): Promise<Response> {
  const form = await readOwnForm(req);
  const username = await sandboxSessionUser(req.cookies.get(SANDBOX_SESSION_COOKIE)?.value);
  if (!username) return seeOther("/sandbox/permissions");
  const clientId = String(form.get("client_id") ?? "");
  const app = clientId ? await findApp(clientId) : null;
  if (!app) throw new ApiError(400, "invalid_request", "No app with that client_id.");
  await revokeAppForUser(username, clientId);
  return seeOther(`/sandbox/permissions?revoked=${encodeURIComponent(app.name)}`);
}
