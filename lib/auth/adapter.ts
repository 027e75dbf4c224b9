import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Adapter, AdapterSession, AdapterUser } from "next-auth/adapters";
import { db, schema } from "@/lib/db";
import { sha256Base64url } from "@/lib/platform/security/hash";
import { forgetReader } from "@/lib/service-client/connection-cache";

/**
 * next-auth's database adapter over our drizzle schema. next-auth reads, renews and deletes
 * sessions through it; the sign-in callback creates them through it too, so a session has one
 * life cycle whoever starts it. Session tokens are stored as SHA-256 hashes: the cookie holds the
 * only copy of the value. The service's tokens are not here: they belong to lib/service-client.
 */

export const hashSessionToken = (token: string) => sha256Base64url(token);

/** 256 random bits: the opaque id the session cookie carries. */
export const newSessionToken = () => randomBytes(32).toString("base64url");

type UserRow = typeof schema.users.$inferSelect;

function toAdapterUser(row: UserRow): AdapterUser {
  // next-auth's type wants an email; our patients have none (the service tells us no identity).
  return {
    id: row.id,
    name: row.name,
    email: row.email ?? "",
    emailVerified: row.emailVerified,
    image: row.image,
  };
}

async function userById(id: string): Promise<AdapterUser | null> {
  const [row] = await (await db()).select().from(schema.users).where(eq(schema.users.id, id));
  return row ? toAdapterUser(row) : null;
}

export const adapter = {
  async createUser(user) {
    const id = randomUUID();
    await (await db()).insert(schema.users).values({
      id,
      name: user.name ?? null,
      email: user.email || null,
      emailVerified: user.emailVerified ?? null,
      image: user.image ?? null,
    });
    return { ...user, id };
  },
  getUser: userById,
  async getUserByEmail(email) {
    const [row] = await (await db()).select().from(schema.users).where(eq(schema.users.email, email));
    return row ? toAdapterUser(row) : null;
  },
  // Accounts of OAuth providers configured in next-auth: there are none. The service's
  // authorization is a connection (lib/service-client), created by our own callback.
  async getUserByAccount() {
    return null;
  },
  async linkAccount() {
    throw new Error("next-auth accounts are not used: CGM connections are stored by lib/service-client");
  },
  async updateUser(user) {
    await (await db())
      .update(schema.users)
      .set({ name: user.name, image: user.image })
      .where(eq(schema.users.id, user.id));
    const updated = await userById(user.id);
    if (!updated) throw new Error("updateUser: no such user");
    return updated;
  },
  async createSession(session) {
    await (await db()).insert(schema.sessions).values({
      tokenHash: hashSessionToken(session.sessionToken),
      userId: session.userId,
      expires: session.expires,
    });
    return session;
  },
  async getSessionAndUser(sessionToken) {
    const [row] = await (await db())
      .select()
      .from(schema.sessions)
      .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
      .where(eq(schema.sessions.tokenHash, hashSessionToken(sessionToken)));
    if (!row) return null;
    const session: AdapterSession = {
      sessionToken,
      userId: row.sessions.userId,
      expires: row.sessions.expires,
    };
    return { session, user: toAdapterUser(row.users) };
  },
  async updateSession(session) {
    const hash = hashSessionToken(session.sessionToken);
    const [row] = await (await db())
      .update(schema.sessions)
      .set({ ...(session.expires ? { expires: session.expires } : {}) })
      .where(eq(schema.sessions.tokenHash, hash))
      .returning();
    return row ? { sessionToken: session.sessionToken, userId: row.userId, expires: row.expires } : null;
  },
  async deleteSession(sessionToken) {
    const hash = hashSessionToken(sessionToken);
    await (await db()).delete(schema.sessions).where(eq(schema.sessions.tokenHash, hash));
    forgetReader(hash);
  },
} satisfies Adapter;
