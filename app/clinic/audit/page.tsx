import type { Metadata } from "next";
import Link from "next/link";
import { forbidden, notFound, redirect } from "next/navigation";
import { ClinicFrame, DemoBadge } from "@/components/clinic/ClinicFrame";
import { ViewerTime } from "@/components/layout/ViewerTime";
import { Panel } from "@/components/patient/Panel";
import { RecordTable } from "@/components/records/RecordTable";
import { currentUserId } from "@/lib/auth";
import { clinicsOf } from "@/lib/clinic/domain/clinics";
import { AUDIT_ACTION_LABEL, AUDIT_PAGE_SIZE, auditLogOf } from "@/lib/clinic/security/audit";

export const metadata: Metadata = { title: "Audit log" };

/**
 * The clinic's audit log, newest first, for its administrators: who viewed, downloaded or changed
 * access to which patient's data, and when (an entry about every patient at once, the population
 * view, names no patient). Other members get 403; anyone outside the clinic 404.
 */
export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<{ clinic?: string; before?: string; beforeId?: string }>;
}) {
  const userId = await currentUserId();
  if (!userId) redirect("/clinic/sign-in");
  const params = await searchParams;
  const clinic = (await clinicsOf(userId)).find((c) => c.clinicId === params.clinic);
  if (!clinic) notFound();
  if (clinic.role !== "admin") forbidden();
  const beforeAt = params.before ? new Date(params.before) : null;
  const before =
    beforeAt && !Number.isNaN(beforeAt.getTime()) && params.beforeId
      ? { at: beforeAt, id: params.beforeId }
      : undefined;
  const entries = await auditLogOf(clinic.clinicId, before);
  const last = entries.at(-1);
  const clinicHref = `/clinic?clinic=${encodeURIComponent(clinic.clinicId)}`;
  return (
    <ClinicFrame
      title={`Audit log · ${clinic.name}`}
      signedIn
      wide
      badge={clinic.demo ? <DemoBadge /> : undefined}
    >
      <p>
        <Link href={clinicHref} className="font-medium underline">
          ← {clinic.name}
        </Link>
      </p>
      <Panel title="Who saw which patient's data" id="audit">
        {entries.length === 0 ? (
          <p data-testid="audit-empty">Nothing recorded{before ? " before this point" : " yet"}.</p>
        ) : (
          // Below 480 px each entry is a block: its time, then who, what and whom labelled (stack-narrow).
          <RecordTable
            caption={`Audit log of ${clinic.name}, newest first`}
            captionHidden
            fitWidth
            testId="audit-log"
          >
            <thead>
              <tr className="border-b border-slate-200 dark:border-slate-700">
                <th scope="col" className="py-2 pr-4 font-semibold">
                  When
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Who
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  What
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Patient
                </th>
                <th scope="col" className="py-2 font-semibold">
                  Details
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr
                  key={e.id}
                  className="border-b border-slate-100 align-top last:border-0 dark:border-slate-800"
                  data-action={e.action}
                >
                  <th scope="row" className="py-2 pr-4 text-left font-normal whitespace-nowrap">
                    <ViewerTime at={e.at.toISOString()} />
                  </th>
                  <td data-label="Who" className="py-2 pr-4">
                    {e.actorName ?? "—"}
                  </td>
                  <td data-label="What" className="py-2 pr-4">
                    {AUDIT_ACTION_LABEL[e.action] ?? e.action}
                  </td>
                  <td data-label="Patient" className="py-2 pr-4">
                    {e.clinicPatientId === null ? (
                      <em data-testid="audit-all-patients">All patients</em>
                    ) : (
                      (e.patientName ?? "—")
                    )}
                  </td>
                  <td data-label="Details" className="py-2 break-all text-slate-700 dark:text-slate-300">
                    {e.detail ?? ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </RecordTable>
        )}
        {last && entries.length === AUDIT_PAGE_SIZE && (
          <p>
            <Link
              className="font-medium underline"
              href={`/clinic/audit?clinic=${encodeURIComponent(clinic.clinicId)}&before=${encodeURIComponent(last.at.toISOString())}&beforeId=${encodeURIComponent(last.id)}`}
            >
              Older entries
            </Link>
          </p>
        )}
      </Panel>
    </ClinicFrame>
  );
}
