import "server-only";
import { db, schema } from "@/lib/db";
import { env } from "@/lib/platform/env";
import { findApp } from "./apps";
import { randomToken, sha256 } from "./secrets";

/**
 * The authorization request (spec section 3): its parameters, their check against the registered
 * app, and the single-use code issued once the user allowed access. PKCE is optional and S256 only.
 */

export interface AuthorizeParams {
  client_id?: string;
  redirect_uri?: string;
  response_type?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

export type AuthorizeCheck =
  | {
      ok: true;
      appName: string;
      params: Required<Pick<AuthorizeParams, "client_id" | "redirect_uri">> & AuthorizeParams;
    }
  /** Client or redirect URI cannot be trusted: show an error page, never redirect. */
  | { ok: false; redirect: false; message: string }
  /** The redirect URI is registered: the error goes back to the client (RFC 6749 section 4.1.2.1). */
  | { ok: false; redirect: true; location: string; message: string };

export function pickAuthorizeParams(source: URLSearchParams | Record<string, unknown>): AuthorizeParams {
  const get = (k: string) => {
    const v = source instanceof URLSearchParams ? source.get(k) : source[k];
    return typeof v === "string" ? v : undefined;
  };
  return {
    client_id: get("client_id"),
    redirect_uri: get("redirect_uri"),
    response_type: get("response_type"),
    scope: get("scope"),
    state: get("state"),
    code_challenge: get("code_challenge"),
    code_challenge_method: get("code_challenge_method"),
  };
}

export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

export async function checkAuthorizeRequest(p: AuthorizeParams): Promise<AuthorizeCheck> {
  if (!p.client_id) return { ok: false, redirect: false, message: "The request has no client_id." };
  const app = await findApp(p.client_id);
  if (!app)
    return { ok: false, redirect: false, message: `No app is registered with client_id "${p.client_id}".` };
  if (!p.redirect_uri) return { ok: false, redirect: false, message: "The request has no redirect_uri." };
  if (!app.redirectUris.includes(p.redirect_uri)) {
    return {
      ok: false,
      redirect: false,
      message: `The redirect_uri "${p.redirect_uri}" is not registered for the app "${app.name}".`,
    };
  }
  const fail = (error: string, message: string): AuthorizeCheck => ({
    ok: false,
    redirect: true,
    message,
    location: redirectWith(p.redirect_uri as string, { error, error_description: message, state: p.state }),
  });
  if (p.response_type !== "code") return fail("unsupported_response_type", "response_type must be code");
  if (p.scope !== "offline_access") return fail("invalid_scope", "scope must be offline_access");
  if (p.code_challenge !== undefined || p.code_challenge_method !== undefined) {
    if (p.code_challenge_method !== "S256")
      return fail("invalid_request", "code_challenge_method must be S256");
    if (!/^[A-Za-z0-9_-]{43}$/.test(p.code_challenge ?? "")) {
      return fail("invalid_request", "code_challenge must be a base64url SHA-256 digest (43 characters)");
    }
  }
  return {
    ok: true,
    appName: app.name,
    params: { ...p, client_id: p.client_id, redirect_uri: p.redirect_uri },
  };
}

/** Issues a single-use code after the user allowed access. */
export async function issueCode(input: {
  clientId: string;
  username: string;
  redirectUri: string;
  codeChallenge?: string;
}): Promise<string> {
  const code = randomToken();
  await (await db()).insert(schema.sandboxAuthCodes).values({
    codeHash: sha256(code),
    clientId: input.clientId,
    username: input.username,
    redirectUri: input.redirectUri,
    codeChallenge: input.codeChallenge ?? null,
    expiresAt: new Date(Date.now() + env().SANDBOX_AUTH_CODE_TTL * 1000),
  });
  return code;
}
