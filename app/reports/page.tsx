import type { Metadata } from "next";
import { BlockedPage, PatientShell } from "@/components/patient/PatientShell";
import { AgpReport } from "@/components/reports/AgpReport";
import { ReportControls } from "@/components/reports/ReportControls";
import { ReportPeriodRefused } from "@/components/reports/ReportPeriodRefused";
import { ReportsNav } from "@/components/reports/ReportsNav";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import { firstParam, type SearchParam } from "@/lib/records/query";
import { loadAgpReport } from "@/lib/reports/agp/agp";
import { parseAgpQuery } from "@/lib/reports/agp/agp-query";
import { prewarmPdfBrowser } from "@/lib/reports/agp/pdf";
import { loadAgpIdentity } from "@/lib/reports/identity/identity-load";

export const metadata: Metadata = { title: "AGP report" };

const PATH = "/reports";
const TITLE = "Ambulatory Glucose Profile";

/**
 * The AGP report of the international consensus for a chosen period (default the last 14 days of
 * data): metrics, the percentile profile, daily profiles and the methods. Drawn entirely on the
 * server, so it prints, and renders as a PDF, without JavaScript.
 */
export default async function AgpReportPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const params = await searchParams;
  const query = parseAgpQuery((name) => firstParam(params[name]));

  const page = await patientPage();
  if (isBlocked(page)) return <BlockedPage current={PATH} title={TITLE} state={page.blocked} />;
  if (!query.ok) {
    return (
      <PatientShell current={PATH} title={TITLE}>
        <ReportsNav current={PATH} />
        <ReportPeriodRefused message={query.message} defaultHref={PATH} />
      </PatientShell>
    );
  }
  const loaded = await withServiceStates(async () => {
    const report = await loadAgpReport(
      page.connection,
      page.preferences,
      query.value.period,
      query.value.population ?? page.goals.group,
    );
    const who = { viewer: "patient", userId: page.userId } as const;
    return { report, identity: report && (await loadAgpIdentity(page.connection, report, who)) };
  });
  if (isBlocked(loaded)) return <BlockedPage current={PATH} title={TITLE} state={loaded.blocked} />;
  const { report, identity } = loaded;
  // A report on screen is often downloaded next: the PDF's browser starts meanwhile.
  if (report) prewarmPdfBrowser();

  return (
    <PatientShell current={PATH} title={TITLE}>
      <ReportsNav current={PATH} />
      <ReportControls
        path={PATH}
        query={query.value}
        shownDays={report?.period}
        goals={page.goals}
        viewer="patient"
      />
      {report === null ? (
        <p data-testid="agp-empty">
          No glucose readings exist in your CGM account yet. The report appears once your sensor&apos;s
          readings have been uploaded.
        </p>
      ) : (
        <AgpReport report={report} identity={identity ?? undefined} />
      )}
    </PatientShell>
  );
}
