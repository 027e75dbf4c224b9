import "server-only";
import { strToU8 } from "fflate";
import { recordAudit } from "../security/audit";
import { populationOf } from "../views/population";
import { clinicDayOf, itemPdf } from "./jobs";
import { entryNames, type PacketRow, packetCsv } from "./packet";
import { type ZipEntry, zipStream } from "./zip";

/**
 * The clinic day's zip for a member of its clinic: each done item's PDF under a name no other
 * entry shares, and `clinic-day.csv`, one row per patient of the job with the population view's
 * numbers now and the PDF's name or why it is missing. Made as it is downloaded, one PDF read from
 * the database at a time. Each PDF handed out is logged as download.agp_pdf with the job, and the
 * packet as clinic_day.downloaded.
 */
export type ClinicDayZip =
  | { ok: true; fileName: string; body: ReadableStream<Uint8Array> }
  | { ok: false; message: string };

export async function clinicDayZip(userId: string, jobId: string): Promise<ClinicDayZip> {
  const job = await clinicDayOf(userId, jobId);
  if (!job.finished) {
    return {
      ok: false,
      message: `This clinic day is still being prepared (${job.done} of ${job.total} done): download it when it has finished.`,
    };
  }
  const population = new Map((await populationOf(job.clinicId)).rows.map((r) => [r.id, r]));
  const done = job.items.filter((i) => i.state === "done");
  const names = entryNames(done);
  const rows: PacketRow[] = job.items.map((item) => ({
    item,
    population: (item.clinicPatientId && population.get(item.clinicPatientId)) || null,
    file: names.get(item.id) ?? null,
    missing: item.state === "done" ? null : (item.error ?? "Not prepared."),
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
