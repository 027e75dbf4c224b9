import "server-only";
import { randomUUID } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { TokenResponse } from "@/lib/cgm";
import { type Db, db, schema } from "@/lib/db";
import { env } from "@/lib/platform/env";
import { forgetConnection, recallToken, rememberToken } from "./connection-cache";
import { decryptToken, encryptToken } from "./crypto";
import { refreshTokens, TokenRequestError } from "./oauth";

/**
 * The token lifecycle of a connection. The service's refresh tokens are single use and a reused
 * one revokes the whole authorization, so a refresh must happen once however many requests need a
 * fresh access token at the same moment:
 * - In one process, concurrent callers share one refresh (a promise per connection).
 * - Across processes (PostgreSQL), the refresh runs inside a transaction holding the connection's
 *   row lock (SELECT … FOR UPDATE); the new pair is written in that same transaction, so the old
 *   refresh token is retired exactly when the new one is stored. A process that waited for the lock
 *   re-reads the row and, finding a newer token, uses it instead of refreshing again.
 * - On PGlite there is one process by construction (PGlite allows one per data folder), and a
 *   transaction held across the HTTP call would block the embedded sandbox, which answers that call
 *   from the same database. So PGlite relies on the in-process single flight, and the write is
 *   conditional on the token version read before the call.
 * A refresh answered 400 marks the connection "needs_reconnect": never a 500, never a retry loop.
 */

/** Refresh this long before the access token expires, so a request never starts with a dying token. */
export const REFRESH_SKEW_MS = 60_000;

/*
 * Next bundles this module once per layer (pages, route handlers), and the refreshes in flight
 * are shared across them on globalThis: a page may await a refresh a route handler started and
 * receive that copy's error. `instanceof` against the other copy's class said no, and the page
 * answered 500 instead of "reconnect". So the two errors are recognised by a registered symbol,
 * which every copy shares.
 */
const RECONNECT_REQUIRED = Symbol.for("glucose-dashboard.ReconnectRequired");
const TOKEN_UNAVAILABLE = Symbol.for("glucose-dashboard.TokenUnavailable");
const branded = (x: unknown, brand: symbol) => typeof x === "object" && x !== null && brand in x;

export class ReconnectRequired extends Error {
  readonly [RECONNECT_REQUIRED] = true;
  constructor(readonly connectionId: string) {
    super("The CGM account must be connected again: the service no longer accepts this authorization.");
  }
  static override [Symbol.hasInstance](x: unknown): boolean {
    return branded(x, RECONNECT_REQUIRED);
  }
}

export class TokenUnavailable extends Error {
  readonly [TOKEN_UNAVAILABLE] = true;
  constructor(readonly reason: TokenRequestError) {
    super(`A fresh access token could not be obtained: ${reason.message}`);
  }
  static override [Symbol.hasInstance](x: unknown): boolean {
    return branded(x, TOKEN_UNAVAILABLE);
  }
}

export type ConnectionRow = typeof schema.cgmConnections.$inferSelect;
type Row = ConnectionRow;

/**
 * A connection as callers hold it: its id, or its row as read at the start of the request (which
 * saves the hot path a second read of the same row).
 */
export type ConnectionRef = string | ConnectionRow;

export const connectionIdOf = (ref: ConnectionRef): string => (typeof ref === "string" ? ref : ref.id);

function tokenColumns(tokens: TokenResponse) {
  return {
    accessTokenEnc: encryptToken(tokens.access_token),
    refreshTokenEnc: encryptToken(tokens.refresh_token),
    accessExpiresAt: new Date(Date.now() + tokens.expires_in * 1000),
    status: "active" as const,
    updatedAt: new Date(),
  };
}

/** Stores the tokens of a completed authorization as a new connection of `ownerId`. */
export async function createConnection(
  ownerId: string,
  tokens: TokenResponse,
  authorizedAt = new Date(),
  database?: Db,
): Promise<string> {
  const id = randomUUID();
  await (database ?? (await db()))
    .insert(schema.cgmConnections)
    .values({ id, ownerId, ...tokenColumns(tokens), authorizedAt });
  return id;
}

/** Replaces the tokens of an existing connection (reconnect) and makes it active again. */
export async function replaceTokens(
  connectionId: string,
  tokens: TokenResponse,
  authorizedAt = new Date(),
  database?: Db,
): Promise<void> {
  await (database ?? (await db()))
    .update(schema.cgmConnections)
    .set({
      ...tokenColumns(tokens),
      authorizedAt,
      tokenVersion: sql`${schema.cgmConnections.tokenVersion} + 1`,
    })
    .where(eq(schema.cgmConnections.id, connectionId));
  forgetConnection(connectionId);
}

export async function getConnection(connectionId: string): Promise<Row | null> {
  const [row] = await (await db())
    .select()
    .from(schema.cgmConnections)
    .where(eq(schema.cgmConnections.id, connectionId));
  return row ?? null;
}

/** The owner's connection (a patient has one; a newer sign-in replaces the tokens of the old). */
export async function connectionOfOwner(ownerId: string): Promise<Row | null> {
  const [row] = await (await db())
    .select()
    .from(schema.cgmConnections)
    .where(eq(schema.cgmConnections.ownerId, ownerId))
    .orderBy(desc(schema.cgmConnections.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * Stores a completed authorization for the owner: renews their connection, or creates one. Inside
 * the caller's transaction, which must hold the owner's users row locked (FOR UPDATE), so that two
 * sign-ins of one account at once cannot each create a connection. Of two authorizations, the one
 * whose code exchange completed later is kept, whichever commits last: both are valid when they are
 * stored, and the later is the one the service issued last. A refresh under way on the replaced
 * tokens cannot write over the new ones: it holds the row lock (PostgreSQL) or writes only if the
 * token version it read is still current (PGlite), and a replacement bumps the version.
 */
export async function storeAuthorizationIn(
  tx: Db,
  ownerId: string,
  tokens: TokenResponse,
  authorizedAt: Date,
): Promise<string> {
  const c = schema.cgmConnections;
  const [existing] = await tx
    .select({ id: c.id, authorizedAt: c.authorizedAt, status: c.status })
    .from(c)
    .where(eq(c.ownerId, ownerId))
    .orderBy(desc(c.createdAt))
    .limit(1);
  if (!existing) return createConnection(ownerId, tokens, authorizedAt, tx);
  if (replacesStored(existing, authorizedAt)) await replaceTokens(existing.id, tokens, authorizedAt, tx);
  return existing.id;
}

/**
 * Whether an authorization completed at `authorizedAt` replaces the stored one: unless the stored
 * one is later (a sign-in that finished its exchange after ours and stored first) and still
 * accepted by the service. A connection from before authorized_at counts as older than any.
 */
export function replacesStored(
  stored: { authorizedAt: Date | null; status: "active" | "needs_reconnect" },
  authorizedAt: Date,
): boolean {
  if (stored.status !== "active" || stored.authorizedAt === null) return true;
  return stored.authorizedAt.getTime() <= authorizedAt.getTime();
}

/** Stores a completed authorization for the owner (storeAuthorizationIn, in a transaction of its own). */
export async function storeAuthorization(
  ownerId: string,
  tokens: TokenResponse,
  authorizedAt = new Date(),
): Promise<string> {
  const connectionId = await (await db()).transaction(async (t) => {
    const tx = t as unknown as Db;
    await tx
      .select({ id: schema.users.id })
      .from(schema.users)
      .where(eq(schema.users.id, ownerId))
      .for("update");
    return storeAuthorizationIn(tx, ownerId, tokens, authorizedAt);
  });
  // Again once committed: a request may have read the old tokens while the transaction ran.
  forgetConnection(connectionId);
  return connectionId;
}

/** "Disconnect": the tokens are deleted; the service's data already fetched is not ours to keep here. */
export async function deleteConnection(connectionId: string): Promise<void> {
  await (await db()).delete(schema.cgmConnections).where(eq(schema.cgmConnections.id, connectionId));
  forgetConnection(connectionId);
}

/** The stored access token in clear, decrypted once while it stays the stored one (connection-cache.ts). */
function decrypted(connectionId: string, ciphertext: string): string {
  const known = recallToken(connectionId, ciphertext);
  if (known !== null) return known;
  const token = decryptToken(ciphertext);
  rememberToken(connectionId, ciphertext, token);
  return token;
}

function usableToken(row: Row, stale: string | undefined): string | null {
  if (row.status !== "active" || !row.accessTokenEnc || !row.accessExpiresAt) return null;
  if (row.accessExpiresAt.getTime() - REFRESH_SKEW_MS <= Date.now()) return null;
  const token = decrypted(row.id, row.accessTokenEnc);
  // The caller saw this token answered 401: only a different (newer) one is of use.
  return token === stale ? null : token;
}

declare global {
  // On globalThis so that Next's module reloading in development keeps one map per process.
  var __cgmRefreshes: Map<string, Promise<string>> | undefined;
}
if (!globalThis.__cgmRefreshes) globalThis.__cgmRefreshes = new Map();
const inFlight = globalThis.__cgmRefreshes;

/**
 * A valid access token for the connection, refreshing it when it expires within a minute or when
 * `stale` (the token a request just saw answered 401) is still the stored one.
 */
export async function accessToken(ref: ConnectionRef, stale?: string): Promise<string> {
  const connectionId = connectionIdOf(ref);
  // A row read at the start of this request is fresh enough for its first call; after a 401
  // (`stale`), only the database can say whether another request has refreshed meanwhile.
  const row = typeof ref !== "string" && stale === undefined ? ref : await getConnection(connectionId);
  if (!row || row.status === "needs_reconnect") throw new ReconnectRequired(connectionId);
  const ready = usableToken(row, stale);
  if (ready) return ready;
  let refreshing = inFlight.get(connectionId);
  if (!refreshing) {
    refreshing = refresh(connectionId, stale).finally(() => inFlight.delete(connectionId));
    inFlight.set(connectionId, refreshing);
  }
  return refreshing;
}

type Outcome = { token: string } | { reconnect: true } | { error: TokenRequestError };

async function refresh(connectionId: string, stale: string | undefined): Promise<string> {
  const database = await db();
  const outcome = env().DATABASE_URL
    ? await database.transaction((tx) => refreshLocked(tx as unknown as Db, connectionId, stale))
    : await refreshUnlocked(database, connectionId, stale);
  // Whatever came of it (new tokens, needs_reconnect), it is written and committed by now: what
  // this process held of the connection is out of date.
  forgetConnection(connectionId);
  if ("token" in outcome) return outcome.token;
  if ("reconnect" in outcome) throw new ReconnectRequired(connectionId);
  throw new TokenUnavailable(outcome.error);
}

async function spend(database: Db, row: Row, conditionalOnVersion: boolean): Promise<Outcome> {
  if (!row.refreshTokenEnc) return markReconnect(database, row.id);
  try {
    const tokens = await refreshTokens(decryptToken(row.refreshTokenEnc));
    const where = conditionalOnVersion
      ? and(eq(schema.cgmConnections.id, row.id), eq(schema.cgmConnections.tokenVersion, row.tokenVersion))
      : eq(schema.cgmConnections.id, row.id);
    await database
      .update(schema.cgmConnections)
      .set({ ...tokenColumns(tokens), tokenVersion: row.tokenVersion + 1, refreshedAt: new Date() })
      .where(where);
    return { token: tokens.access_token };
  } catch (e) {
    if (e instanceof TokenRequestError) return e.isFinal ? markReconnect(database, row.id) : { error: e };
    throw e;
  }
}

async function markReconnect(database: Db, connectionId: string): Promise<Outcome> {
  await database
    .update(schema.cgmConnections)
    .set({ status: "needs_reconnect", accessTokenEnc: null, refreshTokenEnc: null, updatedAt: new Date() })
    .where(eq(schema.cgmConnections.id, connectionId));
  return { reconnect: true };
}

async function refreshLocked(tx: Db, connectionId: string, stale: string | undefined): Promise<Outcome> {
  const [row] = await tx
    .select()
    .from(schema.cgmConnections)
    .where(eq(schema.cgmConnections.id, connectionId))
    .for("update");
  if (!row || row.status === "needs_reconnect") return { reconnect: true };
  // Another process refreshed while we waited for the lock: use its token.
  const ready = usableToken(row, stale);
  if (ready) return { token: ready };
  return spend(tx, row, false);
}

async function refreshUnlocked(
  database: Db,
  connectionId: string,
  stale: string | undefined,
): Promise<Outcome> {
  const row = await getConnection(connectionId);
  if (!row || row.status === "needs_reconnect") return { reconnect: true };
  const ready = usableToken(row, stale);
  if (ready) return { token: ready };
  return spend(database, row, true);
}
