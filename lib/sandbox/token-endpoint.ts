import "server-only";
import type { NextRequest } from "next/server";
import { readForm } from "@/lib/http/body";
import { InputRefused } from "@/lib/http/input";
import { OAuthError } from "./errors";
import { exchangeCode, refreshTokens } from "./grants";

/** POST /v3/oauth2/token: form body only (spec section 5, step 3 and 4). */
export async function handleTokenRequest(req: NextRequest): Promise<Response> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new OAuthError("invalid_request", "Content-Type must be application/x-www-form-urlencoded");
  }
  const form = await tokenForm(req);
  for (const key of new Set(form.keys())) {
    // RFC 6749 section 3.2: parameters must not be included more than once.
    if (form.getAll(key).length > 1) throw new OAuthError("invalid_request", `${key} is repeated`);
  }
  const grantType = form.get("grant_type");
  if (!grantType) throw new OAuthError("invalid_request", "grant_type is required");
  let tokens: Awaited<ReturnType<typeof exchangeCode>>;
  if (grantType === "authorization_code") tokens = await exchangeCode(form);
  else if (grantType === "refresh_token") tokens = await refreshTokens(form);
  else
    throw new OAuthError("unsupported_grant_type", "grant_type must be authorization_code or refresh_token");
  // RFC 6749 section 5.1: token responses must not be stored by any cache.
  return Response.json(tokens, { headers: { "Cache-Control": "no-store", Pragma: "no-cache" } });
}

/** The form through the shared reader (sizes, characters), its refusals in the OAuth error shape. */
async function tokenForm(req: NextRequest): Promise<URLSearchParams> {
  try {
    const form = await readForm(req);
    // The shared reader refuses files, so every value is a string.
    return new URLSearchParams([...form].map(([k, v]) => [k, String(v)]));
  } catch (e) {
    if (e instanceof InputRefused) throw new OAuthError("invalid_request", e.message);
    throw e;
  }
}
