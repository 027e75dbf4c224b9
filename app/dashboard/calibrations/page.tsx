import type { Metadata } from "next";
import { BlockedPage, PatientShell } from "@/components/patient/PatientShell";
import { CalibrationsView } from "@/components/records/CalibrationsView";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import { loadCalibrations } from "@/lib/dashboard/records/calibrations";
import { CALIBRATIONS_PATH } from "@/lib/dashboard/records/calibrations-model";
import type { SearchParam } from "@/lib/records/query";
import { parsePeriodChoice } from "@/lib/reports/period/period";

export const metadata: Metadata = { title: "Calibrations" };

const TITLE = "Calibrations";

/**
 * The patient's fingerstick calibrations (spec 2.2, v2) over the last 7–90 days on the receiver's
 * clock, ending on the day of their latest calibration, in their display unit.
 */
export default async function CalibrationsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const days = parsePeriodChoice((await searchParams).days);
  const page = await patientPage();
  if (isBlocked(page)) return <BlockedPage current={CALIBRATIONS_PATH} title={TITLE} state={page.blocked} />;
  const model = await withServiceStates(() => loadCalibrations(page.connection, days, page.preferences));
  if (isBlocked(model))
    return <BlockedPage current={CALIBRATIONS_PATH} title={TITLE} state={model.blocked} />;
  return (
    <PatientShell current={CALIBRATIONS_PATH} title={TITLE}>
      <CalibrationsView model={model} />
    </PatientShell>
  );
}
