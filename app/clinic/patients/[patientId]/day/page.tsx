import type { Metadata } from "next";
import { ClinicPatientShell, ServiceStateNotice } from "@/components/clinic/ClinicPatientShell";
import { DayBody, dayTitle } from "@/components/day/DayBody";
import { ReportIdentity } from "@/components/reports/ReportIdentity";
import { currentUserId } from "@/lib/auth";
import { noteBands } from "@/lib/clinic/domain/note-types";
import { notesFor } from "@/lib/clinic/domain/notes";
import { clinicPatientPage } from "@/lib/clinic/views/patient-page";
import { loadDay } from "@/lib/dashboard/day";
import { dayFetchWindow, parseDayParam } from "@/lib/dashboard/day-model";
import { isBlocked, withServiceStates } from "@/lib/dashboard/patient-page";
import { TARGET_PRESETS } from "@/lib/metrics/targets";
import type { SearchParam } from "@/lib/records/query";
import { clinicViewer } from "@/lib/records/viewer";
import { clinicReportViewer, viewIdentityLines } from "@/lib/reports/identity/identity-load";
import { dayViewPeriod } from "@/lib/reports/identity/view-periods";

export const metadata: Metadata = { title: "Patient's daily view" };

/** A clinic patient's day, as the patient's own daily view shows it, judged by the clinic's goals. */
export default async function ClinicPatientDay({
  params,
  searchParams,
}: {
  params: Promise<{ patientId: string }>;
  searchParams: Promise<{ date?: SearchParam }>;
}) {
  const { patientId } = await params;
  const request = parseDayParam((await searchParams).date);
  const page = await clinicPatientPage(patientId);
  const shell = { access: page.access, current: "/day" } as const;
  if (!page.connection) return <ClinicPatientShell {...shell} sharing={false} />;
  const { connection, preferences } = page;
  const viewer = clinicViewer(patientId);
  const shown =
    request.kind === "invalid"
      ? request
      : await withServiceStates(() =>
          loadDay(
            connection,
            preferences,
            request.kind === "day" ? request.day : null,
            TARGET_PRESETS[page.goals.group],
            viewer,
          ),
        );
  if (isBlocked(shown))
    return (
      <ClinicPatientShell {...shell} title="Daily view" sharing>
        <ServiceStateNotice state={shown.blocked} />
      </ClinicPatientShell>
    );
  if (shown.kind !== "invalid")
    await page.audit("view.day", shown.kind === "day" ? shown.model.day : shown.kind);
  const notes = await notesFor({
    kind: "clinician",
    userId: (await currentUserId()) ?? "",
    access: page.access,
  });
  return (
    <ClinicPatientShell {...shell} title={dayTitle(shown)} sharing>
      {shown.kind === "day" && (
        <ReportIdentity
          lines={
            await viewIdentityLines({
              connection,
              who: clinicReportViewer(page.access),
              view: dayViewPeriod(shown.model.day, dayFetchWindow(shown.model.day)),
              targetGroup: TARGET_PRESETS[page.goals.group].label,
            })
          }
        />
      )}
      <DayBody shown={shown} viewer={viewer} noteBands={noteBands(notes)} />
    </ClinicPatientShell>
  );
}
