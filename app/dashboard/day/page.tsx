import type { Metadata } from "next";
import { DayBody, dayTitle } from "@/components/day/DayBody";
import { BlockedNotice } from "@/components/patient/BlockedNotice";
import { PatientShell } from "@/components/patient/PatientShell";
import { ReportIdentity } from "@/components/reports/ReportIdentity";
import { noteBands } from "@/lib/clinic/domain/note-types";
import { patientOwnNotes } from "@/lib/clinic/views/patient-own-notes";
import { loadDay } from "@/lib/dashboard/day";
import { DAY_PATH, dayFetchWindow, dayHref, dayInWords, parseDayParam } from "@/lib/dashboard/day-model";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import { TARGET_PRESETS } from "@/lib/metrics/targets";
import type { SearchParam } from "@/lib/records/query";
import { viewIdentityLines } from "@/lib/reports/identity/identity-load";
import { dayViewPeriod } from "@/lib/reports/identity/view-periods";

type Props = { searchParams: Promise<{ date?: SearchParam }> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const request = parseDayParam((await searchParams).date);
  return { title: request.kind === "day" ? `${dayInWords(request.day)} · Daily view` : "Daily view" };
}

/** One day on the patient's own clock: `?date=YYYY-MM-DD`, or the day of the newest reading. */
export default async function DayPage({ searchParams }: Props) {
  const request = parseDayParam((await searchParams).date);
  const page = await patientPage();
  const day = request.kind === "day" ? request.day : null;
  const shown =
    request.kind === "invalid"
      ? request
      : isBlocked(page)
        ? page
        : await withServiceStates(() =>
            loadDay(page.connection, page.preferences, day, TARGET_PRESETS[page.goals.group]),
          );
  if (isBlocked(shown))
    return (
      <PatientShell current={DAY_PATH} title="Daily view">
        <BlockedNotice state={shown.blocked} returnTo={dayHref(day)} />
      </PatientShell>
    );
  const own = isBlocked(page) ? null : await patientOwnNotes(page.userId);
  return (
    <PatientShell current={DAY_PATH} title={dayTitle(shown)}>
      {shown.kind === "day" && !isBlocked(page) && (
        <ReportIdentity
          lines={
            await viewIdentityLines({
              connection: page.connection,
              who: { viewer: "patient", userId: page.userId },
              view: dayViewPeriod(shown.model.day, dayFetchWindow(shown.model.day)),
              targetGroup: TARGET_PRESETS[page.goals.group].label,
            })
          }
        />
      )}
      <DayBody shown={shown} noteBands={own ? noteBands(own.notes) : undefined} />
    </PatientShell>
  );
}
