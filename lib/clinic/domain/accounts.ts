import "server-only";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { db, schema } from "@/lib/db";
import { isUniqueViolation } from "@/lib/db/errors";
import { dummyHash, hashPassword, verifyPassword } from "../security/password";
import { acceptInvitation, createClinic, type InvitationProblem } from "./clinics";

/**
 * Clinician accounts: a dashboard user (the same users table as patients, so sessions and
 * sign-out are shared) with credentials. Sign-up either founds a clinic, the new clinician its
 * administrator, or joins one through an invitation; both happen in one transaction with the
 * account, so a refused invitation leaves no account behind.
 */

export type SignUpProblem = "email_taken" | InvitationProblem | "invitation_email";

class Refused extends Error {
  constructor(readonly code: SignUpProblem) {
    super(code);
  }
}

export async function signUpClinician(
  account: { name: string; email: string; password: string },
  target: { clinicName: string; demo?: boolean } | { invitation: string },
): Promise<{ ok: true; userId: string; clinicId: string } | { ok: false; code: SignUpProblem }> {
  const passwordHash = await hashPassword(account.password);
  const userId = randomUUID();
  try {
    const clinicId = await (await db()).transaction(async (tx) => {
      const [taken] = await tx
        .select({ userId: schema.clinicianCredentials.userId })
        .from(schema.clinicianCredentials)
        .where(eq(schema.clinicianCredentials.email, account.email));
      if (taken) throw new Refused("email_taken");
      await tx.insert(schema.users).values({ id: userId, name: account.name, email: account.email });
      await tx.insert(schema.clinicianCredentials).values({ userId, email: account.email, passwordHash });
      if ("clinicName" in target) return createClinic(tx, target.clinicName, userId, target.demo);
      const joined = await acceptInvitation(tx, target.invitation, { id: userId, email: account.email });
      if (!joined.ok) throw new Refused(joined.code);
      return joined.clinicId;
    });
    return { ok: true, userId, clinicId };
  } catch (e) {
    if (e instanceof Refused) return { ok: false, code: e.code };
    // Two sign-ups with one email at the same moment: the unique index decides.
    if (isUniqueViolation(e)) return { ok: false, code: "email_taken" };
    throw e;
  }
}

/**
 * The user whose email and password these are, or null. An unknown email still costs one scrypt
 * (against a dummy hash), so it answers no faster than a wrong password.
 */
export async function verifyClinician(email: string, password: string): Promise<string | null> {
  const [row] = await (await db())
    .select()
    .from(schema.clinicianCredentials)
    .where(eq(schema.clinicianCredentials.email, email));
  const matches = await verifyPassword(password, row?.passwordHash ?? (await dummyHash()));
  return row && matches ? row.userId : null;
}

/** Joins a clinic with an invitation, as the signed-in clinician `user`. */
export async function joinWithInvitation(token: string, user: { id: string; email: string }) {
  return (await db()).transaction((tx) => acceptInvitation(tx, token, user));
}
