import "server-only";
import { randomUUID } from "node:crypto";
import { dataRangeV3ReadSchema, type TokenResponse } from "@/lib/cgm";
import { configuredVersion, getDataRange, serviceRequest } from "./client";
import { encryptToken, serviceUserHash } from "./crypto";
import type { ConnectionRef, ConnectionRow } from "./tokens";
import { ServiceError } from "./transport";

/**
 * Which service account an authorization belongs to. API v3 names it in every response's envelope:
 * `userId`, unique per account and client app, so stable for one account with our app
 * (service-v3-notes.md §2). dataRange is the cheapest call that carries it: no window, no
 * records. Only its HMAC (crypto.ts) leaves this module, except to the account's own holder
 * (`sharedAccountOf`, for the invitation's step 2). v2 names no account, so under v2 there is
 * nothing to ask.
 */

/** Why the service did not say which account it is: it was not answering, or it answered without. */
export type IdentityFailure = "unavailable" | "unidentified";

export class IdentityUnknown extends Error {
  constructor(readonly failure: IdentityFailure) {
    super(
      failure === "unavailable"
        ? "The service did not answer the call that names the account."
        : "The service's answer did not name the account (no userId in the v3 envelope).",
    );
  }
}

/** The HMAC of the service account behind `connection`; IdentityUnknown when the service does not say. */
export async function serviceAccountOf(connection: ConnectionRef): Promise<string> {
  let response: Response;
  try {
    response = await serviceRequest(connection, { path: "/v3/users/self/dataRange" });
  } catch (e) {
    // The network after retries; a token the service refuses (ReconnectRequired) names no one.
    throw new IdentityUnknown(e instanceof ServiceError ? "unavailable" : "unidentified");
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new IdentityUnknown(
      response.status === 429 || response.status >= 500 ? "unavailable" : "unidentified",
    );
  }
  const body = dataRangeV3ReadSchema.safeParse(await response.json().catch(() => undefined));
  const userId = body.success ? body.data.userId?.trim() : undefined;
  if (!userId) throw new IdentityUnknown("unidentified");
  return serviceUserHash(userId);
}

/**
 * The account behind the tokens of a code exchange that are not stored yet: they are given the
 * shape of a stored connection for this one call, so it goes through the one request path (base
 * address, retries, call gate). A refresh is never needed (the token is seconds old); if one were,
 * no row is found under the made-up id and the call ends as a refused authorization.
 */
export function authorizationAccount(tokens: TokenResponse): Promise<string> {
  const now = new Date();
  const unsaved: ConnectionRow = {
    id: `unsaved-${randomUUID()}`,
    ownerId: "",
    accessTokenEnc: encryptToken(tokens.access_token),
    refreshTokenEnc: null,
    accessExpiresAt: new Date(now.getTime() + tokens.expires_in * 1000),
    status: "active",
    tokenVersion: 0,
    refreshedAt: null,
    authorizedAt: now,
    createdAt: now,
    updatedAt: now,
  };
  return serviceAccountOf(unsaved);
}

/**
 * What the patient is about to share, in the service's words: the account's userId (API v3 only;
 * v2 names none) and its newest reading's displayTime (the receiver's clock) and systemTime. One
 * dataRange call; null fields where the service does not say, or does not answer (the page then
 * says so and the patient may still go on: this names the account, it guards nothing).
 */
export interface SharedAccount {
  userId: string | null;
  latestReading: { displayTime: string; systemTime: string } | null;
}

export async function sharedAccountOf(connection: ConnectionRef): Promise<SharedAccount> {
  try {
    if (configuredVersion() === "v2") {
      const range = await getDataRange(connection, "v2");
      return { userId: null, latestReading: range.egvs?.end ?? null };
    }
    const response = await serviceRequest(connection, { path: "/v3/users/self/dataRange" });
    if (!response.ok) {
      await response.body?.cancel();
      return { userId: null, latestReading: null };
    }
    const body = dataRangeV3ReadSchema.safeParse(await response.json().catch(() => undefined));
    if (!body.success) return { userId: null, latestReading: null };
    const end = body.data.egvs?.end;
    return {
      userId: body.data.userId?.trim() || null,
      latestReading: end ? { displayTime: end.displayTime, systemTime: end.systemTime } : null,
    };
  } catch {
    return { userId: null, latestReading: null };
  }
}
