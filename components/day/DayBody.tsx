import type { NoteBand } from "@/components/charts/note-bands";
import { Panel } from "@/components/patient/Panel";
import type { DayView as DayData, DayRequest } from "@/lib/dashboard/day-model";
import { dayInWords } from "@/lib/dashboard/day-model";
import { PATIENT, type Viewer } from "@/lib/records/viewer";
import { InvalidDayNotice, OutsideDayNotice } from "./DayNotices";
import { DayView } from "./DayView";

/** What the daily view shows: the day loaded, or `?date=` that is not a day. */
export type DayShown = DayData | Extract<DayRequest, { kind: "invalid" }>;

/** The page's title for what it shows: the day in words when there is one. */
export const dayTitle = (shown: DayShown): string =>
  shown.kind === "day" ? shown.model.title : shown.kind === "outside" ? dayInWords(shown.day) : "Daily view";

/** The daily view's body, as the patient's page and the clinic's page about the patient both show it. */
export function DayBody({
  shown,
  viewer = PATIENT,
  noteBands,
}: {
  shown: DayShown;
  viewer?: Viewer;
  noteBands?: readonly NoteBand[];
}) {
  switch (shown.kind) {
    case "invalid":
      return <InvalidDayNotice text={shown.text} problem={shown.problem} viewer={viewer} />;
    case "empty":
      return (
        <Panel title="No readings yet" id="empty">
          <p data-testid="empty-state">
            {viewer.kind === "clinic"
              ? "The glucose service holds no readings for this patient yet."
              : "Your CGM account is connected, but the glucose service holds no readings for it yet."}
          </p>
        </Panel>
      );
    case "outside":
      return (
        <OutsideDayNotice
          placement={shown.placement}
          firstDay={shown.bounds.firstDay}
          lastDay={shown.bounds.lastDay}
          viewer={viewer}
        />
      );
    case "day":
      return <DayView model={shown.model} viewer={viewer} noteBands={noteBands} />;
  }
}
