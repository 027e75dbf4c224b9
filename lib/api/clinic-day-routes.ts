import "server-only";
import { z } from "zod";
import { clinicDayZip } from "@/lib/clinic/clinic-day/download";
import { clinicDayOf, createClinicDay, retryClinicDayItem } from "@/lib/clinic/clinic-day/jobs";
import { wakeClinicDayRunner } from "@/lib/clinic/clinic-day/runner";
import { parseClinicDayRequest } from "@/lib/clinic/clinic-day/selection";
import { seeOther } from "@/lib/http/redirect";
import { InputError } from "./errors";
import { type ClinicianContext, formRoute, signedIn } from "./route";

/**
 * The clinic day's routes (lib/clinic/clinic-day): made from a form on /clinic/clinic-day, watched
 * there or as JSON, retried per patient, downloaded as one zip. Every id is looked up through the
 * asker's clinics: another clinic's job is a 404, whether it exists or not.
 */

export const clinicDayPath = (clinicId: string, extra = "") =>
  `/clinic/clinic-day?clinic=${encodeURIComponent(clinicId)}${extra}`;

const id = z.string().min(1).max(64);

/** POST /api/clinic/clinic-days: clinicId, patients ("all", "tag:<id>", "flag:<flag>"), days. */
export const createClinicDayForm = formRoute(
  {
    schema: z.object({
      clinicId: id,
      patients: z.string().max(80).optional(),
      days: z.string().max(8).optional(),
    }),
    user: signedIn(() => seeOther("/clinic/sign-in")),
    invalid: () => seeOther("/clinic"),
  },
  async ({ user, form }) => {
    const request = parseClinicDayRequest(form.patients, form.days);
    if (!request.ok) return seeOther(clinicDayPath(form.clinicId, "&error=form"));
    const created = await createClinicDay(user, form.clinicId, request.value);
    if (!created.ok) return seeOther(clinicDayPath(form.clinicId, `&error=${created.reason}`));
    wakeClinicDayRunner();
    return seeOther(clinicDayPath(form.clinicId, `&job=${created.jobId}#job-${created.jobId}`));
  },
);

/** POST /api/clinic/clinic-days/:jobId/retry: itemId, a failed patient of the job, back in the queue. */
export const retryClinicDayForm = formRoute(
  {
    schema: z.object({ itemId: id }),
    user: signedIn(() => seeOther("/clinic/sign-in")),
  },
  async ({ user, params, form }) => {
    const job = await retryClinicDayItem(user, String(params.jobId), form.itemId);
    wakeClinicDayRunner();
    return seeOther(clinicDayPath(job.clinicId, `&job=${job.id}#job-${job.id}`));
  },
);

/** GET /api/clinic/clinic-days/:jobId: the job's progress, each patient's state and failure. */
export const clinicDayStatus = ({ userId, params }: ClinicianContext) =>
  clinicDayOf(userId, String(params.jobId));

/** GET /api/clinic/clinic-days/:jobId/zip: the PDFs and the CSV, once every patient is done or failed. */
export async function clinicDayDownload({ userId, params }: ClinicianContext): Promise<Response> {
  const zip = await clinicDayZip(userId, String(params.jobId));
  // Expired: gone for good (410); still being prepared: not yet (409).
  if (!zip.ok) throw new InputError(zip.message, zip.reason === "expired" ? 410 : 409, zip.reason);
  return new Response(zip.body, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${zip.fileName}"`,
    },
  });
}
