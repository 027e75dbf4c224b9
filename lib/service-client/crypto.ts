import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { localSecrets } from "@/lib/config/local-secrets";
import { env } from "@/lib/env";

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
