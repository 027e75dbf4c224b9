import Link from "next/link";
import { Panel } from "@/components/patient/Panel";
import { dayInWords } from "@/lib/dashboard/day-model";
import { PATIENT, type Viewer, viewPath, wordsFor } from "@/lib/records/viewer";
import { DayForm } from "./DayNav";

const LINK = "font-medium text-blue-800 underline dark:text-blue-300";

/** `?date=` that is not a day: say what is wrong and offer the way on, rather than an error page. */
export function InvalidDayNotice({
  text,
  problem,
  viewer = PATIENT,
}: {
  text: string;
  problem: string;
  viewer?: Viewer;
}) {
  return (
    <Panel title="That is not a day we can show" id="day-invalid">
      <p data-testid="day-invalid" className="break-words">
        &ldquo;{text}&rdquo; is not a date: {problem}.
      </p>
      <DayForm viewer={viewer} />
      <p>
        <Link href={viewPath(viewer, "/day")} className={LINK}>
          {`Show ${wordsFor(viewer).your} latest day`}
        </Link>
      </p>
    </Panel>
  );
}

/** A day before the first reading or after the newest one. */
export function OutsideDayNotice({
  placement,
  firstDay,
  lastDay,
  viewer = PATIENT,
}: {
  placement: "before" | "after";
  firstDay: string;
  lastDay: string;
  viewer?: Viewer;
}) {
  const { your, Your } = wordsFor(viewer);
  const path = viewPath(viewer, "/day");
  return (
    <Panel title="No data for this day" id="day-outside">
      <p data-testid="day-outside">
        {placement === "before"
          ? `This day is before ${your} first reading.`
          : `This day is after ${your} newest reading; readings reach the glucose service with a delay.`}{" "}
        {`${Your} readings run from ${dayInWords(firstDay)} to ${dayInWords(lastDay)}.`}
      </p>
      <ul className="flex flex-wrap gap-x-6 gap-y-2">
        <li>
          <Link href={path} className={LINK}>
            {`Show ${your} latest day`}
          </Link>
        </li>
        <li>
          <Link href={`${path}?date=${firstDay}`} className={LINK}>
            {`Show ${your} first day`}
          </Link>
        </li>
      </ul>
      <DayForm min={firstDay} max={lastDay} viewer={viewer} />
    </Panel>
  );
}
