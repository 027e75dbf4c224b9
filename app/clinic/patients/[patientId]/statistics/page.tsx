import type { Metadata } from "next";
import { ReportIdentity } from "@/components/reports/ReportIdentity";
import { StatisticsView } from "@/components/reports/StatisticsView";
import { type ClinicViewProps, clinicPatientView } from "@/lib/dashboard/clinic-patient-view";
import { TARGET_PRESETS } from "@/lib/metrics/targets";
import { displayUnit } from "@/lib/preferences";
import { firstParam } from "@/lib/records/query";
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
export default function ClinicPatientStatistics(props: ClinicViewProps) {
  return clinicPatientView(props, "/statistics", {
    title: "Statistics by time of day",
    parse: (search) => ({
      request: parsePeriodRequest((name) => firstParam(search[name])),
      version: (firstParam(search.version) === "v1" ? "v1" : "v2") as StatisticsVersion,
    }),
    // The windows are the patient's account's: none to read once the account is gone.
    shares: (page) => page.access.patient.patientUserId !== null,
    load: async ({ connection, page, query: { request, version } }) => {
      const { windows, saved } = await statisticsWindowsOf(page.access.patient.patientUserId ?? "");
      const data = request.ok ? await loadStatisticsPage(connection, windows, request.value, version) : null;
      return { windows, saved, data };
    },
    audit: (_, { query: { request, version } }) =>
      request.ok
        ? {
            action: "view.statistics",
            detail: `${request.value.kind === "days" ? `days ${request.value.days}` : "dates"}, ${version}`,
          }
        : null,
    render: async ({ windows, saved, data }, { connection, page, viewer, query: { request, version } }) => (
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
          viewer={viewer}
        />
      </>
    ),
  });
}
