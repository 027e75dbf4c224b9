import type { Metadata } from "next";
import { InvalidDayNotice, OutsideDayNotice } from "@/components/day/DayNotices";
import { DayView } from "@/components/day/DayView";
import { BlockedNotice } from "@/components/patient/BlockedNotice";
import { Panel } from "@/components/patient/Panel";
import { PatientShell } from "@/components/patient/PatientShell";
import { noteBands } from "@/lib/clinic/domain/note-types";
import { patientOwnNotes } from "@/lib/clinic/views/patient-own-notes";
import { loadDay } from "@/lib/dashboard/day";
import { DAY_PATH, dayHref, dayInWords, parseDayParam } from "@/lib/dashboard/day-model";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import { TARGET_PRESETS } from "@/lib/metrics/targets";
import type { SearchParam } from "@/lib/records/query";

type Props = { searchParams: Promise<{ date?: SearchParam }> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const request = parseDayParam((await searchParams).date);
  return { title: request.kind === "day" ? `${dayInWords(request.day)} · Daily view` : "Daily view" };
}

/** One day on the patient's own clock: `?date=YYYY-MM-DD`, or the day of the newest reading. */
export default async function DayPage({ searchParams }: Props) {
  const request = parseDayParam((await searchParams).date);
  const page = await patientPage();
  if (request.kind === "invalid")
    return (
      <PatientShell current={DAY_PATH} title="Daily view">
        <InvalidDayNotice text={request.text} problem={request.problem} />
      </PatientShell>
    );
  const day = request.kind === "day" ? request.day : null;
  const loaded = isBlocked(page)
    ? page
    : await withServiceStates(() =>
        loadDay(page.connection, page.preferences, day, TARGET_PRESETS[page.goals.group]),
      );

  if (isBlocked(loaded))
    return (
      <PatientShell current={DAY_PATH} title="Daily view">
        <BlockedNotice state={loaded.blocked} returnTo={dayHref(day)} />
      </PatientShell>
    );
  if (loaded.kind === "empty")
    return (
      <PatientShell current={DAY_PATH} title="Daily view">
        <Panel title="No readings yet" id="empty">
          <p data-testid="empty-state">
            Your CGM account is connected, but the glucose service holds no readings for it yet.
          </p>
        </Panel>
      </PatientShell>
    );
  if (loaded.kind === "outside")
    return (
      <PatientShell current={DAY_PATH} title={dayInWords(loaded.day)}>
        <OutsideDayNotice
          placement={loaded.placement}
          firstDay={loaded.bounds.firstDay}
          lastDay={loaded.bounds.lastDay}
        />
      </PatientShell>
    );
  const own = isBlocked(page) ? null : await patientOwnNotes(page.userId);
  return (
    <PatientShell current={DAY_PATH} title={loaded.model.title}>
      <DayView model={loaded.model} noteBands={own ? noteBands(own.notes) : undefined} />
    </PatientShell>
  );
}
