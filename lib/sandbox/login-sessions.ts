import "server-only";
import { and, eq, gt, sql } from "drizzle-orm";
import { db, schema } from "@/lib/db";
import { randomToken, sha256 } from "./secrets";

/**
 * The sandbox's own sign-in: the session a sandbox user holds while logging in and answering the
 * consent page (a cookie with a random id; the database keeps its SHA-256 hash).
 */

export const SANDBOX_SESSION_COOKIE = "sandbox_session";
const SESSION_TTL_MS = 12 * 3600 * 1000;

export async function startSandboxSession(username: string): Promise<{ id: string; maxAgeSeconds: number }> {
  const id = randomToken();
  await (await db())
    .insert(schema.sandboxSessions)
    .values({ idHash: sha256(id), username, expiresAt: new Date(Date.now() + SESSION_TTL_MS) });
  return { id, maxAgeSeconds: SESSION_TTL_MS / 1000 };
}

export async function sandboxSessionUser(id: string | undefined): Promise<string | null> {
  if (!id) return null;
  const [row] = await (await db())
    .select()
    .from(schema.sandboxSessions)
    .where(
      and(eq(schema.sandboxSessions.idHash, sha256(id)), gt(schema.sandboxSessions.expiresAt, sql`now()`)),
    );
  return row?.username ?? null;
}

export async function endSandboxSession(id: string | undefined): Promise<void> {
  if (!id) return;
  await (await db()).delete(schema.sandboxSessions).where(eq(schema.sandboxSessions.idHash, sha256(id)));
}
