import "server-only";
import { and, desc, eq, gt } from "drizzle-orm";
import { cookies } from "next/headers";
import { db, schema } from "@/lib/db";
import { cacheGeneration, recallReader, rememberReader } from "@/lib/service-client/connection-cache";
import type { ConnectionRow } from "@/lib/service-client/tokens";
import { hashSessionToken } from "./adapter";
import { sessionCookie } from "./cookies";

/**
 * Who is asking, and with which connection, in one database round trip: the hot path of every
 * /api/cgm call. It reads the session next-auth created (same table, same hash) without renewing
 * it; pages, which call next-auth's auth(), keep the session alive. The connection is the
 * signed-in user's own, found by owner: a request cannot name another patient's. A session with a
 * connection is then held briefly in memory under its own hash (connection-cache.ts), forgotten
 * at sign-out and whenever the connection changes.
 */
export interface SignedInPatient {
  userId: string;
  connection: ConnectionRow | null;
}

export async function signedInPatient(): Promise<SignedInPatient | null> {
  const token = (await cookies()).get(sessionCookie().name)?.value;
  if (!token) return null;
  const key = hashSessionToken(token);
  const known = recallReader(key);
  if (known) return known;
  const generation = cacheGeneration();
  const { sessions, cgmConnections } = schema;
  const [row] = await (await db())
    .select({ userId: sessions.userId, expires: sessions.expires, connection: cgmConnections })
    .from(sessions)
    .leftJoin(cgmConnections, eq(cgmConnections.ownerId, sessions.userId))
    .where(and(eq(sessions.tokenHash, key), gt(sessions.expires, new Date())))
    .orderBy(desc(cgmConnections.createdAt))
    .limit(1);
  if (!row) return null;
  const { userId, connection } = row;
  // Not connected is not held: connecting then shows at once, and that answer needs no speed.
  if (connection) rememberReader(key, { userId, connection }, generation, row.expires.getTime());
  return { userId, connection };
}
