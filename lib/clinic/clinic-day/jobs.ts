import "server-only";
import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { db, schema } from "@/lib/db";
import type { ClinicDayItemState } from "@/lib/db/schema/clinic-day";
import { NotFound } from "@/lib/errors";
import { env } from "@/lib/platform/env";
import { roleIn } from "../domain/clinics";
import { patientsByTag, tagOf } from "../domain/tags";
import { recordAudit } from "../security/audit";
import { populationOf } from "../views/population";
import { isExpired, packetExpiresAt } from "./policy";
import {
  CLINIC_DAY_MAX_PATIENTS,
  CLINIC_DAY_MAX_RUNNING_JOBS,
  type ClinicDayRefusal,
  type ClinicDayRequest,
  chooseRows,
  selectionLabel,
} from "./selection";

/**
 * Clinic days in the database: a job and one item per patient, each read only through the job's
 * clinic by one of its members (anyone else: NotFound, whether the id exists or not). The items
 * are worked by the runner (runner.ts); here they are made, listed, retried and read for the zip.
 */

const jobGone = () =>
  new NotFound("This clinic day is not in any of your clinics. Open it from your clinic's Clinic day page.");

async function assertMember(userId: string, clinicId: string): Promise<void> {
  if (!(await roleIn(userId, clinicId))) {
    throw new NotFound("This clinic is not one of yours. Open the Clinic day page from your clinic.");
  }
}

export type Created = { ok: true; jobId: string; patients: number } | { ok: false; reason: ClinicDayRefusal };

/** Jobs of the clinic with items still to do. */
async function unfinishedJobs(clinicId: string): Promise<number> {
  const i = schema.clinicDayItems;
  const [row] = await (await db())
    .select({ n: sql<number>`count(distinct ${i.jobId})::int` })
    .from(i)
    .where(and(eq(i.clinicId, clinicId), inArray(i.state, ["pending", "running"])));
  return row?.n ?? 0;
}

/**
 * A new clinic day of the patients `request` chooses, as the population view lists them now.
 * Refused in words (never thrown) when it would cover nobody or too many, or when the clinic has
 * too many days still being made.
 */
export async function createClinicDay(
  userId: string,
  clinicId: string,
  request: ClinicDayRequest,
): Promise<Created> {
  await assertMember(userId, clinicId);
  const { selection, days } = request;
  const tag = selection.kind === "tag" ? await tagOf(clinicId, selection.tagId) : null;
  const tagged = tag ? new Set((await patientsByTag(clinicId, tag.id)).map((p) => p.id)) : undefined;
  const rows = chooseRows((await populationOf(clinicId)).rows, selection, tagged);
  if (rows.length === 0) return { ok: false, reason: "none" };
  if (rows.length > CLINIC_DAY_MAX_PATIENTS) return { ok: false, reason: "too_many" };
  if ((await unfinishedJobs(clinicId)) >= CLINIC_DAY_MAX_RUNNING_JOBS) return { ok: false, reason: "busy" };
  const jobId = randomUUID();
  const label = selectionLabel(selection, tag?.name);
  await (await db()).transaction(async (tx) => {
    await tx
      .insert(schema.clinicDayJobs)
      .values({ id: jobId, clinicId, createdBy: userId, selection: label, days });
    await tx.insert(schema.clinicDayItems).values(
      rows.map((r) => ({
        id: randomUUID(),
        jobId,
        clinicId,
        clinicPatientId: r.id,
        patientName: r.name,
        birthDate: r.birthDate,
      })),
    );
  });
  await recordAudit({
    clinicId,
    actorUserId: userId,
    clinicPatientId: null,
    action: "clinic_day.created",
    detail: `job ${jobId}: ${label}, last ${days} days, ${rows.length} patient${rows.length === 1 ? "" : "s"}`,
  });
  return { ok: true, jobId, patients: rows.length };
}

export interface ClinicDayItemView {
  id: string;
  clinicPatientId: string | null;
  patientName: string;
  birthDate: string | null;
  state: ClinicDayItemState;
  attempts: number;
  error: string | null;
  period: string | null;
}

export interface ClinicDayView {
  id: string;
  clinicId: string;
  selection: string;
  days: number;
  createdAt: string;
  total: number;
  done: number;
  failed: number;
  /** Every item done or failed: the zip can be downloaded (with the failed named in its CSV). */
  finished: boolean;
  /** When the finished packet's PDFs are deleted (CLINIC_DAY_RETENTION_HOURS after its last patient). */
  expiresAt: string | null;
  /** Past that: nothing to download or retry, a new clinic day is made instead. */
  expired: boolean;
  items: ClinicDayItemView[];
}

const itemColumns = {
  id: schema.clinicDayItems.id,
  jobId: schema.clinicDayItems.jobId,
  clinicPatientId: schema.clinicDayItems.clinicPatientId,
  patientName: schema.clinicDayItems.patientName,
  birthDate: schema.clinicDayItems.birthDate,
  state: schema.clinicDayItems.state,
  attempts: schema.clinicDayItems.attempts,
  error: schema.clinicDayItems.error,
  period: schema.clinicDayItems.period,
  finishedAt: schema.clinicDayItems.finishedAt,
};

type ItemRow = ClinicDayItemView & { jobId: string; finishedAt: Date | null };

function viewOf(
  job: typeof schema.clinicDayJobs.$inferSelect,
  items: ItemRow[],
  now = new Date(),
): ClinicDayView {
  const mine = items.filter((i) => i.jobId === job.id);
  const own = mine.map(({ jobId: _j, finishedAt: _f, ...i }) => i);
  const done = own.filter((i) => i.state === "done").length;
  const failed = own.filter((i) => i.state === "failed").length;
  const finished = done + failed === own.length;
  const lastFinished = mine.reduce<Date | null>(
    (last, i) => (i.finishedAt && (!last || i.finishedAt > last) ? i.finishedAt : last),
    null,
  );
  const expiresAt = packetExpiresAt(lastFinished, finished, env().CLINIC_DAY_RETENTION_HOURS);
  return {
    id: job.id,
    clinicId: job.clinicId,
    selection: job.selection,
    days: job.days,
    createdAt: job.createdAt.toISOString(),
    total: own.length,
    done,
    failed,
    finished,
    expiresAt: expiresAt?.toISOString() ?? null,
    expired: isExpired(expiresAt, now),
    items: own,
  };
}

/** The clinic's latest clinic days, newest first, with their items (never the PDFs). */
export async function clinicDaysOf(userId: string, clinicId: string, limit = 20): Promise<ClinicDayView[]> {
  await assertMember(userId, clinicId);
  const database = await db();
  const j = schema.clinicDayJobs;
  const jobs = await database
    .select()
    .from(j)
    .where(eq(j.clinicId, clinicId))
    .orderBy(desc(j.createdAt), desc(j.id))
    .limit(limit);
  if (jobs.length === 0) return [];
  const i = schema.clinicDayItems;
  const items = await database
    .select(itemColumns)
    .from(i)
    .where(
      and(
        eq(i.clinicId, clinicId),
        inArray(
          i.jobId,
          jobs.map((x) => x.id),
        ),
      ),
    )
    .orderBy(asc(i.patientName), asc(i.id));
  return jobs.map((job) => viewOf(job, items));
}

/** One clinic day, for a member of its clinic; NotFound for anyone else. */
export async function clinicDayOf(userId: string, jobId: string): Promise<ClinicDayView> {
  if (typeof jobId !== "string" || jobId.length === 0 || jobId.length > 64) throw jobGone();
  const database = await db();
  const [job] = await database.select().from(schema.clinicDayJobs).where(eq(schema.clinicDayJobs.id, jobId));
  if (!job || !(await roleIn(userId, job.clinicId))) throw jobGone();
  const i = schema.clinicDayItems;
  const items = await database
    .select(itemColumns)
    .from(i)
    .where(and(eq(i.jobId, job.id), eq(i.clinicId, job.clinicId)))
    .orderBy(asc(i.patientName), asc(i.id));
  return viewOf(job, items);
}

/**
 * Puts a failed item back in the queue, its attempts counted afresh (policy.ts); NotFound unless it
 * is a failed item of the member's job. An expired packet's items stay as they are: its other
 * PDFs are deleted, so a new clinic day is the way (the page offers no Retry then).
 */
export async function retryClinicDayItem(
  userId: string,
  jobId: string,
  itemId: string,
): Promise<ClinicDayView> {
  const job = await clinicDayOf(userId, jobId);
  const item = job.items.find((x) => x.id === itemId);
  if (!item) throw jobGone();
  if (item.state === "failed" && !job.expired) {
    const i = schema.clinicDayItems;
    await (await db())
      .update(i)
      .set({ state: "pending", error: null, leasedBy: null, leaseUntil: null, attempts: 0 })
      .where(and(eq(i.id, item.id), eq(i.jobId, job.id), eq(i.state, "failed")));
  }
  return clinicDayOf(userId, jobId);
}

/** The PDF of a done item of the job (read one at a time while the zip streams out). */
export async function itemPdf(jobId: string, itemId: string): Promise<Buffer | null> {
  const i = schema.clinicDayItems;
  const [row] = await (await db())
    .select({ pdf: i.pdf })
    .from(i)
    .where(and(eq(i.id, itemId), eq(i.jobId, jobId), eq(i.state, "done")));
  return row?.pdf ?? null;
}
