import type { Metadata } from "next";
import { AlertsUnavailable, AlertsView } from "@/components/records/AlertsView";
import { type ClinicViewProps, clinicPatientView } from "@/lib/dashboard/clinic-patient-view";
import { loadAlerts } from "@/lib/dashboard/records/alerts";
import { parsePeriodChoice } from "@/lib/reports/period/period";
import { configuredVersion } from "@/lib/service-client/client";

export const metadata: Metadata = { title: "Patient's alerts" };

/** The alerts a clinic patient's device sounded (API v3 only), as the patient's own alerts page lists them. */
export default function ClinicPatientAlerts(props: ClinicViewProps) {
  return clinicPatientView(props, "/alerts", {
    title: "Alerts",
    parse: (search) => parsePeriodChoice(search.days),
    // Only v3 keeps alerts: elsewhere nothing is read, and nothing is looked at to audit.
    load: async ({ connection, query: days, viewer }) =>
      configuredVersion() === "v3" ? await loadAlerts(connection, days, viewer) : null,
    audit: (model, { query: days }) => (model ? { action: "view.alerts", detail: `days ${days}` } : null),
    render: (model, { viewer }) =>
      model ? <AlertsView model={model} viewer={viewer} /> : <AlertsUnavailable viewer={viewer} />,
  });
}
