import "server-only";
import { strToU8 } from "fflate";
import { recordAudit } from "../security/audit";
import { populationOf } from "../views/population";
import { clinicDayRefusal } from "./access";
import { type ClinicDayView, clinicDayOf, itemPdf } from "./jobs";
import { entryNames, type PacketRow, packetCsv } from "./packet";
import { type ZipEntry, zipStream } from "./zip";

/**
 * The clinic day's zip for a member of its clinic: each done item's PDF under a name no other
 * entry shares, and `clinic-day.csv`, one row per patient of the job with the population view's
 * numbers now (its last 14 days, labelled so: packet.ts) and the PDF's name and period or why it
 * is missing. Made as it is downloaded, one PDF read from
 * the database at a time. Each patient's access is checked again now, for the one downloading: a
 * patient who stopped sharing since the PDF was made, or was removed, is left out (the CSV says
 * why). A packet past its retention (CLINIC_DAY_RETENTION_HOURS) is refused as expired. Each PDF
 * handed out is logged as download.agp_pdf with the job, and the packet as clinic_day.downloaded.
 */
export type ClinicDayZip =
  | { ok: true; fileName: string; body: ReadableStream<Uint8Array> }
  | { ok: false; reason: "not_ready" | "expired"; message: string };

/** Why a packet cannot be downloaded now, in words; null when it can. */
export function packetRefusal(job: ClinicDayView): Extract<ClinicDayZip, { ok: false }> | null {
  if (job.expired) {
    return {
      ok: false,
      reason: "expired",
      message: `This clinic day's packet expired on ${job.expiresAt?.replace("T", " ").slice(0, 16)} UTC and its PDFs were deleted: prepare a new clinic day for these patients.`,
    };
  }
  if (!job.finished) {
    return {
      ok: false,
      reason: "not_ready",
      message: `This clinic day is still being prepared (${job.done} of ${job.total} done): download it when it has finished.`,
    };
  }
  return null;
}

/** Each done item's reason to be left out now (null: handed out), checked for `userId`. */
async function withdrawnSince(userId: string, job: ClinicDayView): Promise<Map<string, string | null>> {
  const refusals = new Map<string, string | null>();
  for (const item of job.items.filter((i) => i.state === "done")) {
    const refusal = await clinicDayRefusal(userId, item.clinicPatientId, item.patientName);
    refusals.set(item.id, refusal && `${refusal} The PDF made earlier is left out.`);
  }
  return refusals;
}

export async function clinicDayZip(userId: string, jobId: string): Promise<ClinicDayZip> {
  const job = await clinicDayOf(userId, jobId);
  const refused = packetRefusal(job);
  if (refused) return refused;
  const withdrawn = await withdrawnSince(userId, job);
  const population = new Map((await populationOf(job.clinicId)).rows.map((r) => [r.id, r]));
  const done = job.items.filter((i) => i.state === "done" && !withdrawn.get(i.id));
  const names = entryNames(done);
  const rows: PacketRow[] = job.items.map((item) => ({
    item,
    population: (item.clinicPatientId && population.get(item.clinicPatientId)) || null,
    file: names.get(item.id) ?? null,
    missing: names.has(item.id) ? null : (withdrawn.get(item.id) ?? item.error ?? "Not prepared."),
  }));
  const day = job.createdAt.slice(0, 10);
  await recordAudit({
    clinicId: job.clinicId,
    actorUserId: userId,
    clinicPatientId: null,
    action: "clinic_day.downloaded",
    detail: `job ${job.id}: ${done.length} of ${job.total} PDFs`,
  });
  for (const item of done) {
    await recordAudit({
      clinicId: job.clinicId,
      actorUserId: userId,
      clinicPatientId: item.clinicPatientId,
      action: "download.agp_pdf",
      detail: `clinic day ${job.id}: ${item.period ?? `last ${job.days} days`}`,
    });
  }
  const entries: ZipEntry[] = [
    ...done.map((item) => ({
      name: names.get(item.id) as string,
      data: () => itemPdf(job.id, item.id),
      compress: false,
    })),
    { name: "clinic-day.csv", data: async () => strToU8(packetCsv(rows)), compress: true },
  ];
  return {
    ok: true,
    fileName: `clinic-day_${day}_${job.days}-days_${job.id.slice(0, 8)}.zip`,
    body: zipStream(entries),
  };
}
