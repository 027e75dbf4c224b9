import "server-only";
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { db, schema } from "@/lib/db";
import { NotFound } from "@/lib/errors";
import { recordAudit } from "../security/audit";
import type { ClinicPatientAccess } from "./patients";
import type { TagView } from "./review-types";

export type { TagView } from "./review-types";

/**
 * A clinic's own tags on its patients. Every tag belongs to one clinic: it is looked up with the
 * clinic's id, so another clinic's tag id is "not found", and the database refuses a tag on a
 * patient of another clinic (clinic_patient_tags references the tag with its clinic).
 */

export const TAGS_PER_CLINIC_MAX = 200;

export async function tagsOf(clinicId: string): Promise<TagView[]> {
  const t = schema.clinicTags;
  return (await db())
    .select({ id: t.id, name: t.name })
    .from(t)
    .where(eq(t.clinicId, clinicId))
    .orderBy(asc(t.name));
}

const tagGone = () =>
  new NotFound("This tag could not be found in the clinic. Choose one of the clinic's tags.");

/** The clinic's tag of this id, or NotFound (whether it is another clinic's or none at all). */
export async function tagOf(clinicId: string, tagId: string): Promise<TagView> {
  if (typeof tagId !== "string" || tagId.length === 0 || tagId.length > 64) throw tagGone();
  const t = schema.clinicTags;
  const [row] = await (await db())
    .select({ id: t.id, name: t.name })
    .from(t)
    .where(and(eq(t.clinicId, clinicId), eq(t.id, tagId)));
  if (!row) throw tagGone();
  return row;
}

export type TagChange = { ok: true; id: string } | { ok: false; reason: "duplicate" | "too_many" };

export async function createTag(clinicId: string, userId: string, name: string): Promise<TagChange> {
  const t = schema.clinicTags;
  const database = await db();
  const existing = await database.select({ id: t.id, name: t.name }).from(t).where(eq(t.clinicId, clinicId));
  if (existing.some((e) => e.name.toLocaleLowerCase() === name.toLocaleLowerCase()))
    return { ok: false, reason: "duplicate" };
  if (existing.length >= TAGS_PER_CLINIC_MAX) return { ok: false, reason: "too_many" };
  const id = randomUUID();
  await database.insert(t).values({ id, clinicId, name });
  await recordAudit({
    clinicId,
    actorUserId: userId,
    clinicPatientId: null,
    action: "tag.created",
    detail: name,
  });
  return { id, ok: true };
}

export async function renameTag(
  clinicId: string,
  userId: string,
  tagId: string,
  name: string,
): Promise<TagChange> {
  const tag = await tagOf(clinicId, tagId);
  const t = schema.clinicTags;
  const database = await db();
  const existing = await database.select({ id: t.id, name: t.name }).from(t).where(eq(t.clinicId, clinicId));
  if (existing.some((e) => e.id !== tag.id && e.name.toLocaleLowerCase() === name.toLocaleLowerCase()))
    return { ok: false, reason: "duplicate" };
  await database
    .update(t)
    .set({ name })
    .where(and(eq(t.clinicId, clinicId), eq(t.id, tag.id)));
  await recordAudit({
    clinicId,
    actorUserId: userId,
    clinicPatientId: null,
    action: "tag.renamed",
    detail: `${tag.name} → ${name}`,
  });
  return { ok: true, id: tag.id };
}

/** Deletes the tag, and with it its place on every patient. */
export async function deleteTag(clinicId: string, userId: string, tagId: string): Promise<void> {
  const tag = await tagOf(clinicId, tagId);
  const t = schema.clinicTags;
  await (await db()).delete(t).where(and(eq(t.clinicId, clinicId), eq(t.id, tag.id)));
  await recordAudit({
    clinicId,
    actorUserId: userId,
    clinicPatientId: null,
    action: "tag.deleted",
    detail: tag.name,
  });
}

/** The patient's tags now, by name. */
export async function tagsOfPatient(clinicId: string, patientId: string): Promise<TagView[]> {
  const { clinicTags: t, clinicPatientTags: pt } = schema;
  return (await db())
    .select({ id: t.id, name: t.name })
    .from(pt)
    .innerJoin(t, and(eq(t.id, pt.tagId), eq(t.clinicId, pt.clinicId)))
    .where(and(eq(pt.clinicId, clinicId), eq(pt.clinicPatientId, patientId)))
    .orderBy(asc(t.name));
}

/** Every tag of each of the clinic's patients: the population view's column. */
export async function patientTagsOfClinic(clinicId: string): Promise<Map<string, TagView[]>> {
  const { clinicTags: t, clinicPatientTags: pt } = schema;
  const rows = await (await db())
    .select({ patientId: pt.clinicPatientId, id: t.id, name: t.name })
    .from(pt)
    .innerJoin(t, and(eq(t.id, pt.tagId), eq(t.clinicId, pt.clinicId)))
    .where(eq(pt.clinicId, clinicId))
    .orderBy(asc(t.name));
  const byPatient = new Map<string, TagView[]>();
  for (const r of rows) {
    const list = byPatient.get(r.patientId) ?? [];
    list.push({ id: r.id, name: r.name });
    byPatient.set(r.patientId, list);
  }
  return byPatient;
}

/**
 * Sets the patient's tags to exactly these: every id must be one of the patient's clinic's tags
 * (NotFound otherwise, before anything changes). Audited with the names set.
 */
export async function setPatientTags(
  access: ClinicPatientAccess,
  userId: string,
  tagIds: readonly string[],
): Promise<TagView[]> {
  const wanted = [...new Set(tagIds)];
  const t = schema.clinicTags;
  const database = await db();
  const found =
    wanted.length === 0
      ? []
      : await database
          .select({ id: t.id, name: t.name })
          .from(t)
          .where(and(eq(t.clinicId, access.clinicId), inArray(t.id, wanted)));
  if (found.length !== wanted.length) throw tagGone();
  const pt = schema.clinicPatientTags;
  await database.transaction(async (tx) => {
    await tx
      .delete(pt)
      .where(and(eq(pt.clinicId, access.clinicId), eq(pt.clinicPatientId, access.patient.id)));
    if (found.length > 0)
      await tx
        .insert(pt)
        .values(
          found.map((f) => ({ clinicId: access.clinicId, tagId: f.id, clinicPatientId: access.patient.id })),
        );
  });
  const names = found.map((f) => f.name).sort((a, b) => a.localeCompare(b));
  await recordAudit({
    clinicId: access.clinicId,
    actorUserId: userId,
    clinicPatientId: access.patient.id,
    action: "patient.tags_set",
    detail: names.length > 0 ? names.join(", ") : "no tags",
  });
  return found;
}

/**
 * The clinic's patients carrying a tag, by name: how a later batch (a clinic day's reports)
 * chooses its patients by tag. NotFound for a tag that is not the clinic's.
 */
export async function patientsByTag(
  clinicId: string,
  tagId: string,
): Promise<{ id: string; name: string }[]> {
  const tag = await tagOf(clinicId, tagId);
  const { clinicPatients: p, clinicPatientTags: pt } = schema;
  return (await db())
    .select({ id: p.id, name: p.name })
    .from(pt)
    .innerJoin(p, and(eq(p.id, pt.clinicPatientId), eq(p.clinicId, pt.clinicId)))
    .where(and(eq(pt.clinicId, clinicId), eq(pt.tagId, tag.id)))
    .orderBy(asc(p.name), asc(p.id));
}
