import type { Metadata } from "next";
import { ClinicPatientShell, ServiceStateNotice } from "@/components/clinic/ClinicPatientShell";
import { FhirDownload, readingsFit } from "@/components/clinic/FhirDownload";
import { AgpReport } from "@/components/reports/AgpReport";
import { ReportControls } from "@/components/reports/ReportControls";
import { ReportPeriodRefused } from "@/components/reports/ReportPeriodRefused";
import { isPdfRender } from "@/lib/clinic/security/pdf-render";
import { clinicPatientPage, clinicPatientPath } from "@/lib/clinic/views/patient-page";
import { isBlocked, withServiceStates } from "@/lib/dashboard/patient-page";
import { firstParam, type SearchParam } from "@/lib/records/query";
import { clinicViewer, wordsFor } from "@/lib/records/viewer";
import { loadAgpReport } from "@/lib/reports/agp/agp";
import { agpQueryParams, parseAgpQuery } from "@/lib/reports/agp/agp-query";
import { prewarmPdfBrowser } from "@/lib/reports/agp/pdf";
import { clinicReportViewer, loadAgpIdentity } from "@/lib/reports/identity/identity-load";

export const metadata: Metadata = { title: "Patient's AGP report" };

/** A clinic patient's AGP report, as the patient's own report page draws it; prints and downloads alike. */
export default async function ClinicPatientAgp({
  params,
  searchParams,
}: {
  params: Promise<{ patientId: string }>;
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const { patientId } = await params;
  const search = await searchParams;
  // The one page a clinic day's render grant opens (lib/clinic/security/render-grant.ts).
  const page = await clinicPatientPage(patientId, { renderGrant: true });
  if (!page.connection) return <ClinicPatientShell access={page.access} current="/agp" sharing={false} />;
  const path = clinicPatientPath(patientId, "/agp");
  const query = parseAgpQuery((name) => firstParam(search[name]));
  if (!query.ok) {
    return (
      <ClinicPatientShell access={page.access} current="/agp" sharing>
        <ReportPeriodRefused message={query.message} defaultHref={path} />
      </ClinicPatientShell>
    );
  }
  const { connection, preferences } = page;
  const group = query.value.population ?? page.goals.group;
  const who = clinicReportViewer(page.access);
  const loaded = await withServiceStates(async () => {
    const report = await loadAgpReport(connection, preferences, query.value.period, group);
    return { report, identity: report && (await loadAgpIdentity(connection, report, who)) };
  });
  const report = isBlocked(loaded) ? loaded : loaded.report;
  const identity = isBlocked(loaded) ? undefined : (loaded.identity ?? undefined);
  // The server's own render for a PDF download is not a view: the download is logged already,
  // as download.agp_pdf. Only a marker the server signed says so (lib/clinic/security/pdf-render-marker.ts).
  if (report && !isBlocked(report) && !(await isPdfRender(patientId))) {
    prewarmPdfBrowser();
    const asked = agpQueryParams({ ...query.value, population: group });
    await page.audit("view.agp", new URLSearchParams(asked).toString());
  }
  return (
    <ClinicPatientShell access={page.access} current="/agp" sharing>
      <ReportControls
        path={path}
        query={query.value}
        pdfPath={`/api/clinic/patients/${encodeURIComponent(patientId)}/agp-pdf`}
        shownDays={report && !isBlocked(report) ? report.period : null}
        goals={page.goals}
        viewer="clinic"
      />
      {isBlocked(report) ? (
        <ServiceStateNotice state={report.blocked} />
      ) : report === null ? (
        <p data-testid="agp-empty">The glucose service holds no readings for this patient yet.</p>
      ) : (
        <>
          <FhirDownload
            patientId={patientId}
            query={{ startDate: report.period.startDate, endDate: report.period.endDate }}
            label="Download FHIR Bundle (summary and this PDF)"
            readings={readingsFit(report.period.startMs, report.period.endMs)}
          />
          <AgpReport report={report} clock={wordsFor(clinicViewer(patientId)).clock} identity={identity} />
        </>
      )}
    </ClinicPatientShell>
  );
}
