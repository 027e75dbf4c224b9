import { PATIENT, type Viewer, wordsFor } from "@/lib/records/viewer";
import { type PatientDays, patientDaysText } from "@/lib/reports/period/patient-days";
import { DisplayTime } from "./RecordTable";

/**
 * A record page's period: its receiver days (also as `data-period`), up to the newest record of
 * `what` it counts from, with a `note` after it when the page has more to say.
 */
export function RecordsPeriod({
  days,
  latest,
  what,
  window,
  note,
  viewer = PATIENT,
}: {
  days: PatientDays;
  /** The newest record's receiver time. */
  latest: string;
  /** "event", "calibration", "reading". */
  what: string;
  /** The period's systemTime bounds, "start_end", when the page carries them. */
  window?: string;
  note?: string;
  viewer?: Viewer;
}) {
  const { your, clock } = wordsFor(viewer);
  return (
    <p
      className="text-slate-700 dark:text-slate-300"
      data-period={`${days.firstDay}_${days.lastDay}`}
      data-window={window}
    >
      {`${patientDaysText(days)}, up to ${your} latest ${what}, `}
      <DisplayTime value={latest} />
      {`. Days and times are ${clock}.${note ? ` ${note}` : ""}`}
    </p>
  );
}
