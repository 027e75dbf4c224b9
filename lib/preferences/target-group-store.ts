import "server-only";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { db, schema } from "@/lib/db";
import { parseTargetGroup, type TargetGroup } from "@/lib/metrics/targets";
import type { Preferences } from "./schema";
import { preferencesOf } from "./store";
import {
  type ClinicChoice,
  type ResolvedTargetGroup,
  targetGroupForClinic,
  targetGroupForPatient,
} from "./target-group";

/**
 * The target group a view judges a patient by (the rule: ./target-group.ts). Every page, API and
 * report that judges goals asks here: `targetGroupFor(patientUserId)` for the patient's own views,
 * `targetGroupFor(patientUserId, { clinicPatientId })` for a clinic's (the clinic's row of them).
 */
export async function targetGroupFor(
  patientUserId: string | null,
  viewer?: { clinicPatientId: string },
  /** The patient's preferences when the caller has read them already: not read again. */
  preferences?: Preferences,
): Promise<ResolvedTargetGroup> {
  const own = patientUserId ? (preferences ?? (await preferencesOf(patientUserId))).targetGroup : null;
  if (viewer) return targetGroupForClinic(await clinicChoiceOf(viewer.clinicPatientId), own);
  return targetGroupForPatient(own, patientUserId ? await clinicChoicesFor(patientUserId) : []);
}

/** One clinic's choice for its patient (clinic_patients' id); null when it set none. */
export async function clinicChoiceOf(clinicPatientId: string): Promise<ClinicChoice | null> {
  const p = schema.clinicPatients;
  const [row] = await (await db())
    .select({ group: p.targetGroup, setAt: p.targetGroupSetAt, clinicName: schema.clinics.name })
    .from(p)
    .innerJoin(schema.clinics, eq(schema.clinics.id, p.clinicId))
    .where(eq(p.id, clinicPatientId));
  return row ? choiceOf(row) : null;
}

/** The choices of the clinics the patient shares with now (accepted, not withdrawn). */
async function clinicChoicesFor(patientUserId: string): Promise<ClinicChoice[]> {
  const p = schema.clinicPatients;
  const rows = await (await db())
    .select({ group: p.targetGroup, setAt: p.targetGroupSetAt, clinicName: schema.clinics.name })
    .from(p)
    .innerJoin(schema.clinics, eq(schema.clinics.id, p.clinicId))
    .where(
      and(
        eq(p.patientUserId, patientUserId),
        isNotNull(p.acceptedAt),
        isNull(p.withdrawnAt),
        isNotNull(p.targetGroup),
      ),
    );
  return rows.flatMap((r) => {
    const c = choiceOf(r);
    return c ? [c] : [];
  });
}

function choiceOf(row: {
  group: string | null;
  setAt: Date | null;
  clinicName: string;
}): ClinicChoice | null {
  const group = parseTargetGroup(row.group);
  return group ? { clinicName: row.clinicName, group, setAt: row.setAt ?? new Date(0) } : null;
}

/**
 * Sets (or, with null, clears) a clinic's choice for its patient. The caller has checked access
 * and writes the audit entry.
 */
export async function saveClinicTargetGroup(
  clinicPatientId: string,
  group: TargetGroup | null,
): Promise<void> {
  const p = schema.clinicPatients;
  await (await db())
    .update(p)
    .set({ targetGroup: group, targetGroupSetAt: group ? new Date() : null })
    .where(eq(p.id, clinicPatientId));
}
