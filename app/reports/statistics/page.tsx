import type { Metadata } from "next";
import { BlockedPage, PatientShell } from "@/components/patient/PatientShell";
import { ReportIdentity } from "@/components/reports/ReportIdentity";
import { ReportsNav } from "@/components/reports/ReportsNav";
import { StatisticsView } from "@/components/reports/StatisticsView";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import { TARGET_PRESETS } from "@/lib/metrics/targets";
import { displayUnit } from "@/lib/preferences";
import { firstParam, type SearchParam } from "@/lib/records/query";
import { viewIdentityLines } from "@/lib/reports/identity/identity-load";
import { reportViewPeriod } from "@/lib/reports/identity/view-periods";
import { parsePeriodRequest } from "@/lib/reports/period/period";
import { loadStatisticsPage } from "@/lib/reports/statistics-by-window/load";
import type { StatisticsVersion } from "@/lib/reports/statistics-by-window/model";
import { statisticsWindowsOf } from "@/lib/reports/statistics-by-window/store";
import { configuredVersion } from "@/lib/service-client/client";

export const metadata: Metadata = { title: "Statistics by time of day" };

const PATH = "/reports/statistics";
const TITLE = "Statistics by time of day";

/**
 * Statistics by time of day (components/reports/StatisticsView.tsx) of the signed-in patient's
 * data, with their windows, edited and checked in the browser and saved per user.
 */
export default async function StatisticsByTimeOfDayPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const params = await searchParams;
  const request = parsePeriodRequest((name) => firstParam(params[name]));
  const version: StatisticsVersion = firstParam(params.version) === "v1" ? "v1" : "v2";
  const page = await patientPage();
  if (isBlocked(page)) return <BlockedPage current={PATH} title={TITLE} state={page.blocked} />;
  const { windows, saved } = await statisticsWindowsOf(page.userId);
  const data = request.ok
    ? await withServiceStates(() => loadStatisticsPage(page.connection, windows, request.value, version))
    : null;
  if (isBlocked(data)) return <BlockedPage current={PATH} title={TITLE} state={data.blocked} />;
  return (
    <PatientShell current={PATH} title={TITLE}>
      <ReportsNav current={PATH} />
      {data && (
        <ReportIdentity
          lines={
            await viewIdentityLines({
              connection: page.connection,
              who: { viewer: "patient", userId: page.userId },
              view: reportViewPeriod(data.period),
              targetGroup: TARGET_PRESETS[page.goals.group].label,
            })
          }
        />
      )}
      <StatisticsView
        request={request}
        version={version}
        // API v3 has no statistics: the page then computes them itself and says so.
        byService={configuredVersion() === "v2"}
        windows={windows}
        saved={saved}
        data={data}
        unit={displayUnit(page.preferences, data?.dataUnit ?? page.preferences.unit ?? "mg/dL")}
      />
    </PatientShell>
  );
}
