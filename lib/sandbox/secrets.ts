import "server-only";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { sha256Hex } from "@/lib/platform/security/hash";

/**
 * The random values the sandbox hands out (client secrets, codes, tokens, session ids) and the
 * SHA-256 hashes it stores in their place: only hashes reach the database.
 */

export const sha256 = sha256Hex;
export const randomToken = (bytes = 32) => randomBytes(bytes).toString("base64url");

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}
