import "server-only";
import { and, desc, eq, gt } from "drizzle-orm";
import { cookies } from "next/headers";
import { db, schema } from "@/lib/db";
import type { ConnectionRow } from "@/lib/service-client/tokens";
import { hashSessionToken } from "./adapter";
import { sessionCookie } from "./cookies";

/**
 * Who is asking, and with which connection, in one database round trip: the hot path of every
 * /api/cgm call. It reads the session next-auth created (same table, same hash) without renewing
 * it; pages, which call next-auth's auth(), keep the session alive. The connection is the
 * signed-in user's own, found by owner: a request cannot name another patient's.
 */
export interface SignedInPatient {
  userId: string;
  connection: ConnectionRow | null;
}

export async function signedInPatient(): Promise<SignedInPatient | null> {
  const token = (await cookies()).get(sessionCookie().name)?.value;
  if (!token) return null;
  const { sessions, cgmConnections } = schema;
  const [row] = await (await db())
    .select({ userId: sessions.userId, connection: cgmConnections })
    .from(sessions)
    .leftJoin(cgmConnections, eq(cgmConnections.ownerId, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashSessionToken(token)), gt(sessions.expires, new Date())))
    .orderBy(desc(cgmConnections.createdAt))
    .limit(1);
  return row ? { userId: row.userId, connection: row.connection } : null;
}
