import "server-only";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { env } from "@/lib/platform/env";

/**
 * Secrets a newcomer should not have to invent: with the embedded sandbox they are generated once
 * under DATA_DIR (mode 0600) and reused, so restarts keep sessions, tokens and the app's secret.
 */
const secretsSchema = z.object({
  authSecret: z.string().min(32),
  tokenEncryptionKey: z.string().min(40),
  cgmClientSecret: z.string().min(32),
});
export type LocalSecrets = z.infer<typeof secretsSchema>;

let cached: LocalSecrets | undefined;

export function localSecrets(): LocalSecrets {
  if (cached) return cached;
  const file = path.resolve(env().DATA_DIR, "secrets.json");
  try {
    cached = secretsSchema.parse(JSON.parse(readFileSync(file, "utf8")));
    return cached;
  } catch {
    const fresh: LocalSecrets = {
      authSecret: randomBytes(32).toString("base64url"),
      tokenEncryptionKey: randomBytes(32).toString("base64"),
      cgmClientSecret: randomBytes(32).toString("base64url"),
    };
    mkdirSync(path.dirname(file), { recursive: true });
    // "wx" fails if another process won the race; then its file is the one to use.
    try {
      writeFileSync(file, JSON.stringify(fresh, null, 2), { mode: 0o600, flag: "wx" });
      cached = fresh;
    } catch {
      cached = secretsSchema.parse(JSON.parse(readFileSync(file, "utf8")));
    }
    return cached;
  }
}
