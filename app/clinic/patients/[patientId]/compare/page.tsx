import type { Metadata } from "next";
import { CompareView } from "@/components/reports/CompareView";
import { ReportIdentity } from "@/components/reports/ReportIdentity";
import { type ClinicViewProps, clinicPatientView } from "@/lib/dashboard/clinic-patient-view";
import { firstParam } from "@/lib/records/query";
import { loadComparison } from "@/lib/reports/comparison/comparison-load";
import { parseComparisonRequest } from "@/lib/reports/comparison/comparison-view";
import { clinicReportViewer, viewIdentityLines } from "@/lib/reports/identity/identity-load";
import { comparisonViewPeriod } from "@/lib/reports/identity/view-periods";

export const metadata: Metadata = { title: "Patient's periods compared" };

/** Two periods of a clinic patient's data side by side, as the patient's own comparison, by the clinic's goals. */
export default function ClinicPatientCompare(props: ClinicViewProps) {
  return clinicPatientView(props, "/compare", {
    title: "Compare two periods",
    parse: (search) => parseComparisonRequest((name) => firstParam(search[name])),
    load: async ({ connection, page, query: request }) =>
      request.ok ? await loadComparison(connection, page.preferences, request.value, page.goals.group) : null,
    audit: (_, { query: request }) =>
      request.ok ? { action: "view.compare", detail: comparedPeriod(request.value) ?? undefined } : null,
    render: async (report, { connection, page, query: request, viewer }) => (
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
        <CompareView request={request} report={report} viewer={viewer} />
      </>
    ),
  });
}

type Asked = Extract<ReturnType<typeof parseComparisonRequest>, { ok: true }>["value"];

/** The recent period asked, in the audit log's words. */
const comparedPeriod = (asked: Asked): string =>
  asked.kind === "days"
    ? `days ${asked.days}`
    : asked.kind === "patientDays"
      ? `${asked.patientDays.firstDay} to ${asked.patientDays.lastDay}`
      : `${asked.period.startDate} to ${asked.period.endDate}`;
