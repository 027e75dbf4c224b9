import type { Metadata } from "next";
import { ClinicPatientShell, ServiceStateNotice } from "@/components/clinic/ClinicPatientShell";
import { ReportIdentity } from "@/components/reports/ReportIdentity";
import { StatisticsView } from "@/components/reports/StatisticsView";
import { clinicPatientPage } from "@/lib/clinic/views/patient-page";
import { isBlocked, withServiceStates } from "@/lib/dashboard/patient-page";
import { TARGET_PRESETS } from "@/lib/metrics/targets";
import { displayUnit } from "@/lib/preferences";
import { firstParam, type SearchParam } from "@/lib/records/query";
import { clinicViewer } from "@/lib/records/viewer";
import { clinicReportViewer, viewIdentityLines } from "@/lib/reports/identity/identity-load";
import { reportViewPeriod } from "@/lib/reports/identity/view-periods";
import { parsePeriodRequest } from "@/lib/reports/period/period";
import { loadStatisticsPage } from "@/lib/reports/statistics-by-window/load";
import type { StatisticsVersion } from "@/lib/reports/statistics-by-window/model";
import { statisticsWindowsOf } from "@/lib/reports/statistics-by-window/store";
import { configuredVersion } from "@/lib/service-client/client";

export const metadata: Metadata = { title: "Patient's statistics by time of day" };

/**
 * A clinic patient's statistics by time of day, with the windows the patient saved: read only
 * here, so a clinician's visit never changes the patient's settings.
 */
export default async function ClinicPatientStatistics({
  params,
  searchParams,
}: {
  params: Promise<{ patientId: string }>;
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const { patientId } = await params;
  const search = await searchParams;
  const request = parsePeriodRequest((name) => firstParam(search[name]));
  const version: StatisticsVersion = firstParam(search.version) === "v1" ? "v1" : "v2";
  const page = await clinicPatientPage(patientId);
  const shell = { access: page.access, current: "/statistics", title: "Statistics by time of day" } as const;
  const { patientUserId } = page.access.patient;
  if (!page.connection || !patientUserId) return <ClinicPatientShell {...shell} sharing={false} />;
  const { connection } = page;
  const { windows, saved } = await statisticsWindowsOf(patientUserId);
  const data = request.ok
    ? await withServiceStates(() => loadStatisticsPage(connection, windows, request.value, version))
    : null;
  if (request.ok && !isBlocked(data))
    await page.audit(
      "view.statistics",
      `${request.value.kind === "days" ? `days ${request.value.days}` : "dates"}, ${version}`,
    );
  return (
    <ClinicPatientShell {...shell} sharing>
      {isBlocked(data) ? (
        <ServiceStateNotice state={data.blocked} />
      ) : (
        <>
          {data && (
            <ReportIdentity
              lines={
                await viewIdentityLines({
                  connection,
                  who: clinicReportViewer(page.access),
                  view: reportViewPeriod(data.period),
                  targetGroup: TARGET_PRESETS[page.goals.group].label,
                })
              }
            />
          )}
          <StatisticsView
            request={request}
            version={version}
            byService={configuredVersion() === "v2"}
            windows={windows}
            saved={saved}
            data={data}
            unit={displayUnit(page.preferences, data?.dataUnit ?? page.preferences.unit ?? "mg/dL")}
            viewer={clinicViewer(patientId)}
          />
        </>
      )}
    </ClinicPatientShell>
  );
}
