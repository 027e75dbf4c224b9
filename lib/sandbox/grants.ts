import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { db, schema } from "@/lib/db";
import { env } from "@/lib/platform/env";
import { sha256Base64url } from "@/lib/platform/security/hash";
import { authenticateClient } from "./apps";
import { OAuthError } from "./errors";
import { type FaultSettings, faultsOf } from "./faults";
import { randomToken, sha256 } from "./secrets";

/**
 * Grants and the tokens that carry them (spec sections 7, 8): the token endpoint's code exchange
 * and refresh, bearer authentication of data requests, and revocation by the user.
 * Decisions where the spec is silent:
 * - A replayed authorization code revokes the grant it created (RFC 6749 section 4.1.2: SHOULD).
 * - A spent refresh token presented again revokes the whole grant (RFC 9700 section 4.14.2), so a
 *   client that refreshes twice with one token fails loudly instead of silently forking sessions.
 * - PKCE is optional and S256 only; a verifier sent for a code issued without a challenge is
 *   refused, which blocks PKCE downgrade (RFC 9700 section 2.1.1).
 * - Codes and tokens are stored as SHA-256 hashes only.
 */

export const REFRESH_TOKEN_TTL_MS = 365 * 24 * 3600 * 1000;

// ---- Token endpoint -----------------------------------------------------------------------------

export interface TokenPair {
  access_token: string;
  expires_in: number;
  token_type: "Bearer";
  refresh_token: string;
  refresh_expires_in: 0;
  "not-before-policy": string;
  session_state: string;
}

type Tx = Parameters<Parameters<Awaited<ReturnType<typeof db>>["transaction"]>[0]>[0];

async function issueTokens(tx: Tx, grant: { id: string; sessionState: string }): Promise<TokenPair> {
  const access = randomToken();
  const refresh = randomToken();
  const ttl = env().SANDBOX_ACCESS_TOKEN_TTL;
  const now = Date.now();
  await tx
    .insert(schema.sandboxAccessTokens)
    .values({ tokenHash: sha256(access), grantId: grant.id, expiresAt: new Date(now + ttl * 1000) });
  await tx.insert(schema.sandboxRefreshTokens).values({
    tokenHash: sha256(refresh),
    grantId: grant.id,
    expiresAt: new Date(now + REFRESH_TOKEN_TTL_MS),
  });
  return {
    access_token: access,
    expires_in: ttl,
    token_type: "Bearer",
    refresh_token: refresh,
    refresh_expires_in: 0,
    "not-before-policy": "0",
    session_state: grant.sessionState,
  };
}

async function revokeGrantById(tx: Tx, grantId: string, reason: string) {
  await tx
    .update(schema.sandboxGrants)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(schema.sandboxGrants.id, grantId), isNull(schema.sandboxGrants.revokedAt)));
}

export async function exchangeCode(form: URLSearchParams): Promise<TokenPair> {
  const app = await authenticateClient(
    form.get("client_id") ?? undefined,
    form.get("client_secret") ?? undefined,
  );
  const code = form.get("code");
  const redirectUri = form.get("redirect_uri");
  if (!code) throw new OAuthError("invalid_request", "code is required");
  if (!redirectUri) throw new OAuthError("invalid_request", "redirect_uri is required");
  const verifier = form.get("code_verifier");
  const database = await db();
  const result = await database.transaction(async (tx) => {
    // Consuming is one conditional UPDATE so two concurrent exchanges cannot both win.
    const [row] = await tx
      .update(schema.sandboxAuthCodes)
      .set({ consumedAt: new Date() })
      .where(
        and(eq(schema.sandboxAuthCodes.codeHash, sha256(code)), isNull(schema.sandboxAuthCodes.consumedAt)),
      )
      .returning();
    if (!row) {
      const [spent] = await tx
        .select()
        .from(schema.sandboxAuthCodes)
        .where(eq(schema.sandboxAuthCodes.codeHash, sha256(code)));
      if (spent?.grantId) await revokeGrantById(tx, spent.grantId, "authorization_code_reuse");
      return new OAuthError(
        "invalid_grant",
        spent ? "The authorization code was already used" : "Unknown authorization code",
      );
    }
    if (row.clientId !== app.clientId)
      return new OAuthError("invalid_grant", "The code was issued to another client");
    if (row.expiresAt.getTime() <= Date.now())
      return new OAuthError("invalid_grant", "The authorization code has expired");
    if (row.redirectUri !== redirectUri) {
      return new OAuthError(
        "invalid_grant",
        "redirect_uri does not match the one of the authorization request",
      );
    }
    if (row.codeChallenge) {
      if (!verifier) return new OAuthError("invalid_grant", "code_verifier is required for this code (PKCE)");
      // PKCE S256 (RFC 7636): the challenge is BASE64URL(SHA256(verifier)).
      const expected = sha256Base64url(verifier);
      if (expected !== row.codeChallenge)
        return new OAuthError("invalid_grant", "code_verifier does not match");
    } else if (verifier) {
      return new OAuthError("invalid_grant", "code_verifier sent for a code issued without code_challenge");
    }
    const grant = { id: randomUUID(), sessionState: randomUUID() };
    await tx.insert(schema.sandboxGrants).values({
      id: grant.id,
      clientId: app.clientId,
      username: row.username,
      sessionState: grant.sessionState,
    });
    await tx
      .update(schema.sandboxAuthCodes)
      .set({ grantId: grant.id })
      .where(eq(schema.sandboxAuthCodes.codeHash, row.codeHash));
    return issueTokens(tx, grant);
  });
  if (result instanceof OAuthError) throw result;
  return result;
}

export async function refreshTokens(form: URLSearchParams): Promise<TokenPair> {
  const app = await authenticateClient(
    form.get("client_id") ?? undefined,
    form.get("client_secret") ?? undefined,
  );
  const token = form.get("refresh_token");
  if (!token) throw new OAuthError("invalid_request", "refresh_token is required");
  const database = await db();
  const result = await database.transaction(async (tx) => {
    const [row] = await tx
      .update(schema.sandboxRefreshTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(schema.sandboxRefreshTokens.tokenHash, sha256(token)),
          isNull(schema.sandboxRefreshTokens.usedAt),
        ),
      )
      .returning();
    if (!row) {
      const [spent] = await tx
        .select()
        .from(schema.sandboxRefreshTokens)
        .where(eq(schema.sandboxRefreshTokens.tokenHash, sha256(token)));
      if (!spent) return new OAuthError("invalid_grant", "Unknown refresh token");
      await revokeGrantById(tx, spent.grantId, "refresh_token_reuse");
      return new OAuthError(
        "invalid_grant",
        "The refresh token was already used; the authorization is revoked and the user must sign in again",
      );
    }
    const [grant] = await tx
      .select()
      .from(schema.sandboxGrants)
      .where(eq(schema.sandboxGrants.id, row.grantId));
    if (!grant || grant.clientId !== app.clientId) {
      return new OAuthError("invalid_grant", "The refresh token was issued to another client");
    }
    if (grant.revokedAt) return new OAuthError("invalid_grant", "The authorization was revoked");
    if (row.expiresAt.getTime() <= Date.now())
      return new OAuthError("invalid_grant", "The refresh token has expired");
    return issueTokens(tx, grant);
  });
  if (result instanceof OAuthError) throw result;
  return result;
}

// ---- Resource access ----------------------------------------------------------------------------

export interface BearerIdentity {
  username: string;
  clientId: string;
  grantId: string;
  /** The app's fault settings, read in the same query (every data request needs both). */
  faults: FaultSettings;
}

/** The user and app behind a valid access token, or null (expired, unknown or revoked). */
export async function authenticateBearer(token: string): Promise<BearerIdentity | null> {
  const [row] = await (await db())
    .select({
      username: schema.sandboxGrants.username,
      clientId: schema.sandboxGrants.clientId,
      grantId: schema.sandboxGrants.id,
      faults: schema.sandboxFaults,
    })
    .from(schema.sandboxAccessTokens)
    .innerJoin(schema.sandboxGrants, eq(schema.sandboxAccessTokens.grantId, schema.sandboxGrants.id))
    .leftJoin(schema.sandboxFaults, eq(schema.sandboxFaults.clientId, schema.sandboxGrants.clientId))
    .where(
      and(
        eq(schema.sandboxAccessTokens.tokenHash, sha256(token)),
        gt(schema.sandboxAccessTokens.expiresAt, sql`now()`),
        isNull(schema.sandboxGrants.revokedAt),
      ),
    );
  return row ? { ...row, faults: faultsOf(row.faults) } : null;
}

/** Fault injection: every access token of the app expires now. */
export async function expireAccessTokens(clientId: string): Promise<number> {
  const rows = await (await db())
    .update(schema.sandboxAccessTokens)
    .set({ expiresAt: new Date() })
    .where(
      sql`${schema.sandboxAccessTokens.grantId} in (select id from sandbox_grants where client_id = ${clientId})`,
    )
    .returning({ h: schema.sandboxAccessTokens.tokenHash });
  return rows.length;
}

// ---- Permissions (the user's side) --------------------------------------------------------------

export interface UserGrant {
  grantId: string;
  clientId: string;
  appName: string;
  createdAt: Date;
}

export async function listActiveGrants(username: string): Promise<UserGrant[]> {
  return (await db())
    .select({
      grantId: schema.sandboxGrants.id,
      clientId: schema.sandboxGrants.clientId,
      appName: schema.sandboxApps.name,
      createdAt: schema.sandboxGrants.createdAt,
    })
    .from(schema.sandboxGrants)
    .innerJoin(schema.sandboxApps, eq(schema.sandboxApps.clientId, schema.sandboxGrants.clientId))
    .where(and(eq(schema.sandboxGrants.username, username), isNull(schema.sandboxGrants.revokedAt)))
    .orderBy(schema.sandboxGrants.createdAt);
}

/**
 * Revokes every active grant of this user for this app: its refresh tokens then answer 400 and
 * its access tokens 401. Returns how many grants were revoked.
 */
export async function revokeAppForUser(username: string, clientId: string): Promise<number> {
  const rows = await (await db())
    .update(schema.sandboxGrants)
    .set({ revokedAt: new Date(), revokedReason: "revoked_by_user" })
    .where(
      and(
        eq(schema.sandboxGrants.username, username),
        eq(schema.sandboxGrants.clientId, clientId),
        isNull(schema.sandboxGrants.revokedAt),
      ),
    )
    .returning({ id: schema.sandboxGrants.id });
  return rows.length;
}

// ---- Counts for tests ---------------------------------------------------------------------------

/** For tests of clients: how many refresh grants the app made, and how many of its grants died. */
export async function tokenStats(clientId: string) {
  const [row] = await (await db())
    .execute<{ refresh_grants: number; revoked_grants: number; grants: number }>(sql`
    select
      (select count(*)::int from sandbox_refresh_tokens r join sandbox_grants g on g.id = r.grant_id
        where g.client_id = ${clientId} and r.used_at is not null) as refresh_grants,
      (select count(*)::int from sandbox_grants where client_id = ${clientId} and revoked_at is not null) as revoked_grants,
      (select count(*)::int from sandbox_grants where client_id = ${clientId}) as grants`)
    .then((r) => r.rows);
  return {
    refreshGrants: Number(row?.refresh_grants ?? 0),
    revokedGrants: Number(row?.revoked_grants ?? 0),
    grants: Number(row?.grants ?? 0),
  };
}
