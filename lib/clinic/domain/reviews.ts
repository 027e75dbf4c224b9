import "server-only";
import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray } from "drizzle-orm";
import { db, schema } from "@/lib/db";
import { recordAudit } from "../security/audit";
import type { ClinicPatientAccess } from "./patients";
import type { ReviewView } from "./review-types";

export type { ReviewView } from "./review-types";

/**
 * "Mark reviewed": a clinician of the patient's clinic records that they looked at the patient's
 * data over a period. Each review is a new row (the history stays); the clinic's pages show the
 * latest. Written to the audit log.
 */
export async function markReviewed(
  access: ClinicPatientAccess,
  userId: string,
  period: { periodStart: string; periodEnd: string },
): Promise<void> {
  const database = await db();
  const [reviewer] = await database
    .select({ name: schema.users.name })
    .from(schema.users)
    .where(eq(schema.users.id, userId));
  await database.insert(schema.clinicPatientReviews).values({
    id: randomUUID(),
    clinicId: access.clinicId,
    clinicPatientId: access.patient.id,
    reviewerUserId: userId,
    reviewerName: reviewer?.name ?? null,
    periodStart: period.periodStart,
    periodEnd: period.periodEnd,
    reviewedAt: new Date(),
  });
  await recordAudit({
    clinicId: access.clinicId,
    actorUserId: userId,
    clinicPatientId: access.patient.id,
    action: "patient.reviewed",
    detail: `period ${period.periodStart} to ${period.periodEnd}`,
  });
}

/** The latest review of each of the clinic's patients named (all of the clinic's when none are). */
export async function latestReviews(
  clinicId: string,
  patientIds?: readonly string[],
): Promise<Map<string, ReviewView>> {
  const r = schema.clinicPatientReviews;
  const rows = await (await db())
    .selectDistinctOn([r.clinicPatientId], {
      clinicPatientId: r.clinicPatientId,
      reviewerName: r.reviewerName,
      periodStart: r.periodStart,
      periodEnd: r.periodEnd,
      reviewedAt: r.reviewedAt,
    })
    .from(r)
    .where(
      patientIds
        ? and(eq(r.clinicId, clinicId), inArray(r.clinicPatientId, [...patientIds]))
        : eq(r.clinicId, clinicId),
    )
    .orderBy(r.clinicPatientId, desc(r.reviewedAt));
  return new Map(
    rows.map((row) => [
      row.clinicPatientId,
      {
        reviewerName: row.reviewerName,
        periodStart: row.periodStart,
        periodEnd: row.periodEnd,
        reviewedAt: row.reviewedAt.toISOString(),
      },
    ]),
  );
}
