import type { Metadata } from "next";
import { ClinicPatientShell, ServiceStateNotice } from "@/components/clinic/ClinicPatientShell";
import { CalibrationsView } from "@/components/records/CalibrationsView";
import { clinicPatientPage } from "@/lib/clinic/views/patient-page";
import { isBlocked, withServiceStates } from "@/lib/dashboard/patient-page";
import { loadCalibrations } from "@/lib/dashboard/records/calibrations";
import type { SearchParam } from "@/lib/records/query";
import { clinicViewer } from "@/lib/records/viewer";
import { parsePeriodChoice } from "@/lib/reports/period/period";

export const metadata: Metadata = { title: "Patient's calibrations" };

/** A clinic patient's fingerstick calibrations, as the patient's own calibrations page lists them. */
export default async function ClinicPatientCalibrations({
  params,
  searchParams,
}: {
  params: Promise<{ patientId: string }>;
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const { patientId } = await params;
  const days = parsePeriodChoice((await searchParams).days);
  const page = await clinicPatientPage(patientId);
  const shell = { access: page.access, current: "/calibrations", title: "Calibrations" } as const;
  if (!page.connection) return <ClinicPatientShell {...shell} sharing={false} />;
  const { connection } = page;
  const viewer = clinicViewer(patientId);
  const model = await withServiceStates(() => loadCalibrations(connection, days, page.preferences, viewer));
  if (!isBlocked(model)) await page.audit("view.calibrations", `days ${days}`);
  return (
    <ClinicPatientShell {...shell} sharing>
      {isBlocked(model) ? (
        <ServiceStateNotice state={model.blocked} />
      ) : (
        <CalibrationsView model={model} viewer={viewer} />
      )}
    </ClinicPatientShell>
  );
}
