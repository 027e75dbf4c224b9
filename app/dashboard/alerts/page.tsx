import type { Metadata } from "next";
import { BlockedPage, PatientShell } from "@/components/patient/PatientShell";
import { AlertsUnavailable, AlertsView } from "@/components/records/AlertsView";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import { loadAlerts } from "@/lib/dashboard/records/alerts";
import { ALERTS_PATH } from "@/lib/dashboard/records/alerts-model";
import type { SearchParam } from "@/lib/records/query";
import { parsePeriodChoice } from "@/lib/reports/period/period";
import { configuredVersion } from "@/lib/service-client/client";

export const metadata: Metadata = { title: "Alerts" };

const TITLE = "Alerts";

/**
 * The alerts that sounded on the patient's device (API v3 only, service-v3-notes §3.5) over the
 * last 7–90 days on the receiver's clock, ending on the day of their latest reading. Each
 * sounding: which alert, when, how long until it was acknowledged or its condition cleared.
 */
export default async function AlertsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const days = parsePeriodChoice((await searchParams).days);
  if (configuredVersion() !== "v3") {
    return (
      <PatientShell current={ALERTS_PATH} title={TITLE}>
        <AlertsUnavailable />
      </PatientShell>
    );
  }
  const page = await patientPage();
  if (isBlocked(page)) return <BlockedPage current={ALERTS_PATH} title={TITLE} state={page.blocked} />;
  const model = await withServiceStates(() => loadAlerts(page.connection, days));
  if (isBlocked(model)) return <BlockedPage current={ALERTS_PATH} title={TITLE} state={model.blocked} />;
  return (
    <PatientShell current={ALERTS_PATH} title={TITLE}>
      <AlertsView model={model} />
    </PatientShell>
  );
}
