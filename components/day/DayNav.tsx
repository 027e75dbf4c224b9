import Link from "next/link";
import { DayField } from "@/components/forms/DayField";
import type { DayLink } from "@/lib/dashboard/day-model";
import { PATIENT, type Viewer, viewPath } from "@/lib/records/viewer";

const STEP =
  "inline-flex min-w-[9rem] flex-col rounded-lg border px-3 py-1.5 text-sm leading-tight focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-400";

/** One step to the day before or after; past the data's ends it is text saying so, not a dead link. */
function DayStep({
  link,
  direction,
  path,
}: {
  link: DayLink | null;
  direction: "previous" | "next";
  path: string;
}) {
  const previous = direction === "previous";
  const align = previous ? "items-start" : "items-end text-right";
  if (!link)
    return (
      <span
        aria-disabled="true"
        className={`${STEP} ${align} border-slate-200 text-slate-600 dark:border-slate-800 dark:text-slate-400`}
      >
        <span className="font-medium">{previous ? "Previous day" : "Next day"}</span>
        <span className="text-xs">{previous ? "no earlier data" : "no later data"}</span>
      </span>
    );
  return (
    <Link
      href={`${path}?date=${link.day}`}
      rel={direction === "previous" ? "prev" : "next"}
      className={`${STEP} ${align} border-slate-300 bg-white font-medium text-blue-800 hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:text-blue-300 dark:hover:bg-slate-800`}
    >
      <span>
        {previous && <span aria-hidden="true">← </span>}
        {previous ? "Previous day" : "Next day"}
        {!previous && <span aria-hidden="true"> →</span>}
      </span>
      <span className="text-xs font-normal text-slate-700 dark:text-slate-300">{link.label}</span>
    </Link>
  );
}

/** A plain GET form: the browser's date picker, and a URL of its own for every day, without JavaScript. */
export function DayForm({
  day,
  min,
  max,
  viewer = PATIENT,
}: {
  day?: string;
  min?: string;
  max?: string;
  viewer?: Viewer;
}) {
  return (
    <form method="get" action={viewPath(viewer, "/day")} className="flex items-end gap-2">
      <DayField
        id="day-date"
        label="Go to a day"
        name="date"
        defaultValue={day}
        min={min}
        max={max}
        required={false}
      />
      <button
        type="submit"
        className="rounded-lg bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-400"
      >
        Show
      </button>
    </form>
  );
}

/** Previous and next day, and a form to jump to any day of the data. */
export function DayNav({
  day,
  previous,
  next,
  firstDay,
  lastDay,
  viewer = PATIENT,
}: {
  day: string;
  previous: DayLink | null;
  next: DayLink | null;
  firstDay: string;
  lastDay: string;
  viewer?: Viewer;
}) {
  const path = viewPath(viewer, "/day");
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <nav aria-label="Days" className="flex justify-between gap-2 sm:justify-start">
        <DayStep link={previous} direction="previous" path={path} />
        <DayStep link={next} direction="next" path={path} />
      </nav>
      {/* Keyed by day: moving to another day by link keeps this component, and an uncontrolled
          input would keep showing the day before. */}
      <DayForm key={day} day={day} min={firstDay} max={lastDay} viewer={viewer} />
    </div>
  );
}
