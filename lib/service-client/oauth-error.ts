import { oauthErrorCodes } from "@/lib/cgm";

/**
 * The OAuth error code of a token endpoint's error body that is not RFC 6749 §5.2's
 * `application/json` `{"error": "..."}`: Tidepool met a "non-conformant OAuth error response" from
 * the service (service-v3-notes §5.10, shape not documented, UNCERTAIN). Without this reader such
 * an answer is a malformed response (502) on every refresh, and a dead refresh token
 * (invalid_grant) never asks the patient to reconnect.
 *
 * Only the codes RFC 6749 defines are taken, so a word in an error page is not mistaken for one;
 * null when none is found (the caller keeps its malformed_response).
 */
export function oauthErrorCodeOf(body: string): OAuthErrorCode | null {
  const text = body.trim();
  if (text === "") return null;
  return codeOfJson(text) ?? codeOfForm(text) ?? codeOfText(text);
}

export type OAuthErrorCode = (typeof oauthErrorCodes)[number];

function known(value: unknown): OAuthErrorCode | null {
  return typeof value === "string" && (oauthErrorCodes as readonly string[]).includes(value)
    ? (value as OAuthErrorCode)
    : null;
}

/** JSON under another content type, or with the code nested: {error: {code}}, {errors: [{error}]}, {code}. */
function codeOfJson(text: string): OAuthErrorCode | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  return codeOfValue(json, 0);
}

const CODE_KEYS = ["error", "code", "error_code", "errorCode", "oauth2"] as const;

function codeOfValue(value: unknown, depth: number): OAuthErrorCode | null {
  if (depth > 3 || value === null || typeof value !== "object") return known(value);
  if (Array.isArray(value)) return value.length > 0 ? codeOfValue(value[0], depth + 1) : null;
  const record = value as Record<string, unknown>;
  for (const key of [...CODE_KEYS, "errors"]) {
    if (key in record) {
      const code = codeOfValue(record[key], depth + 1);
      if (code) return code;
    }
  }
  return null;
}

/** `error=invalid_grant&error_description=…`, as form-encoded error bodies are written. */
function codeOfForm(text: string): OAuthErrorCode | null {
  if (!/^[\w.~%+-]+=/.test(text)) return null;
  return known(new URLSearchParams(text).get("error"));
}

/** Plain text naming one code, e.g. `oauth2: "invalid_grant" "Refresh token expired"`. */
function codeOfText(text: string): OAuthErrorCode | null {
  const found = oauthErrorCodes.filter((code) => new RegExp(`(^|[^a-z_])${code}([^a-z_]|$)`).test(text));
  return found.length === 1 ? (found[0] ?? null) : null;
}
