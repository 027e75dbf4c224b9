import type { Metadata } from "next";
import { ExportView } from "@/components/reports/ExportView";
import { type ClinicViewProps, clinicPatientView } from "@/lib/dashboard/clinic-patient-view";
import { firstParam, type SearchParam } from "@/lib/records/query";
import { loadExportPage } from "@/lib/reports/export/export-page";
import { parseExportQuery } from "@/lib/reports/export/export-page-model";

export const metadata: Metadata = { title: "Export the patient's data" };

/**
 * A clinic patient's export, as the patient's own export page offers it; the download is the
 * clinic's export API (/api/clinic/patients/:id/export), which audits it as download.export.
 */
export default function ClinicPatientExport(props: ClinicViewProps) {
  return clinicPatientView(props, "/export", {
    title: "Export the patient's data",
    parse: parseExportQuery,
    load: ({ connection, query, viewer, page }) =>
      loadExportPage(connection, query, { viewer, patientName: page.access.patient.name }),
    audit: (_, { search }) => ({ action: "view.export", detail: auditedQuery(search) }),
    render: (model, { viewer }) => <ExportView model={model} viewer={viewer} />,
  });
}

/** The period asked, as the page's query writes it: the audit log says what the clinician looked at. */
const auditedQuery = (search: Record<string, SearchParam>) =>
  new URLSearchParams(
    ["days", "from", "to"].flatMap((k) => {
      const v = firstParam(search[k]);
      return v ? [[k, v]] : [];
    }),
  ).toString() || undefined;
