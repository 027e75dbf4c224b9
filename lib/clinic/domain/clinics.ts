import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq, gt, isNull } from "drizzle-orm";
import { type Db, db, schema } from "@/lib/db";
import type { ClinicRole } from "@/lib/db/schema/clinic";
import { env } from "@/lib/platform/env";
import { sha256Base64url } from "@/lib/platform/security/hash";

/**
 * Clinics, their members and the invitations that bring more clinicians in. Who may do what is
 * decided here from the database, never from what a form says about the person sending it.
 */

/** CLINIC_INVITATION_TTL_S: 7 days at most (and by default); shorter for tests. */
const invitationTtlMs = () => env().CLINIC_INVITATION_TTL_S * 1000;

/** Inside a transaction or not: the same queries. */
type Tx = Pick<Db, "select" | "insert" | "update" | "delete">;

export interface Membership {
  clinicId: string;
  name: string;
  demo: boolean;
  role: ClinicRole;
}

/** The clinics a user works in, the oldest membership first; none for a patient. */
export async function clinicsOf(userId: string): Promise<Membership[]> {
  const { clinics, clinicMembers } = schema;
  return (await db())
    .select({ clinicId: clinics.id, name: clinics.name, demo: clinics.demo, role: clinicMembers.role })
    .from(clinicMembers)
    .innerJoin(clinics, eq(clinics.id, clinicMembers.clinicId))
    .where(eq(clinicMembers.userId, userId))
    .orderBy(asc(clinicMembers.createdAt), asc(clinics.name));
}

export async function isClinician(userId: string): Promise<boolean> {
  const [row] = await (await db())
    .select({ userId: schema.clinicMembers.userId })
    .from(schema.clinicMembers)
    .where(eq(schema.clinicMembers.userId, userId))
    .limit(1);
  return row !== undefined;
}

export async function membersOf(clinicId: string) {
  const { clinicMembers, users, clinicianCredentials } = schema;
  return (await db())
    .select({
      userId: clinicMembers.userId,
      name: users.name,
      email: clinicianCredentials.email,
      role: clinicMembers.role,
      joinedAt: clinicMembers.createdAt,
    })
    .from(clinicMembers)
    .innerJoin(users, eq(users.id, clinicMembers.userId))
    .leftJoin(clinicianCredentials, eq(clinicianCredentials.userId, clinicMembers.userId))
    .where(eq(clinicMembers.clinicId, clinicId))
    .orderBy(asc(clinicMembers.createdAt));
}

export async function createClinic(tx: Tx, name: string, adminId: string, demo = false): Promise<string> {
  const id = randomUUID();
  await tx.insert(schema.clinics).values({ id, name, demo });
  await tx.insert(schema.clinicMembers).values({ clinicId: id, userId: adminId, role: "admin" });
  return id;
}

export async function roleIn(userId: string, clinicId: string): Promise<ClinicRole | null> {
  const [row] = await (await db())
    .select({ role: schema.clinicMembers.role })
    .from(schema.clinicMembers)
    .where(and(eq(schema.clinicMembers.userId, userId), eq(schema.clinicMembers.clinicId, clinicId)));
  return row?.role ?? null;
}

/** A new invitation: the token is returned once, to be shown to the administrator as a link. */
export async function createInvitation(options: {
  clinicId: string;
  email: string;
  role: ClinicRole;
  invitedBy: string;
  now?: Date;
}): Promise<{ id: string; token: string }> {
  const id = randomUUID();
  const token = randomBytes(32).toString("base64url");
  const now = options.now ?? new Date();
  await (await db()).insert(schema.clinicInvitations).values({
    id,
    clinicId: options.clinicId,
    email: options.email,
    role: options.role,
    invitedBy: options.invitedBy,
    tokenHash: sha256Base64url(token),
    expiresAt: new Date(now.getTime() + invitationTtlMs()),
    createdAt: now,
  });
  return { id, token };
}

/** The invitations of a clinic not yet used nor expired, newest first. */
export async function pendingInvitations(clinicId: string) {
  const { clinicInvitations: i } = schema;
  const rows = await (await db())
    .select({ id: i.id, email: i.email, role: i.role, expiresAt: i.expiresAt, createdAt: i.createdAt })
    .from(i)
    .where(and(eq(i.clinicId, clinicId), isNull(i.acceptedAt), gt(i.expiresAt, new Date())));
  return rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

/** The clinic's page (and a fragment of it): where the clinic's forms send the browser back. */
export const clinicPath = (clinicId: string, hash = "") =>
  `/clinic?clinic=${encodeURIComponent(clinicId)}${hash}`;

/** The link an administrator copies for an invitation's token. */
export const invitationLink = (token: string) =>
  `${env().APP_URL}/clinic/join?token=${encodeURIComponent(token)}`;

/** Whether a token's invitation (if any) is the one with this id: the "shown once" check. */
export async function invitationMatches(id: string, token: string): Promise<boolean> {
  const [row] = await (await db())
    .select({ id: schema.clinicInvitations.id })
    .from(schema.clinicInvitations)
    .where(eq(schema.clinicInvitations.tokenHash, sha256Base64url(token)));
  return row?.id === id;
}

export type InvitationProblem = "invitation_invalid" | "invitation_expired" | "invitation_used";

export type InvitationLookup =
  | { ok: true; id: string; clinicId: string; clinicName: string; email: string; role: ClinicRole }
  | { ok: false; code: InvitationProblem };

export async function describeInvitation(token: unknown, tx?: Tx): Promise<InvitationLookup> {
  if (typeof token !== "string" || token.length < 20 || token.length > 100) {
    return { ok: false, code: "invitation_invalid" };
  }
  const { clinicInvitations: i, clinics } = schema;
  const [row] = await (tx ?? (await db()))
    .select({ invitation: i, clinicName: clinics.name })
    .from(i)
    .innerJoin(clinics, eq(clinics.id, i.clinicId))
    .where(eq(i.tokenHash, sha256Base64url(token)));
  if (!row) return { ok: false, code: "invitation_invalid" };
  if (row.invitation.acceptedAt) return { ok: false, code: "invitation_used" };
  if (row.invitation.expiresAt.getTime() <= Date.now()) return { ok: false, code: "invitation_expired" };
  const { id, clinicId, email, role } = row.invitation;
  return { ok: true, id, clinicId, clinicName: row.clinicName, email, role };
}

/**
 * Spends an invitation for a user whose (normalized) email is the one invited, and makes them a
 * member. One conditional UPDATE: of two concurrent uses, one wins and the other is told it was used.
 */
export async function acceptInvitation(
  tx: Tx,
  token: string,
  user: { id: string; email: string },
): Promise<{ ok: true; clinicId: string } | { ok: false; code: InvitationProblem | "invitation_email" }> {
  const found = await describeInvitation(token, tx);
  if (!found.ok) return found;
  if (found.email !== user.email) return { ok: false, code: "invitation_email" };
  const { clinicInvitations: i } = schema;
  const [spent] = await tx
    .update(i)
    .set({ acceptedAt: new Date(), acceptedBy: user.id })
    .where(and(eq(i.id, found.id), isNull(i.acceptedAt), gt(i.expiresAt, new Date())))
    .returning({ clinicId: i.clinicId, role: i.role });
  if (!spent) return { ok: false, code: "invitation_used" };
  await tx
    .insert(schema.clinicMembers)
    .values({ clinicId: spent.clinicId, userId: user.id, role: spent.role })
    .onConflictDoNothing();
  return { ok: true, clinicId: spent.clinicId };
}
