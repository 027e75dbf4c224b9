import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { TokenResponse } from "@/lib/cgm";
import { type Db, db, schema } from "@/lib/db";
import { isUniqueViolation } from "@/lib/db/errors";
import { forgetAll } from "@/lib/service-client/connection-cache";
import { IdentityUnknown, serviceAccountOf } from "@/lib/service-client/identity";
import { connectionOfOwner, storeAuthorizationIn } from "@/lib/service-client/tokens";
import { relinkShares } from "./clinic-shares";

/**
 * One patient account per service account (API v3). The service names the account behind every
 * authorization (lib/service-client/identity.ts), so a sign-in reaches the patient account that
 * holds that name, from any browser: the same connection, clinic shares, settings and target
 * group. The name is kept as its HMAC in users.service_user_hash, whose unique index makes two
 * sign-ins racing end in one account.
 *
 * Who the sign-in is for:
 * - No one signed in in this browser: the account holding the service account, or a new one.
 * - A patient signed in whose account holds this service account: that account (a reconnect).
 * - A patient signed in whose account holds ANOTHER service account, or a clinician: refused,
 *   nothing stored. Two people's data are never put in one account, and a sign-in never silently
 *   swaps who a browser is signed in as; the page says to sign out first.
 * - A patient signed in whose account holds none yet (made under v2, or before this): the service
 *   is asked, with the account's own stored connection, which account that connection is. A
 *   different one: refused as above. The same, or no answer (no connection, or a dead one): the
 *   session holder is trusted as the owner, as a v2 reconnect always was; the account takes the
 *   name, or, when another account already holds it (the same person signed in elsewhere since),
 *   is merged into that one, so their clinic shares can be withdrawn from wherever they sign in.
 */

export type AccountOutcome =
  | { ok: true; userId: string; connectionId: string }
  | { ok: false; reason: "other_account" };

const REFUSED = { ok: false, reason: "other_account" } as const;

interface AccountRow {
  id: string;
  serviceUserHash: string | null;
  clinician: boolean;
}

async function accountRow(userId: string): Promise<AccountRow | null> {
  const { users, clinicMembers, clinicianCredentials } = schema;
  const [row] = await (await db())
    .select({
      id: users.id,
      serviceUserHash: users.serviceUserHash,
      member: clinicMembers.userId,
      credentials: clinicianCredentials.userId,
    })
    .from(users)
    .leftJoin(clinicMembers, eq(clinicMembers.userId, users.id))
    .leftJoin(clinicianCredentials, eq(clinicianCredentials.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return null;
  return {
    id: row.id,
    serviceUserHash: row.serviceUserHash,
    clinician: row.member !== null || row.credentials !== null,
  };
}

/** The service account of a nameless account's own connection, when it still works; else null. */
async function ownServiceAccount(userId: string): Promise<string | null> {
  const connection = await connectionOfOwner(userId);
  if (connection?.status !== "active") return null;
  try {
    return await serviceAccountOf(connection);
  } catch (e) {
    if (e instanceof IdentityUnknown) return null;
    throw e;
  }
}

/** Learnt while refusing: the account's own name, unless another account holds it already. */
async function rememberServiceAccount(userId: string, hash: string): Promise<void> {
  try {
    await (await db())
      .update(schema.users)
      .set({ serviceUserHash: hash })
      .where(and(eq(schema.users.id, userId), isNull(schema.users.serviceUserHash)));
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
  }
}

/**
 * The patient account of service account `hash` after this authorization, with the tokens stored
 * on its connection; or a refusal. `signedInUserId`: who this browser is signed in as, when that
 * user started the sign-in.
 */
export async function signInServiceAccount(input: {
  hash: string;
  tokens: TokenResponse;
  /** When the code exchange completed: the later of two authorizations is the one kept. */
  authorizedAt: Date;
  signedInUserId: string | null;
}): Promise<AccountOutcome> {
  const { hash } = input;
  const signedIn = input.signedInUserId ? await accountRow(input.signedInUserId) : null;
  if (signedIn) {
    if (signedIn.clinician) return REFUSED;
    if (signedIn.serviceUserHash !== null && signedIn.serviceUserHash !== hash) return REFUSED;
    if (signedIn.serviceUserHash === null) {
      // Outside the transaction: the embedded sandbox answers from the same database.
      const own = await ownServiceAccount(signedIn.id);
      if (own !== null && own !== hash) {
        await rememberServiceAccount(signedIn.id, own);
        return REFUSED;
      }
    }
  }
  // A claim can lose to another sign-in's new account at the unique index: then that account is
  // there to be found, and a second pass finds it.
  for (let attempt = 1; ; attempt++) {
    try {
      const outcome = await (await db()).transaction((t) =>
        settle(t as unknown as Db, { ...input, signedInUserId: signedIn?.id ?? null }),
      );
      // Committed: a connection may be new or renewed, sessions moved to another account; what
      // this process held of any of them is read again (connection-cache.ts).
      forgetAll();
      return outcome;
    } catch (e) {
      if (!isUniqueViolation(e) || attempt >= 3) throw e;
    }
  }
}

async function settle(
  tx: Db,
  input: { hash: string; tokens: TokenResponse; authorizedAt: Date; signedInUserId: string | null },
): Promise<AccountOutcome> {
  const { users } = schema;
  const { hash } = input;
  let owner: string | null = null;
  if (input.signedInUserId) {
    // Locked: the account's name and connection change only under this lock.
    const [me] = await tx
      .select({ id: users.id, serviceUserHash: users.serviceUserHash })
      .from(users)
      .where(eq(users.id, input.signedInUserId))
      .for("update");
    if (me?.serviceUserHash === hash) owner = me.id;
    else if (me && me.serviceUserHash !== null) return REFUSED;
    else if (me) {
      const [holder] = await tx
        .select({ id: users.id })
        .from(users)
        .where(eq(users.serviceUserHash, hash))
        .for("update");
      if (holder) {
        await mergeAccountInto(tx, me.id, holder.id);
        owner = holder.id;
      } else {
        await tx.update(users).set({ serviceUserHash: hash }).where(eq(users.id, me.id));
        owner = me.id;
      }
    }
  }
  if (owner === null) {
    // Of two sign-ins inserting at once, one inserts and the other waits for it, then finds it.
    await tx
      .insert(users)
      .values({ id: randomUUID(), name: "Patient", serviceUserHash: hash })
      .onConflictDoNothing({ target: users.serviceUserHash });
    const [found] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.serviceUserHash, hash))
      .for("update");
    if (!found) throw new Error("service account: the account just made is not there");
    owner = found.id;
  }
  const connectionId = await storeAuthorizationIn(tx, owner, input.tokens, input.authorizedAt);
  // A patient who disconnected and connects again resumes the clinic shares they did not withdraw.
  await relinkShares(owner, connectionId, tx);
  return { ok: true, userId: owner, connectionId };
}

/**
 * Two dashboard accounts of one service account (the second made by a sign-in in another browser
 * before accounts were named) become one: `from`'s clinic shares, sessions and started sign-ins
 * move to `into`, its settings too where `into` has none of its own; its connection (an older
 * authorization of the same account) and the account itself go. The shares follow `into`'s
 * connection once the caller stores the new tokens (relinkShares).
 */
async function mergeAccountInto(tx: Db, from: string, into: string): Promise<void> {
  const { clinicPatients, sessions, authAttempts, cgmConnections, users } = schema;
  await tx
    .update(clinicPatients)
    .set({ patientUserId: into, connectionId: null })
    .where(eq(clinicPatients.patientUserId, from));
  for (const table of ["user_preferences", "statistics_windows"]) {
    await tx.execute(sql`
      update ${sql.identifier(table)} set user_id = ${into}
      where user_id = ${from} and not exists (select 1 from ${sql.identifier(table)} where user_id = ${into})`);
  }
  await tx.update(sessions).set({ userId: into }).where(eq(sessions.userId, from));
  await tx.update(authAttempts).set({ userId: into }).where(eq(authAttempts.userId, from));
  await tx.delete(cgmConnections).where(eq(cgmConnections.ownerId, from));
  await tx.delete(users).where(eq(users.id, from));
}
