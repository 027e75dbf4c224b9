import type { Metadata } from "next";
import { BlockedPage, PatientShell } from "@/components/patient/PatientShell";
import { ExportView } from "@/components/reports/ExportView";
import { ReportsNav } from "@/components/reports/ReportsNav";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import type { SearchParam } from "@/lib/records/query";
import { loadExportPage } from "@/lib/reports/export/export-page";
import { EXPORT_PATH, parseExportQuery } from "@/lib/reports/export/export-page-model";
import { accountName } from "@/lib/reports/identity/identity-load";

export const metadata: Metadata = { title: "Export" };

const TITLE = "Export your data";

/**
 * The export of EGVs, events and calibrations as one zip of CSV files with the methods note: a
 * period of 7–90 days up to the newest record, or the patient's own days.
 */
export default async function ExportPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const query = parseExportQuery(await searchParams);
  const page = await patientPage();
  if (isBlocked(page)) return <BlockedPage current={EXPORT_PATH} title={TITLE} state={page.blocked} />;
  const name = await accountName(page.userId);
  const model = await withServiceStates(() => loadExportPage(page.connection, query, { patientName: name }));
  if (isBlocked(model)) return <BlockedPage current={EXPORT_PATH} title={TITLE} state={model.blocked} />;
  return (
    <PatientShell current={EXPORT_PATH} title={TITLE}>
      <ReportsNav current={EXPORT_PATH} />
      <ExportView model={model} />
    </PatientShell>
  );
}
