import type { Metadata } from "next";
import { ClinicPatientShell, ServiceStateNotice } from "@/components/clinic/ClinicPatientShell";
import { FhirDownload } from "@/components/clinic/FhirDownload";
import { TargetGroupForm } from "@/components/clinic/TargetGroupForm";
import { OverviewView } from "@/components/dashboard/OverviewView";
import { Panel } from "@/components/patient/Panel";
import { QueryProvider } from "@/components/providers/QueryProvider";
import { clinicPatientPage, clinicPatientPath } from "@/lib/clinic/views/patient-page";
import { loadOverview } from "@/lib/dashboard/overview";
import { parseTraceRange, sentOverview } from "@/lib/dashboard/overview-model";
import { isBlocked, withServiceStates } from "@/lib/dashboard/patient-page";

export const metadata: Metadata = { title: "Patient" };

/**
 * A clinician's view of a clinic patient's dashboard: the same overview the patient sees, read
 * through the connection the patient shared, as of the moment the page was opened.
 */
export default async function ClinicPatientDashboard({
  params,
  searchParams,
}: {
  params: Promise<{ patientId: string }>;
  searchParams: Promise<{ range?: string; goals?: string }>;
}) {
  const { patientId } = await params;
  const search = await searchParams;
  const range = parseTraceRange(search.range);
  const page = await clinicPatientPage(patientId);
  const settings = (
    <TargetGroupForm
      patientId={page.access.patient.id}
      patientName={page.access.patient.name}
      goals={page.goals}
      saved={search.goals === "saved"}
    />
  );
  if (!page.connection)
    return <ClinicPatientShell access={page.access} current="" sharing={false} settings={settings} />;
  const { connection, preferences } = page;
  const loaded = await withServiceStates(() =>
    loadOverview(connection, preferences, range, page.goals.group),
  );
  if (!isBlocked(loaded)) await page.audit("view.dashboard", `range ${range}`);
  return (
    <ClinicPatientShell access={page.access} current="" sharing settings={settings}>
      {isBlocked(loaded) ? (
        <ServiceStateNotice state={loaded.blocked} />
      ) : loaded === null ? (
        <Panel title="No readings yet" id="empty">
          <p data-testid="empty-state">The glucose service holds no readings for this patient yet.</p>
        </Panel>
      ) : (
        <QueryProvider>
          <FhirDownload
            patientId={patientId}
            query={{ days: "14" }}
            label="Download FHIR Bundle (last 14 days: summary and AGP PDF)"
            readings
          />
          <OverviewView
            overview={sentOverview(loaded)}
            range={range}
            unitChoice={preferences.unit}
            clinician={{ basePath: clinicPatientPath(patientId) }}
          />
        </QueryProvider>
      )}
    </ClinicPatientShell>
  );
}
