import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq, gt, isNotNull, isNull, or } from "drizzle-orm";
import { db, schema } from "@/lib/db";
import { env } from "@/lib/platform/env";
import { sha256Base64url } from "@/lib/platform/security/hash";
import { type ConnectionRow, getConnection } from "@/lib/service-client/tokens";
import { recordAudit } from "../security/audit";
import { clinicPatientStatus, syncFailureOf } from "./patient-status";
import type { ClinicPatientAccess, ClinicPatientRow } from "./patient-types";

// Declared without "server-only" (patient-types.ts), where the components import them from.
export type { ClinicPatientAccess, ClinicPatientRow } from "./patient-types";

/**
 * A clinic's patients and how their data comes to be shared: a clinician adds a patient and gets an
 * invitation link; the patient opens it, connects their CGM account (the same sign-in as on the
 * dashboard, so the same tokens, refresh and sync serve both) and allows access, which links their
 * connection to the clinic's row. The patient can withdraw; a clinician can remove the patient.
 * Every change is written to the clinic's audit log.
 */

/** The same lifetime as a clinician's invitation (CLINIC_INVITATION_TTL_S, 7 days by default). */
const invitationTtlMs = () => env().CLINIC_INVITATION_TTL_S * 1000;
const newToken = () => randomBytes(32).toString("base64url");

/** The link a clinician sends the patient; shown once, when it is made. */
export const patientInvitationLink = (token: string) =>
  `${env().APP_URL}/share?token=${encodeURIComponent(token)}`;

/** Whether a link's token is the current one of patient `id`: the "shown once" check of the notice. */
export async function patientInvitationMatches(id: string, token: string): Promise<boolean> {
  const [row] = await (await db())
    .select({ id: schema.clinicPatients.id })
    .from(schema.clinicPatients)
    .where(eq(schema.clinicPatients.inviteTokenHash, sha256Base64url(token)));
  return row?.id === id;
}

export async function addPatient(options: {
  clinicId: string;
  name: string;
  birthDate?: string;
  by: string;
}): Promise<{ id: string; token: string }> {
  const id = randomUUID();
  const token = newToken();
  await (await db()).insert(schema.clinicPatients).values({
    id,
    clinicId: options.clinicId,
    name: options.name,
    birthDate: options.birthDate ?? null,
    inviteTokenHash: sha256Base64url(token),
    inviteExpiresAt: new Date(Date.now() + invitationTtlMs()),
    createdBy: options.by,
  });
  await recordAudit({
    clinicId: options.clinicId,
    actorUserId: options.by,
    clinicPatientId: id,
    action: "patient.added",
  });
  return { id, token };
}

/**
 * A new link for a patient who has not accepted, whose link expired, or who withdrew and wants to
 * share again; the old link stops working. Null when the patient shares already (nothing to do).
 */
export async function renewInvitation(
  clinicId: string,
  patientId: string,
  by: string,
): Promise<{ token: string } | null> {
  const token = newToken();
  const p = schema.clinicPatients;
  const [row] = await (await db())
    .update(p)
    .set({
      inviteTokenHash: sha256Base64url(token),
      inviteExpiresAt: new Date(Date.now() + invitationTtlMs()),
    })
    .where(
      and(
        eq(p.id, patientId),
        eq(p.clinicId, clinicId),
        // A patient who shares needs no link: one would only invite a mistake.
        or(isNull(p.acceptedAt), isNotNull(p.withdrawnAt)),
      ),
    )
    .returning({ id: p.id });
  if (!row) return null;
  await recordAudit({
    clinicId,
    actorUserId: by,
    clinicPatientId: patientId,
    action: "patient.invitation_renewed",
  });
  return { token };
}

const patientColumns = () => {
  const p = schema.clinicPatients;
  return {
    id: p.id,
    clinicId: p.clinicId,
    name: p.name,
    birthDate: p.birthDate,
    acceptedAt: p.acceptedAt,
    withdrawnAt: p.withdrawnAt,
    inviteExpiresAt: p.inviteExpiresAt,
    createdAt: p.createdAt,
    connectionId: p.connectionId,
    patientUserId: p.patientUserId,
    connectionStatus: schema.cgmConnections.status,
  };
};

/** The clinic's patients, by name. */
export async function patientsOf(clinicId: string): Promise<ClinicPatientRow[]> {
  const p = schema.clinicPatients;
  const rows = await (await db())
    .select({
      ...patientColumns(),
      lastSuccessAt: schema.syncState.lastSuccessAt,
      lastErrorAt: schema.syncState.lastErrorAt,
      lastError: schema.syncState.lastError,
      attempts: schema.syncState.attempts,
      nextAttemptAt: schema.syncState.nextAttemptAt,
    })
    .from(p)
    .leftJoin(schema.cgmConnections, eq(schema.cgmConnections.id, p.connectionId))
    .leftJoin(schema.syncState, eq(schema.syncState.connectionId, p.connectionId))
    .where(eq(p.clinicId, clinicId))
    .orderBy(asc(p.name), asc(p.createdAt));
  const now = Date.now();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    birthDate: r.birthDate,
    status: clinicPatientStatus({ ...r, connectionStatus: r.connectionStatus ?? null }, now),
    acceptedAt: r.acceptedAt,
    inviteExpiresAt: r.inviteExpiresAt,
    createdAt: r.createdAt,
    connectionId: r.connectionId,
    lastSyncAt: r.lastSuccessAt,
    syncFailure: syncFailureOf(r),
  }));
}

/**
 * The access check of every route and page that takes a clinic patient's id: the patient, if the
 * viewer is a member of the patient's clinic; otherwise null, and the caller answers 404 whether
 * the id exists elsewhere or not at all, so ids of other clinics cannot be probed.
 */
export async function clinicPatientFor(
  viewerId: string,
  patientId: string,
): Promise<ClinicPatientAccess | null> {
  if (typeof patientId !== "string" || patientId.length === 0 || patientId.length > 64) return null;
  const p = schema.clinicPatients;
  const { clinicMembers: m, clinics } = schema;
  const [row] = await (await db())
    .select({ ...patientColumns(), role: m.role, clinicName: clinics.name, clinicDemo: clinics.demo })
    .from(p)
    .innerJoin(m, and(eq(m.clinicId, p.clinicId), eq(m.userId, viewerId)))
    .innerJoin(clinics, eq(clinics.id, p.clinicId))
    .leftJoin(schema.cgmConnections, eq(schema.cgmConnections.id, p.connectionId))
    .where(eq(p.id, patientId));
  if (!row) return null;
  return {
    clinicId: row.clinicId,
    clinicName: row.clinicName,
    clinicDemo: row.clinicDemo,
    role: row.role,
    patient: {
      id: row.id,
      name: row.name,
      birthDate: row.birthDate,
      status: clinicPatientStatus({ ...row, connectionStatus: row.connectionStatus ?? null }, Date.now()),
      acceptedAt: row.acceptedAt,
      inviteExpiresAt: row.inviteExpiresAt,
      createdAt: row.createdAt,
      connectionId: row.connectionId,
      lastSyncAt: null,
      syncFailure: null,
      patientUserId: row.patientUserId,
    },
  };
}

/** The connection through which the clinic reads a patient's data, when the patient shares it. */
export async function sharedConnection(access: ClinicPatientAccess): Promise<ConnectionRow | null> {
  const { connectionId } = access.patient;
  if (!connectionId || access.patient.status === "withdrawn") return null;
  return getConnection(connectionId);
}

/** A clinician removes a patient: the row goes, and with it the clinic's access. */
export async function removePatient(clinicId: string, patientId: string, by: string): Promise<boolean> {
  // Logged first, while the row still holds the name the entry copies.
  const p = schema.clinicPatients;
  const [exists] = await (await db())
    .select({ id: p.id })
    .from(p)
    .where(and(eq(p.id, patientId), eq(p.clinicId, clinicId)));
  if (!exists) return false;
  await recordAudit({ clinicId, actorUserId: by, clinicPatientId: patientId, action: "patient.removed" });
  await (await db()).delete(p).where(and(eq(p.id, patientId), eq(p.clinicId, clinicId)));
  return true;
}

export type PatientInvitationProblem = "invitation_invalid" | "invitation_expired" | "invitation_used";

export type PatientInvitationLookup =
  | { ok: true; id: string; clinicId: string; clinicName: string; clinicDemo: boolean; patientName: string }
  | { ok: false; code: PatientInvitationProblem };

/** What a patient's invitation link is for, or why it cannot be used. */
export async function describePatientInvitation(token: unknown): Promise<PatientInvitationLookup> {
  if (typeof token !== "string" || token.length < 20 || token.length > 100) {
    return { ok: false, code: "invitation_invalid" };
  }
  const p = schema.clinicPatients;
  const [row] = await (await db())
    .select({ patient: p, clinicName: schema.clinics.name, clinicDemo: schema.clinics.demo })
    .from(p)
    .innerJoin(schema.clinics, eq(schema.clinics.id, p.clinicId))
    .where(eq(p.inviteTokenHash, sha256Base64url(token)));
  if (!row) return { ok: false, code: "invitation_invalid" };
  // Accepting keeps the hash and clears the expiry, so a second use is told the link was used.
  const { acceptedAt, withdrawnAt, inviteExpiresAt } = row.patient;
  if (!inviteExpiresAt) return { ok: false, code: acceptedAt ? "invitation_used" : "invitation_invalid" };
  if (acceptedAt && !withdrawnAt) return { ok: false, code: "invitation_used" };
  if (inviteExpiresAt.getTime() <= Date.now()) return { ok: false, code: "invitation_expired" };
  return {
    ok: true,
    id: row.patient.id,
    clinicId: row.patient.clinicId,
    clinicName: row.clinicName,
    clinicDemo: row.clinicDemo,
    patientName: row.patient.name,
  };
}

export type AcceptProblem = PatientInvitationProblem | "already_shared";

/**
 * The patient allows access: their connection is linked to the clinic's row and the link is spent
 * (its expiry cleared) in one conditional UPDATE, so of two concurrent uses one wins. A patient who
 * already shares with this clinic under another entry is told so rather than listed twice.
 */
export async function acceptPatientInvitation(
  token: string,
  patient: { userId: string; connectionId: string },
): Promise<{ ok: true; clinicId: string; clinicName: string } | { ok: false; code: AcceptProblem }> {
  const found = await describePatientInvitation(token);
  if (!found.ok) return found;
  const p = schema.clinicPatients;
  const database = await db();
  const [twin] = await database
    .select({ id: p.id })
    .from(p)
    .where(
      and(
        eq(p.clinicId, found.clinicId),
        eq(p.patientUserId, patient.userId),
        isNull(p.withdrawnAt),
        isNotNull(p.connectionId),
      ),
    );
  if (twin && twin.id !== found.id) return { ok: false, code: "already_shared" };
  const [spent] = await database
    .update(p)
    .set({
      patientUserId: patient.userId,
      connectionId: patient.connectionId,
      acceptedAt: new Date(),
      withdrawnAt: null,
      inviteExpiresAt: null,
    })
    .where(
      and(
        eq(p.id, found.id),
        eq(p.inviteTokenHash, sha256Base64url(token)),
        gt(p.inviteExpiresAt, new Date()),
      ),
    )
    .returning({ id: p.id });
  if (!spent) return { ok: false, code: "invitation_used" };
  await recordAudit({
    clinicId: found.clinicId,
    actorUserId: patient.userId,
    clinicPatientId: found.id,
    action: "patient.accepted",
  });
  return { ok: true, clinicId: found.clinicId, clinicName: found.clinicName };
}

/** The clinics a patient shares with (withdrawn ones included, so the patient sees the history). */
export async function sharesOf(patientUserId: string) {
  const p = schema.clinicPatients;
  return (await db())
    .select({
      id: p.id,
      clinicName: schema.clinics.name,
      clinicDemo: schema.clinics.demo,
      acceptedAt: p.acceptedAt,
      withdrawnAt: p.withdrawnAt,
    })
    .from(p)
    .innerJoin(schema.clinics, eq(schema.clinics.id, p.clinicId))
    .where(and(eq(p.patientUserId, patientUserId), isNotNull(p.acceptedAt)))
    .orderBy(asc(schema.clinics.name));
}

/** The patient withdraws a clinic's access; false when the share is not theirs (or already withdrawn). */
export async function withdrawShare(patientUserId: string, shareId: string): Promise<boolean> {
  if (shareId.length === 0 || shareId.length > 64) return false;
  const p = schema.clinicPatients;
  const [row] = await (await db())
    .update(p)
    .set({ withdrawnAt: new Date(), connectionId: null })
    .where(and(eq(p.id, shareId), eq(p.patientUserId, patientUserId), isNull(p.withdrawnAt)))
    .returning({ clinicId: p.clinicId });
  if (!row) return false;
  await recordAudit({
    clinicId: row.clinicId,
    actorUserId: patientUserId,
    clinicPatientId: shareId,
    action: "patient.withdrew",
  });
  return true;
}
