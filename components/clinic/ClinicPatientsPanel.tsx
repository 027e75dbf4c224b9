import Link from "next/link";
import { ViewerTime } from "@/components/layout/ViewerTime";
import { Panel } from "@/components/patient/Panel";
import { STATUS_HELP, STATUS_LABEL } from "@/lib/clinic/domain/patient-status";
import type { ClinicPatientRow } from "@/lib/clinic/domain/patient-types";
import { Field, FormError, OneTimeLink, primaryButtonClass } from "./ClinicForm";

const smallButton =
  "rounded-md border border-slate-400 px-2.5 py-1 text-sm font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800";
const SYNC_RESULT: Record<string, string> = {
  synced: "Synced: the clinic's copy of the data is up to date.",
  failed: "The sync failed; it is retried automatically. Try again in a few minutes.",
  reconnect_required: "The glucose service refused the patient's authorization: they need to reconnect.",
  busy: "Another sync of this patient is running right now; its data will be up to date in a moment.",
};
const patientHref = (id: string, view = "") => `/clinic/patients/${encodeURIComponent(id)}${view}`;

/**
 * The clinic's patients: adding one (and the invitation link, shown once), each patient's status
 * in words, and what can be done: open their dashboard and AGP, send a new link, remove.
 */
export function ClinicPatientsPanel({
  clinicId,
  patients,
  newLink,
  error,
  synced,
}: {
  clinicId: string;
  patients: ClinicPatientRow[];
  newLink: { name: string; link: string; expires: string; qrSvg: string } | null;
  error: string | null;
  /** The answer of a "Sync now" just made, for that patient. */
  synced: { patientId: string; result: string } | null;
}) {
  return (
    <Panel title="Patients" id="patients">
      {newLink && (
        <OneTimeLink
          id="patient-link"
          inputId="new-patient-link"
          testId="patient-invitation-link"
          label={`Invitation link for ${newLink.name}`}
          link={newLink.link}
          qrSvg={newLink.qrSvg}
        >
          Invitation for {newLink.name} created. Send this link to the patient: it is shown only now, works
          once, and {newLink.expires}. Opening it, the patient connects their CGM account and allows the
          clinic access.
        </OneTimeLink>
      )}
      {patients.length === 0 ? (
        <p data-testid="no-patients">No patients yet. Add one below and send them the invitation link.</p>
      ) : (
        <ul data-testid="clinic-patients" className="divide-y divide-slate-200 dark:divide-slate-800">
          {patients.map((p) => (
            <li
              key={p.id}
              className="flex flex-wrap items-start justify-between gap-3 py-3"
              data-patient={p.id}
            >
              <div className="min-w-0">
                <p className="font-medium">
                  {p.status === "connected" ? (
                    <Link href={patientHref(p.id)} className="underline">
                      {p.name}
                    </Link>
                  ) : (
                    p.name
                  )}
                  {p.birthDate && (
                    <span className="font-normal text-slate-700 dark:text-slate-300">
                      {" "}
                      · born {p.birthDate}
                    </span>
                  )}
                </p>
                <p className="text-sm" data-testid="patient-status">
                  <span className="font-medium">{STATUS_LABEL[p.status]}</span>
                  {STATUS_HELP[p.status] && (
                    <span className="text-slate-700 dark:text-slate-300">. {STATUS_HELP[p.status]}</span>
                  )}
                  {p.status === "connected" && (
                    <span className="text-slate-700 dark:text-slate-300" data-testid="patient-synced">
                      {" "}
                      ·{" "}
                      {p.lastSyncAt ? (
                        <>
                          data synced <ViewerTime at={p.lastSyncAt.toISOString()} />
                        </>
                      ) : (
                        "data not synced yet"
                      )}
                    </span>
                  )}
                </p>
                {p.status === "connected" && p.syncFailure && (
                  <p
                    className="text-sm text-amber-900 dark:text-amber-200"
                    data-testid="patient-sync-failure"
                  >
                    <span className="font-medium">
                      Sync failing since <ViewerTime at={p.syncFailure.at.toISOString()} />
                      {p.syncFailure.attempts > 1 ? ` (${p.syncFailure.attempts} attempts)` : ""}
                    </span>
                    :{" "}
                    {p.lastSyncAt ? "the data shown is from the last successful sync" : "no data synced yet"},
                    and the patient&apos;s pages read the service directly.{" "}
                    {p.syncFailure.retryAt ? (
                      <>
                        Retried automatically after <ViewerTime at={p.syncFailure.retryAt.toISOString()} />.
                      </>
                    ) : (
                      "Retried at the next sync."
                    )}{" "}
                    <span className="text-slate-700 dark:text-slate-300">
                      Reason: <span className="font-mono text-xs">{p.syncFailure.detail.slice(0, 200)}</span>
                    </span>
                  </p>
                )}
                {synced?.patientId === p.id && (
                  <p role="status" className="text-sm font-medium" data-testid="sync-result">
                    {SYNC_RESULT[synced.result] ?? SYNC_RESULT.failed}
                  </p>
                )}
              </div>
              <div className="flex flex-wrap gap-2">
                {p.status === "connected" && (
                  <>
                    <Link href={patientHref(p.id)} className={smallButton}>
                      Dashboard<span className="sr-only"> of {p.name}</span>
                    </Link>
                    <Link href={patientHref(p.id, "/agp")} className={smallButton}>
                      AGP<span className="sr-only"> of {p.name}</span>
                    </Link>
                    <form method="post" action={`/api/clinic/patients/${encodeURIComponent(p.id)}/sync`}>
                      <button type="submit" className={smallButton}>
                        Sync now<span className="sr-only"> for {p.name}</span>
                      </button>
                    </form>
                  </>
                )}
                {(p.status === "invited" ||
                  p.status === "invitation_expired" ||
                  p.status === "withdrawn") && (
                  <form method="post" action={`/api/clinic/patients/${encodeURIComponent(p.id)}/invitation`}>
                    <button type="submit" className={smallButton}>
                      New link<span className="sr-only"> for {p.name}</span>
                    </button>
                  </form>
                )}
                {/* Removing ends the clinic's access at once: asked twice, without needing JavaScript. */}
                <details className="group">
                  <summary className="cursor-pointer list-none rounded-md border border-red-700 px-2.5 py-1 text-sm font-medium text-red-800 hover:bg-red-50 dark:border-red-400 dark:text-red-300 dark:hover:bg-red-950">
                    Remove<span className="sr-only"> {p.name}</span>…
                  </summary>
                  <form
                    method="post"
                    action={`/api/clinic/patients/${encodeURIComponent(p.id)}/remove`}
                    className="mt-2 space-y-2 rounded-md border border-red-300 bg-red-50 p-2 text-sm dark:border-red-800 dark:bg-red-950"
                  >
                    <p>The clinic loses access to {p.name}&apos;s data. The audit log keeps what happened.</p>
                    <button
                      type="submit"
                      className="rounded-md bg-red-700 px-2.5 py-1 font-medium text-white hover:bg-red-800"
                    >
                      Remove {p.name}
                    </button>
                  </form>
                </details>
              </div>
            </li>
          ))}
        </ul>
      )}
      <h3 className="font-semibold" id="add-patient">
        Add a patient
      </h3>
      <form
        method="post"
        action="/api/clinic/patients"
        className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end"
      >
        <input type="hidden" name="clinicId" value={clinicId} />
        <div className="sm:col-span-3">
          <FormError message={error} id="patient-form-error" />
        </div>
        <Field id="name" label="Patient's name" required maxLength={120} autoComplete="off" />
        <Field id="birthDate" label="Date of birth (optional)" type="date" />
        <button type="submit" className={primaryButtonClass}>
          Add and create link
        </button>
      </form>
    </Panel>
  );
}
