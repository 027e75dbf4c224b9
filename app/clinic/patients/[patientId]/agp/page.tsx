import type { Metadata } from "next";
import { ServiceStateNotice } from "@/components/clinic/ClinicPatientShell";
import { FhirDownload, readingsFit } from "@/components/clinic/FhirDownload";
import { AgpReport } from "@/components/reports/AgpReport";
import { ReportControls } from "@/components/reports/ReportControls";
import { ReportPeriodRefused } from "@/components/reports/ReportPeriodRefused";
import { isPdfRender } from "@/lib/clinic/security/pdf-render";
import { clinicPatientPath } from "@/lib/clinic/views/patient-page";
import { type ClinicViewProps, clinicPatientView } from "@/lib/dashboard/clinic-patient-view";
import { isBlocked, withServiceStates } from "@/lib/dashboard/patient-page";
import { firstParam } from "@/lib/records/query";
import { wordsFor } from "@/lib/records/viewer";
import { loadAgpReport } from "@/lib/reports/agp/agp";
import { agpQueryParams, parseAgpQuery } from "@/lib/reports/agp/agp-query";
import { prewarmPdfBrowser } from "@/lib/reports/agp/pdf";
import { clinicReportViewer, loadAgpIdentity } from "@/lib/reports/identity/identity-load";

export const metadata: Metadata = { title: "Patient's AGP report" };

/** A clinic patient's AGP report, as the patient's own report page draws it; prints and downloads alike. */
export default function ClinicPatientAgp(props: ClinicViewProps) {
  return clinicPatientView(props, "/agp", {
    // The one page a clinic day's render grant opens (lib/clinic/security/render-grant.ts).
    renderGrant: true,
    parse: (search) => parseAgpQuery((name) => firstParam(search[name])),
    // The report's controls stay above a service's refusal, so the page keeps its own service states.
    load: async ({ connection, page, query }) => {
      if (!query.ok) return null;
      const who = clinicReportViewer(page.access);
      const group = query.value.population ?? page.goals.group;
      const loaded = await withServiceStates(async () => {
        const report = await loadAgpReport(connection, page.preferences, query.value.period, group);
        return { report, identity: report && (await loadAgpIdentity(connection, report, who)) };
      });
      return { group, loaded };
    },
    // The server's own render for a PDF download is not a view: the download is logged already,
    // as download.agp_pdf. Only a marker the server signed says so (lib/clinic/security/pdf-render-marker.ts).
    audit: async (model, { patientId, query }) => {
      if (!query.ok || !model || isBlocked(model.loaded) || !model.loaded.report) return null;
      if (await isPdfRender(patientId)) return null;
      prewarmPdfBrowser();
      return {
        action: "view.agp",
        detail: new URLSearchParams(agpQueryParams({ ...query.value, population: model.group })).toString(),
      };
    },
    render: (model, { patientId, page, viewer, query }) => {
      const path = clinicPatientPath(patientId, "/agp");
      if (!query.ok) return <ReportPeriodRefused message={query.message} defaultHref={path} />;
      if (!model) return null; // load reads whenever the query is valid
      const { loaded } = model;
      const report = isBlocked(loaded) ? loaded : loaded.report;
      const identity = isBlocked(loaded) ? undefined : (loaded.identity ?? undefined);
      return (
        <>
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
              <AgpReport report={report} clock={wordsFor(viewer).clock} identity={identity} />
            </>
          )}
        </>
      );
    },
  });
}
