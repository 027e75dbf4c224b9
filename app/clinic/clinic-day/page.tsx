import type { Metadata } from "next";
import Link from "next/link";
import { forbidden, notFound, redirect } from "next/navigation";
import {
  FormError,
  inputClass,
  linkClass,
  primaryButtonClass,
  secondaryButtonClass,
} from "@/components/clinic/ClinicForm";
import { ClinicFrame, DemoBadge } from "@/components/clinic/ClinicFrame";
import { RefreshWhile } from "@/components/clinic/RefreshWhile";
import { ViewerTime } from "@/components/layout/ViewerTime";
import { Panel } from "@/components/patient/Panel";
import { currentUserId } from "@/lib/auth";
import { type ClinicDayView, clinicDaysOf } from "@/lib/clinic/clinic-day/jobs";
import {
  CLINIC_DAY_MAX_PATIENTS,
  CLINIC_DAY_REFUSALS,
  type ClinicDayRefusal,
} from "@/lib/clinic/clinic-day/selection";
import { clinicsOf } from "@/lib/clinic/domain/clinics";
import { tagsOf } from "@/lib/clinic/domain/tags";
import { FLAG_NAMES, TRIAGE_FLAGS } from "@/lib/clinic/domain/triage";
import { REPORT_DEFAULT_DAYS, REPORT_PERIOD_DAYS } from "@/lib/reports/period/period";

export const metadata: Metadata = { title: "Clinic day" };
export const dynamic = "force-dynamic";

/** Seconds between the list's updates while a clinic day is being prepared (without JavaScript: the Refresh link). */
const REFRESH_S = 3;

const STATE_LABEL = { pending: "Waiting", running: "Preparing", done: "Ready", failed: "Failed" } as const;

const isRefusal = (s: string | undefined): s is ClinicDayRefusal => !!s && s in CLINIC_DAY_REFUSALS;

/**
 * A clinic day in one go: the AGP reports of the patients chosen by tag, by flag or all, for one
 * period, prepared in the background (lib/clinic/clinic-day), and downloaded as one zip with a CSV
 * of their population rows. While a day is being prepared the list updates itself (a small client
 * poll that re-reads the page) and has a Refresh link that works without JavaScript. Members of the clinic only: another clinic's id is a 404, a patient's session a 403.
 */
export default async function ClinicDayPage({
  searchParams,
}: {
  searchParams: Promise<{ clinic?: string; error?: string; job?: string }>;
}) {
  const userId = await currentUserId();
  if (!userId) redirect("/clinic/sign-in");
  const memberships = await clinicsOf(userId);
  if (memberships.length === 0) forbidden();
  const params = await searchParams;
  const clinic = params.clinic ? memberships.find((c) => c.clinicId === params.clinic) : memberships[0];
  if (!clinic) notFound();
  const [jobs, tags] = await Promise.all([clinicDaysOf(userId, clinic.clinicId), tagsOf(clinic.clinicId)]);
  const preparing = jobs.some((j) => !j.finished);
  const here = `/clinic/clinic-day?clinic=${encodeURIComponent(clinic.clinicId)}`;
  const error = isRefusal(params.error)
    ? CLINIC_DAY_REFUSALS[params.error]
    : params.error
      ? "Choose the patients and one of the periods."
      : null;
  return (
    <ClinicFrame
      title={`Clinic day · ${clinic.name}`}
      signedIn
      wide
      badge={clinic.demo ? <DemoBadge /> : undefined}
    >
      <RefreshWhile active={preparing} seconds={REFRESH_S} />
      <p className="flex flex-wrap gap-x-4 gap-y-1">
        <Link
          href={`/clinic?clinic=${encodeURIComponent(clinic.clinicId)}`}
          className="font-medium underline"
        >
          ← {clinic.name}
        </Link>
        <Link
          href={`/clinic/population?clinic=${encodeURIComponent(clinic.clinicId)}`}
          className="font-medium underline"
        >
          Population view
        </Link>
      </p>
      <Panel title="Prepare a clinic day" id="prepare">
        <p className="text-sm text-slate-700 dark:text-slate-300">
          The AGP report of each patient chosen, for the same period, in one zip with a CSV of their
          population rows (the last 14 days). Patients who do not share their data now are left out; at most{" "}
          {CLINIC_DAY_MAX_PATIENTS} patients.
        </p>
        <FormError message={error} />
        <form method="post" action="/api/clinic/clinic-days" className="flex flex-wrap items-end gap-4">
          <input type="hidden" name="clinicId" value={clinic.clinicId} />
          <div>
            <label htmlFor="patients" className="block font-medium">
              Patients
            </label>
            <select
              id="patients"
              name="patients"
              className={inputClass}
              defaultValue="all"
              data-testid="clinic-day-patients"
            >
              <option value="all">All sharing patients</option>
              {tags.length > 0 && (
                <optgroup label="With the tag">
                  {tags.map((t) => (
                    <option key={t.id} value={`tag:${t.id}`}>
                      Tag: {t.name}
                    </option>
                  ))}
                </optgroup>
              )}
              <optgroup label="With the flag (population view)">
                {TRIAGE_FLAGS.map((f) => (
                  <option key={f} value={`flag:${f}`}>
                    Flag: {FLAG_NAMES[f]}
                  </option>
                ))}
              </optgroup>
            </select>
          </div>
          <div>
            <label htmlFor="days" className="block font-medium">
              Period
            </label>
            <select id="days" name="days" className={inputClass} defaultValue={String(REPORT_DEFAULT_DAYS)}>
              {REPORT_PERIOD_DAYS.map((d) => (
                <option key={d} value={d}>
                  Last {d} days
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={primaryButtonClass} data-testid="clinic-day-start">
            Prepare
          </button>
        </form>
      </Panel>
      <Panel
        title="Clinic days"
        id="jobs"
        actions={
          <a href={`${here}#jobs`} className={linkClass} data-testid="clinic-day-refresh">
            Refresh
          </a>
        }
      >
        {jobs.length === 0 ? (
          <p data-testid="clinic-day-none">No clinic day prepared yet.</p>
        ) : (
          <ul className="space-y-4" data-testid="clinic-day-jobs">
            {jobs.map((job) => (
              <Job key={job.id} job={job} current={job.id === params.job} />
            ))}
          </ul>
        )}
      </Panel>
    </ClinicFrame>
  );
}

function Job({ job, current }: { job: ClinicDayView; current: boolean }) {
  const failed = job.items.filter((i) => i.state === "failed");
  return (
    <li
      id={`job-${job.id}`}
      data-job={job.id}
      data-done={job.done}
      data-total={job.total}
      data-failed={job.failed}
      data-finished={job.finished}
      data-expired={job.expired}
      className={`rounded-lg border p-4 ${current ? "border-blue-700 dark:border-blue-400" : "border-slate-200 dark:border-slate-700"}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-medium">
          {job.selection} · last {job.days} days
        </p>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Asked <ViewerTime at={job.createdAt} />
        </p>
      </div>
      <p role="status" className="mt-2" data-testid="clinic-day-progress">
        {job.done} of {job.total} ready
        {job.failed > 0 ? `, ${job.failed} failed` : ""}
        {job.finished ? "." : ": preparing…"}
      </p>
      {/* The words above say it; the bar only shows it at a glance. */}
      <div
        className="mt-1 h-2 w-full overflow-hidden rounded bg-slate-200 dark:bg-slate-700"
        aria-hidden="true"
      >
        <div
          className={`h-full ${job.failed > 0 ? "bg-amber-600" : "bg-blue-700 dark:bg-blue-400"}`}
          style={{
            width: `${job.total === 0 ? 0 : Math.round(((job.done + job.failed) / job.total) * 100)}%`,
          }}
        />
      </div>
      {failed.length > 0 && (
        <ul className="mt-3 space-y-2" data-testid="clinic-day-failures">
          {failed.map((item) => (
            <li
              key={item.id}
              data-item={item.id}
              className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-red-300 bg-red-50 p-2 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
            >
              <span>
                <strong>{item.patientName}</strong>: {item.error}
              </span>
              {/* An expired packet's other PDFs are gone: a new clinic day, not a Retry. */}
              {!job.expired && (
                <form method="post" action={`/api/clinic/clinic-days/${encodeURIComponent(job.id)}/retry`}>
                  <input type="hidden" name="itemId" value={item.id} />
                  <button
                    type="submit"
                    className={secondaryButtonClass}
                    aria-label={`Retry ${item.patientName}`}
                  >
                    Retry
                  </button>
                </form>
              )}
            </li>
          ))}
        </ul>
      )}
      <details className="mt-3">
        <summary className="cursor-pointer text-sm">Patients ({job.total})</summary>
        <ul className="mt-2 grid gap-1 text-sm sm:grid-cols-2">
          {job.items.map((item) => (
            <li key={item.id} data-item-state={item.state}>
              {item.patientName}
              {item.birthDate ? ` (${item.birthDate})` : ""}: {STATE_LABEL[item.state]}
            </li>
          ))}
        </ul>
      </details>
      {job.expired && job.expiresAt && (
        <p className="mt-3" data-testid="clinic-day-expired">
          This packet expired <ViewerTime at={job.expiresAt} /> and its PDFs were deleted: prepare a new
          clinic day for these patients.
        </p>
      )}
      {job.finished && !job.expired && (
        <p className="mt-3">
          <a
            href={`/api/clinic/clinic-days/${encodeURIComponent(job.id)}/zip`}
            className={`inline-block ${primaryButtonClass}`}
            data-testid="clinic-day-download"
            download
          >
            Download the zip ({job.done} PDF{job.done === 1 ? "" : "s"} and the CSV)
          </a>
          {job.failed > 0 && (
            <span className="mt-2 block text-sm">The CSV names the {job.failed} missing and why.</span>
          )}
          {job.expiresAt && (
            <span className="mt-2 block text-sm" data-testid="clinic-day-expires">
              Available until <ViewerTime at={job.expiresAt} />: then its PDFs are deleted.
            </span>
          )}
        </p>
      )}
    </li>
  );
}
