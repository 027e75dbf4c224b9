import "server-only";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { db, schema } from "@/lib/db";
import { OAuthError } from "./errors";
import { randomToken, sameHash, sha256 } from "./secrets";

/**
 * The apps registered with the sandbox's authorization server: their ids, secrets (stored as
 * SHA-256 hashes only) and redirect URIs, and the check of client credentials (spec section 5).
 */

export interface AppPublic {
  client_id: string;
  name: string;
  redirectUris: string[];
}

export async function createApp(input: {
  name: string;
  redirectUris: string[];
  clientId?: string;
  clientSecret?: string;
}): Promise<AppPublic & { client_secret: string }> {
  const clientId = input.clientId ?? randomUUID();
  const secret = input.clientSecret ?? randomToken();
  await (await db())
    .insert(schema.sandboxApps)
    .values({ clientId, name: input.name, redirectUris: input.redirectUris, secretHash: sha256(secret) });
  return { client_id: clientId, client_secret: secret, name: input.name, redirectUris: input.redirectUris };
}

/**
 * Makes sure an app with this id, secret and redirect URIs exists, as the dashboard does at start
 * with its own app. Idempotent, so several processes starting at once agree.
 */
export async function ensureApp(input: {
  clientId: string;
  clientSecret: string;
  name: string;
  redirectUris: string[];
}): Promise<void> {
  await (await db())
    .insert(schema.sandboxApps)
    .values({
      clientId: input.clientId,
      name: input.name,
      redirectUris: input.redirectUris,
      secretHash: sha256(input.clientSecret),
    })
    .onConflictDoUpdate({
      target: schema.sandboxApps.clientId,
      set: { name: input.name, redirectUris: input.redirectUris, secretHash: sha256(input.clientSecret) },
    });
}

export async function findApp(clientId: string) {
  const [app] = await (await db())
    .select()
    .from(schema.sandboxApps)
    .where(eq(schema.sandboxApps.clientId, clientId));
  return app ?? null;
}

export async function listApps(): Promise<AppPublic[]> {
  const rows = await (await db()).select().from(schema.sandboxApps).orderBy(schema.sandboxApps.createdAt);
  return rows.map((a) => ({ client_id: a.clientId, name: a.name, redirectUris: a.redirectUris }));
}

/** A new secret; the old one stops working at once (spec section 5). Null when the app is unknown. */
export async function rotateSecret(clientId: string): Promise<string | null> {
  const secret = randomToken();
  const updated = await (await db())
    .update(schema.sandboxApps)
    .set({ secretHash: sha256(secret), secretRotatedAt: new Date() })
    .where(eq(schema.sandboxApps.clientId, clientId))
    .returning({ clientId: schema.sandboxApps.clientId });
  return updated.length ? secret : null;
}

/** Checks client credentials; the same failure for an unknown id and a wrong secret. */
export async function authenticateClient(clientId: string | undefined, clientSecret: string | undefined) {
  if (!clientId || !clientSecret) {
    throw new OAuthError("invalid_client", "client_id and client_secret are required in the form body");
  }
  const app = await findApp(clientId);
  if (!app || !sameHash(app.secretHash, sha256(clientSecret))) {
    throw new OAuthError("invalid_client", "Unknown client_id or wrong client_secret");
  }
  return app;
}
