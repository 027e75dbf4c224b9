import type { Metadata } from "next";
import { ClinicPatientShell, ServiceStateNotice } from "@/components/clinic/ClinicPatientShell";
import { CompareView } from "@/components/reports/CompareView";
import { ReportIdentity } from "@/components/reports/ReportIdentity";
import { clinicPatientPage } from "@/lib/clinic/views/patient-page";
import { isBlocked, withServiceStates } from "@/lib/dashboard/patient-page";
import { firstParam, type SearchParam } from "@/lib/records/query";
import { clinicViewer } from "@/lib/records/viewer";
import { loadComparison } from "@/lib/reports/comparison/comparison-load";
import { parseComparisonRequest } from "@/lib/reports/comparison/comparison-view";
import { clinicReportViewer, viewIdentityLines } from "@/lib/reports/identity/identity-load";
import { comparisonViewPeriod } from "@/lib/reports/identity/view-periods";

export const metadata: Metadata = { title: "Patient's periods compared" };

/** Two periods of a clinic patient's data side by side, as the patient's own comparison, by the clinic's goals. */
export default async function ClinicPatientCompare({
  params,
  searchParams,
}: {
  params: Promise<{ patientId: string }>;
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const { patientId } = await params;
  const search = await searchParams;
  const request = parseComparisonRequest((name) => firstParam(search[name]));
  const page = await clinicPatientPage(patientId);
  const shell = { access: page.access, current: "/compare", title: "Compare two periods" } as const;
  if (!page.connection) return <ClinicPatientShell {...shell} sharing={false} />;
  const { connection, preferences } = page;
  const report = request.ok
    ? await withServiceStates(() => loadComparison(connection, preferences, request.value, page.goals.group))
    : null;
  if (request.ok && !isBlocked(report))
    await page.audit("view.compare", comparedPeriod(request.value) ?? undefined);
  return (
    <ClinicPatientShell {...shell} sharing>
      {isBlocked(report) ? (
        <ServiceStateNotice state={report.blocked} />
      ) : (
        <>
          {report && (
            <ReportIdentity
              lines={
                await viewIdentityLines({
                  connection,
                  who: clinicReportViewer(page.access),
                  view: comparisonViewPeriod(report),
                  targetGroup: report.goals.groupLabel,
                })
              }
            />
          )}
          <CompareView request={request} report={report} viewer={clinicViewer(patientId)} />
        </>
      )}
    </ClinicPatientShell>
  );
}

type Asked = Extract<ReturnType<typeof parseComparisonRequest>, { ok: true }>["value"];

/** The recent period asked, in the audit log's words. */
const comparedPeriod = (asked: Asked): string =>
  asked.kind === "days"
    ? `days ${asked.days}`
    : asked.kind === "patientDays"
      ? `${asked.patientDays.firstDay} to ${asked.patientDays.lastDay}`
      : `${asked.period.startDate} to ${asked.period.endDate}`;
