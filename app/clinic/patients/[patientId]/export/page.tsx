import type { Metadata } from "next";
import { ClinicPatientShell, ServiceStateNotice } from "@/components/clinic/ClinicPatientShell";
import { ExportView } from "@/components/reports/ExportView";
import { clinicPatientPage } from "@/lib/clinic/views/patient-page";
import { isBlocked, withServiceStates } from "@/lib/dashboard/patient-page";
import { firstParam, type SearchParam } from "@/lib/records/query";
import { clinicViewer } from "@/lib/records/viewer";
import { loadExportPage } from "@/lib/reports/export/export-page";
import { parseExportQuery } from "@/lib/reports/export/export-page-model";

export const metadata: Metadata = { title: "Export the patient's data" };

/**
 * A clinic patient's export, as the patient's own export page offers it; the download is the
 * clinic's export API (/api/clinic/patients/:id/export), which audits it as download.export.
 */
export default async function ClinicPatientExport({
  params,
  searchParams,
}: {
  params: Promise<{ patientId: string }>;
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const { patientId } = await params;
  const search = await searchParams;
  const query = parseExportQuery(search);
  const page = await clinicPatientPage(patientId);
  const shell = { access: page.access, current: "/export", title: "Export the patient's data" } as const;
  if (!page.connection) return <ClinicPatientShell {...shell} sharing={false} />;
  const { connection } = page;
  const viewer = clinicViewer(patientId);
  const model = await withServiceStates(() =>
    loadExportPage(connection, query, { viewer, patientName: page.access.patient.name }),
  );
  if (!isBlocked(model)) await page.audit("view.export", auditedQuery(search));
  return (
    <ClinicPatientShell {...shell} sharing>
      {isBlocked(model) ? (
        <ServiceStateNotice state={model.blocked} />
      ) : (
        <ExportView model={model} viewer={viewer} />
      )}
    </ClinicPatientShell>
  );
}

/** The period asked, as the page's query writes it: the audit log says what the clinician looked at. */
const auditedQuery = (search: Record<string, SearchParam>) =>
  new URLSearchParams(
    ["days", "from", "to"].flatMap((k) => {
      const v = firstParam(search[k]);
      return v ? [[k, v]] : [];
    }),
  ).toString() || undefined;
