import type { Metadata } from "next";
import { ClinicPatientShell, ServiceStateNotice } from "@/components/clinic/ClinicPatientShell";
import { AlertsUnavailable, AlertsView } from "@/components/records/AlertsView";
import { clinicPatientPage } from "@/lib/clinic/views/patient-page";
import { isBlocked, withServiceStates } from "@/lib/dashboard/patient-page";
import { loadAlerts } from "@/lib/dashboard/records/alerts";
import type { SearchParam } from "@/lib/records/query";
import { clinicViewer } from "@/lib/records/viewer";
import { parsePeriodChoice } from "@/lib/reports/period/period";
import { configuredVersion } from "@/lib/service-client/client";

export const metadata: Metadata = { title: "Patient's alerts" };

/** The alerts a clinic patient's device sounded (API v3 only), as the patient's own alerts page lists them. */
export default async function ClinicPatientAlerts({
  params,
  searchParams,
}: {
  params: Promise<{ patientId: string }>;
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const { patientId } = await params;
  const days = parsePeriodChoice((await searchParams).days);
  const page = await clinicPatientPage(patientId);
  const shell = { access: page.access, current: "/alerts", title: "Alerts" } as const;
  if (!page.connection) return <ClinicPatientShell {...shell} sharing={false} />;
  const viewer = clinicViewer(patientId);
  if (configuredVersion() !== "v3")
    return (
      <ClinicPatientShell {...shell} sharing>
        <AlertsUnavailable viewer={viewer} />
      </ClinicPatientShell>
    );
  const { connection } = page;
  const model = await withServiceStates(() => loadAlerts(connection, days, viewer));
  if (!isBlocked(model)) await page.audit("view.alerts", `days ${days}`);
  return (
    <ClinicPatientShell {...shell} sharing>
      {isBlocked(model) ? (
        <ServiceStateNotice state={model.blocked} />
      ) : (
        <AlertsView model={model} viewer={viewer} />
      )}
    </ClinicPatientShell>
  );
}
