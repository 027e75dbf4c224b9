import type { Metadata } from "next";
import { OverviewView } from "@/components/dashboard/OverviewView";
import { NotesPanel } from "@/components/notes/NotesPanel";
import { BlockedNotice } from "@/components/patient/BlockedNotice";
import { Panel } from "@/components/patient/Panel";
import { PatientShell } from "@/components/patient/PatientShell";
import { QueryProvider } from "@/components/providers/QueryProvider";
import { ReportIdentity } from "@/components/reports/ReportIdentity";
import { noteBands } from "@/lib/clinic/domain/note-types";
import { patientOwnNotes } from "@/lib/clinic/views/patient-own-notes";
import { loadOverview } from "@/lib/dashboard/overview";
import { overviewPath, parseTraceRange, sentOverview } from "@/lib/dashboard/overview-model";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import { TARGET_PRESETS } from "@/lib/metrics/targets";
import { viewIdentityLines } from "@/lib/reports/identity/identity-load";
import { overviewViewPeriod } from "@/lib/reports/identity/view-periods";
import { configuredVersion } from "@/lib/service-client/client";

export const metadata: Metadata = { title: "Dashboard" };

export default async function DashboardPage({
  searchParams,
}: {
  searchParams: Promise<{ range?: string; note?: string }>;
}) {
  const search = await searchParams;
  const range = parseTraceRange(search.range);
  const page = await patientPage();
  const loaded = isBlocked(page)
    ? page
    : await withServiceStates(() => loadOverview(page.connection, page.preferences, range, page.goals.group));
  const own = isBlocked(page) ? null : await patientOwnNotes(page.userId);
  const shown = isBlocked(loaded) ? null : loaded;
  return (
    <PatientShell current="/dashboard" title="Your glucose">
      {isBlocked(loaded) ? (
        <BlockedNotice state={loaded.blocked} returnTo={overviewPath(range)} />
      ) : loaded === null ? (
        <Panel title="No readings yet" id="empty">
          <p data-testid="empty-state">
            Your CGM account is connected, but the glucose service holds no readings for it yet. Readings
            appear here once your sensor is started and your phone or receiver has uploaded its first values,
            which the service releases after a delay.
          </p>
        </Panel>
      ) : (
        <QueryProvider>
          {!isBlocked(page) && (
            <ReportIdentity
              lines={
                await viewIdentityLines({
                  connection: page.connection,
                  who: { viewer: "patient", userId: page.userId },
                  view: overviewViewPeriod(loaded),
                  targetGroup: TARGET_PRESETS[loaded.targetGroup].label,
                })
              }
            />
          )}
          <OverviewView
            overview={sentOverview(loaded)}
            range={range}
            unitChoice={isBlocked(page) ? null : page.preferences.unit}
            goals={isBlocked(page) ? undefined : page.goals}
            apiVersion={configuredVersion()}
            noteBands={own ? noteBands(own.notes) : undefined}
          />
        </QueryProvider>
      )}
      {/* Notes also without readings: a clinic's shared note or the patient's own ("new sensor") matters then too. */}
      {own && !isBlocked(loaded) && (
        <NotesPanel
          notes={own.notes}
          audience="patient"
          action="/api/notes"
          clockName="your receiver's clock"
          clockOffsetMinutes={
            shown ? (shown.clockChanges.at(-1)?.toMinutes ?? shown.trace.initialOffsetMinutes) : null
          }
          returnTo={overviewPath(range)}
          status={search.note}
          seenBy={own.seenBy}
        />
      )}
      {!(isBlocked(loaded) && (loaded.blocked === "not_connected" || loaded.blocked === "clinician")) && (
        <form method="post" action="/api/connection/disconnect" className="pt-2">
          <button type="submit" className="text-sm text-slate-700 underline dark:text-slate-300">
            Disconnect your CGM account
          </button>
        </form>
      )}
    </PatientShell>
  );
}
