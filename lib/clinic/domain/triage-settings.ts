import "server-only";
import { eq } from "drizzle-orm";
import { type Db, db, schema } from "@/lib/db";
import { NotPermitted } from "@/lib/errors";
import { roleIn } from "./clinics";
import { CONSENSUS_TRIAGE, type TriageThresholds, triageThresholdsSchema } from "./triage";

/**
 * A clinic's triage thresholds (./triage.ts says what each means): the consensus defaults until an
 * administrator sets the clinic's own, and back to them on a reset.
 */

export interface ClinicThresholds extends TriageThresholds {
  /** False while the clinic uses the consensus defaults (no settings row). */
  custom: boolean;
  updatedAt: Date | null;
}

export async function triageSettingsOf(clinicId: string, database?: Db): Promise<ClinicThresholds> {
  const t = schema.clinicTriageSettings;
  const [row] = await (database ?? (await db())).select().from(t).where(eq(t.clinicId, clinicId));
  if (!row) return { ...CONSENSUS_TRIAGE, custom: false, updatedAt: null };
  const { clinicId: _, updatedBy: __, updatedAt, ...thresholds } = row;
  return { ...thresholds, custom: true, updatedAt };
}

export type SaveResult =
  | { ok: true; thresholds: TriageThresholds }
  | { ok: false; field: keyof TriageThresholds; message: string };

/**
 * Sets a clinic's thresholds: administrators only (others, members or not, get the same 403),
 * every field checked (triage.ts) and the first problem named.
 */
export async function saveTriageSettings(
  clinicId: string,
  userId: string,
  input: unknown,
): Promise<SaveResult> {
  if ((await roleIn(userId, clinicId)) !== "admin") {
    throw new NotPermitted("Only the clinic's administrators can change the triage thresholds.");
  }
  const parsed = triageThresholdsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = (issue?.path[0] ?? "veryLowPercent") as keyof TriageThresholds;
    return { ok: false, field, message: issue?.message ?? "Check the thresholds." };
  }
  const t = schema.clinicTriageSettings;
  const values = { ...parsed.data, updatedBy: userId, updatedAt: new Date() };
  await (await db())
    .insert(t)
    .values({ clinicId, ...values })
    .onConflictDoUpdate({ target: t.clinicId, set: values });
  return { ok: true, thresholds: parsed.data };
}

/** Back to the consensus defaults (administrators only). */
export async function resetTriageSettings(clinicId: string, userId: string): Promise<void> {
  if ((await roleIn(userId, clinicId)) !== "admin") {
    throw new NotPermitted("Only the clinic's administrators can change the triage thresholds.");
  }
  const t = schema.clinicTriageSettings;
  await (await db()).delete(t).where(eq(t.clinicId, clinicId));
}
