import "server-only";
import { createHash } from "node:crypto";

/**
 * SHA-256 of a text, for what we keep of a secret instead of the secret itself (session tokens,
 * sign-in states, invitation tokens, rate-limit keys) and for stable ids derived from a name. The
 * encodings are fixed per use: stored hashes are compared with hashes computed again, so changing
 * one would orphan every row written before.
 */
export const sha256Base64url = (text: string): string =>
  createHash("sha256").update(text).digest("base64url");

export const sha256Hex = (text: string): string => createHash("sha256").update(text).digest("hex");
