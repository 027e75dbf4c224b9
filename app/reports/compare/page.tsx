import type { Metadata } from "next";
import { BlockedPage, PatientShell } from "@/components/patient/PatientShell";
import { CompareView } from "@/components/reports/CompareView";
import { ReportIdentity } from "@/components/reports/ReportIdentity";
import { ReportsNav } from "@/components/reports/ReportsNav";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import { firstParam, type SearchParam } from "@/lib/records/query";
import { loadComparison } from "@/lib/reports/comparison/comparison-load";
import { parseComparisonRequest } from "@/lib/reports/comparison/comparison-view";
import { viewIdentityLines } from "@/lib/reports/identity/identity-load";
import { comparisonViewPeriod } from "@/lib/reports/identity/view-periods";

export const metadata: Metadata = { title: "Compare periods" };

const PATH = "/reports/compare";
const TITLE = "Compare two periods";

/** Two periods side by side (components/reports/CompareView.tsx), of the signed-in patient's data. */
export default async function ComparePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const params = await searchParams;
  const request = parseComparisonRequest((name) => firstParam(params[name]));
  const page = await patientPage();
  if (isBlocked(page)) return <BlockedPage current={PATH} title={TITLE} state={page.blocked} />;
  const report = request.ok
    ? await withServiceStates(() =>
        loadComparison(page.connection, page.preferences, request.value, page.goals.group),
      )
    : null;
  if (isBlocked(report)) return <BlockedPage current={PATH} title={TITLE} state={report.blocked} />;
  return (
    <PatientShell current={PATH} title={TITLE}>
      <ReportsNav current={PATH} />
      {report && (
        <ReportIdentity
          lines={
            await viewIdentityLines({
              connection: page.connection,
              who: { viewer: "patient", userId: page.userId },
              view: comparisonViewPeriod(report),
              targetGroup: report.goals.groupLabel,
            })
          }
        />
      )}
      <CompareView request={request} report={report} />
    </PatientShell>
  );
}
