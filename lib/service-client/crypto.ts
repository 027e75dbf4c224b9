import "server-only";
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { localSecrets } from "@/lib/platform/config/local-secrets";
import { env } from "@/lib/platform/env";

/**
 * Tokens at rest: AES-256-GCM with a random 96-bit nonce per value; the stored text is
 * `v1.<nonce>.<tag>.<ciphertext>` in base64url. GCM's tag makes a tampered or mis-keyed value fail
 * to decrypt instead of yielding garbage. The key is TOKEN_ENCRYPTION_KEY, or with the embedded
 * sandbox one generated once under DATA_DIR.
 */
const VERSION = "v1";

function key(): Buffer {
  const text = env().TOKEN_ENCRYPTION_KEY ?? localSecrets().tokenEncryptionKey;
  return Buffer.from(text, "base64");
}

export function encryptToken(plain: string, k: Buffer = key()): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", k, nonce);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, nonce, cipher.getAuthTag(), data]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

export function decryptToken(stored: string, k: Buffer = key()): string {
  const [version, nonce, tag, data] = stored.split(".");
  if (version !== VERSION || !nonce || !tag || data === undefined)
    throw new Error("encrypted token: unknown format");
  const decipher = createDecipheriv("aes-256-gcm", k, Buffer.from(nonce, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}

/**
 * What the dashboard keeps of the service account behind a patient account: an HMAC-SHA-256 of the
 * v3 envelope's userId, never the userId. Sign-in only needs to find the account again (equality),
 * so the value itself is of no use to us, while a copy of the database holding it would tie every
 * patient account, its clinic shares and its synced data to the person's account at the service
 * (the same userId is in every response our app receives and in whatever the service's partners
 * log). The key is derived from TOKEN_ENCRYPTION_KEY, the secret that already protects the
 * service's tokens at rest, under a label of its own so that no token ciphertext could ever be
 * confused with it: the database alone, without that key, cannot confirm a guessed userId.
 * Losing or changing the key already means every patient must sign in again; a sign-in after
 * that makes a new account rather than reaching the old one, which stays as it was (no two
 * people's data are ever joined by a stale hash).
 */
export function serviceUserHash(serviceUserId: string, k: Buffer = key()): string {
  const derived = createHmac("sha256", k).update("glucose-dashboard: service userId").digest();
  return createHmac("sha256", derived).update(serviceUserId).digest("base64url");
}
