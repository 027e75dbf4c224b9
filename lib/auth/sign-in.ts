import "server-only";
import { and, eq, gt, lt } from "drizzle-orm";
import type { TokenResponse } from "@/lib/cgm";
import { db, schema } from "@/lib/db";
import { env } from "@/lib/platform/env";
import { sha256Base64url } from "@/lib/platform/security/hash";
import { decryptToken, encryptToken } from "@/lib/service-client/crypto";
import { authorizationAccount, IdentityUnknown } from "@/lib/service-client/identity";
import { exchangeAuthorizationCode, startAuthorization, TokenRequestError } from "@/lib/service-client/oauth";
import { storeAuthorization } from "@/lib/service-client/tokens";
import { adapter, newSessionToken } from "./adapter";
import { relinkShares } from "./clinic-shares";
import { SESSION_MAX_AGE_S } from "./index";
import { safeReturnTo } from "./return-to";
import { signInServiceAccount } from "./service-account";

/**
 * Sign-in with the service (authorization code + PKCE S256), our own flow so the exchange goes
 * through the one token module. An attempt lives in the database for at most 15 minutes, keyed by
 * the hash of its `state`; the browser that started it holds the state in a cookie. The callback
 * must bring both the query's state and that cookie, and deletes the attempt as it reads it, so a
 * replayed, expired or cross-browser callback is refused before the code is spent.
 */

/** SIGN_IN_ATTEMPT_TTL_S: 15 minutes at most (and by default); shorter for tests and kiosks. */
export const attemptTtlMs = () => env().SIGN_IN_ATTEMPT_TTL_S * 1000;

export interface StartedSignIn {
  /** The service's authorization URL to send the browser to. */
  url: string;
  /** Goes into the browser's sign-in state cookie. */
  state: string;
}

export async function beginSignIn(options: {
  returnTo: unknown;
  userId: string | null;
}): Promise<StartedSignIn> {
  const { url, state, codeVerifier } = await startAuthorization();
  const database = await db();
  // Old attempts are dead weight; removing them here keeps the table small without a scheduler.
  await database.delete(schema.authAttempts).where(lt(schema.authAttempts.expiresAt, new Date()));
  await database.insert(schema.authAttempts).values({
    stateHash: sha256Base64url(state),
    codeVerifierEnc: encryptToken(codeVerifier),
    returnTo: safeReturnTo(options.returnTo),
    userId: options.userId,
    expiresAt: new Date(Date.now() + attemptTtlMs()),
  });
  return { url, state };
}

export type SignInFailure =
  | "access_denied"
  | "service_error"
  | "invalid_state"
  | "expired"
  | "exchange_failed"
  | "service_unavailable"
  /** v3: the service did not say which account signed in, so no account could be chosen. */
  | "no_identity"
  /** v3: this browser is signed in to an account of another service account (or a clinician's). */
  | "other_account";

export type SignInResult =
  | { ok: true; sessionToken: string; expires: Date; returnTo: string }
  | { ok: false; reason: SignInFailure };

/**
 * The callback: checks the state against the browser's cookie, spends the attempt, exchanges the
 * code, stores the tokens for the user and opens a new session (a sign-in always gets a fresh
 * session id). Which user: under v3, the patient account of the service account that signed in
 * (service-account.ts); under v2, which names no account, the signed-in user who started a
 * reconnect, or a new one.
 */
export async function completeSignIn(
  callbackUrl: URL,
  stateFromCookie: string | undefined,
  currentUserId: string | null,
): Promise<SignInResult> {
  const state = callbackUrl.searchParams.get("state");
  if (!state || !stateFromCookie || state !== stateFromCookie) return { ok: false, reason: "invalid_state" };
  const [attempt] = await (await db())
    .delete(schema.authAttempts)
    .where(
      and(
        eq(schema.authAttempts.stateHash, sha256Base64url(state)),
        gt(schema.authAttempts.expiresAt, new Date()),
      ),
    )
    .returning();
  if (!attempt) return { ok: false, reason: "expired" };
  const error = callbackUrl.searchParams.get("error");
  if (error) return { ok: false, reason: error === "access_denied" ? "access_denied" : "service_error" };

  let tokens: TokenResponse;
  try {
    tokens = await exchangeAuthorizationCode(callbackUrl, state, decryptToken(attempt.codeVerifierEnc));
  } catch (e) {
    if (e instanceof TokenRequestError) {
      return { ok: false, reason: e.status >= 500 ? "service_unavailable" : "exchange_failed" };
    }
    throw e;
  }
  const authorizedAt = new Date();

  // A reconnect is for the user who started it, if that user is still the one signed in in this
  // browser.
  const signedInUserId = attempt.userId && attempt.userId === currentUserId ? attempt.userId : null;
  const account =
    env().CGM_API_VERSION === "v3"
      ? await serviceAccountSignIn(tokens, authorizedAt, signedInUserId)
      : { ok: true as const, userId: await v2Account(tokens, authorizedAt, signedInUserId) };
  if (!account.ok) return account;
  const { userId } = account;
  const sessionToken = newSessionToken();
  const expires = new Date(Date.now() + SESSION_MAX_AGE_S * 1000);
  await adapter.createSession({ sessionToken, userId, expires });
  return { ok: true, sessionToken, expires, returnTo: attempt.returnTo };
}

/** v3: the account of the service account behind the tokens (service-account.ts). */
async function serviceAccountSignIn(
  tokens: TokenResponse,
  authorizedAt: Date,
  signedInUserId: string | null,
): Promise<{ ok: true; userId: string } | { ok: false; reason: SignInFailure }> {
  let hash: string;
  try {
    hash = await authorizationAccount(tokens);
  } catch (e) {
    if (e instanceof IdentityUnknown) {
      return { ok: false, reason: e.failure === "unavailable" ? "service_unavailable" : "no_identity" };
    }
    throw e;
  }
  return signInServiceAccount({ hash, tokens, authorizedAt, signedInUserId });
}

/**
 * v2 names no account: a reconnect renews the signed-in user's connection, and any other sign-in
 * makes a new patient account (so a second browser gets one; the sharing page says how to
 * withdraw a clinic's access at the service from there).
 */
async function v2Account(tokens: TokenResponse, authorizedAt: Date, signedInUserId: string | null) {
  const userId =
    signedInUserId ??
    (await adapter.createUser({ id: "", email: "", emailVerified: null, name: "Patient" })).id;
  const connectionId = await storeAuthorization(userId, tokens, authorizedAt);
  // A patient who disconnected and connects again resumes the clinic shares they did not withdraw.
  await relinkShares(userId, connectionId);
  return userId;
}
