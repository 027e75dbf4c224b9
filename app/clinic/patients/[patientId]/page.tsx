import type { Metadata } from "next";
import { ClinicPatientShell, ServiceStateNotice } from "@/components/clinic/ClinicPatientShell";
import { FhirDownload } from "@/components/clinic/FhirDownload";
import { PatientTagsForm, ReviewPanel } from "@/components/clinic/ReviewAndTags";
import { TargetGroupForm } from "@/components/clinic/TargetGroupForm";
import { OverviewView } from "@/components/dashboard/OverviewView";
import { NotesPanel } from "@/components/notes/NotesPanel";
import { Panel } from "@/components/patient/Panel";
import { QueryProvider } from "@/components/providers/QueryProvider";
import { ReportIdentity } from "@/components/reports/ReportIdentity";
import { currentUserId } from "@/lib/auth";
import { noteBands } from "@/lib/clinic/domain/note-types";
import { clinicPatientNotes, reviewPeriod } from "@/lib/clinic/views/patient-notes";
import { clinicPatientPage, clinicPatientPath } from "@/lib/clinic/views/patient-page";
import { loadOverview } from "@/lib/dashboard/overview";
import { parseTraceRange, sentOverview } from "@/lib/dashboard/overview-model";
import { isBlocked, withServiceStates } from "@/lib/dashboard/patient-page";
import { TARGET_PRESETS } from "@/lib/metrics/targets";
import { clinicViewer } from "@/lib/records/viewer";
import { clinicReportViewer, viewIdentityLines } from "@/lib/reports/identity/identity-load";
import { overviewViewPeriod } from "@/lib/reports/identity/view-periods";

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
  searchParams: Promise<{ range?: string; goals?: string; note?: string; reviewed?: string; tags?: string }>;
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
  const kept = await clinicPatientNotes(page.access, (await currentUserId()) ?? "");
  const after = (latestDisplayTime: string | null, clockOffsetMinutes: number | null) => (
    <>
      <NotesPanel
        notes={kept.notes}
        audience="clinician"
        action={`/api/clinic/patients/${encodeURIComponent(patientId)}/notes`}
        clockName="the patient's receiver clock"
        clockOffsetMinutes={clockOffsetMinutes}
        status={search.note}
        seenBy="Read by this clinic's clinicians; only the author changes a note. A note marked shared is shown to the patient. The patient's own notes appear here while they share their data with the clinic."
      />
      <ReviewPanel
        patientId={patientId}
        last={kept.lastReview}
        period={reviewPeriod(latestDisplayTime)}
        saved={search.reviewed === "1"}
      />
      <PatientTagsForm
        patientId={patientId}
        clinicId={page.access.clinicId}
        tags={kept.tags}
        checked={kept.patientTags}
        saved={search.tags === "saved"}
      />
    </>
  );
  if (!page.connection)
    return (
      <ClinicPatientShell
        access={page.access}
        current=""
        sharing={false}
        settings={settings}
        after={after(null, null)}
      />
    );
  const { connection, preferences } = page;
  const loaded = await withServiceStates(() =>
    loadOverview(connection, preferences, range, page.goals.group, clinicViewer(patientId)),
  );
  if (!isBlocked(loaded)) await page.audit("view.dashboard", `range ${range}`);
  const overview = isBlocked(loaded) ? null : loaded;
  const offset = overview
    ? (overview.clockChanges.at(-1)?.toMinutes ?? overview.trace.initialOffsetMinutes)
    : null;
  return (
    <ClinicPatientShell
      access={page.access}
      current=""
      sharing
      settings={settings}
      after={after(overview?.latest?.displayTime ?? null, offset)}
    >
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
          <ReportIdentity
            lines={
              await viewIdentityLines({
                connection,
                who: clinicReportViewer(page.access),
                view: overviewViewPeriod(loaded),
                targetGroup: TARGET_PRESETS[loaded.targetGroup].label,
              })
            }
          />
          <OverviewView
            overview={sentOverview(loaded)}
            range={range}
            unitChoice={preferences.unit}
            clinician={{ basePath: clinicPatientPath(patientId), patientId }}
            noteBands={noteBands(kept.notes)}
          />
        </QueryProvider>
      )}
    </ClinicPatientShell>
  );
}
