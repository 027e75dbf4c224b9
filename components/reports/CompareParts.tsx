import { DayField } from "@/components/forms/DayField";
import { reportGri } from "@/lib/metrics/report";
import { formatDateTimeText, formatDayText } from "@/lib/records/format";
import { PATIENT, type Viewer, wordsFor } from "@/lib/records/viewer";
import {
  ATTRIBUTION_MIN_CHANGE_POINTS,
  BLOCK_HOURS,
  BLOCKS_PER_DAY,
} from "@/lib/reports/comparison/comparison";
import { formDates } from "@/lib/reports/comparison/comparison-view";
import type { PatientDays } from "@/lib/reports/period/patient-days";
import { REPORT_MAX_DAYS } from "@/lib/reports/period/period";
import type { PeriodSummary } from "@/lib/reports/summary/summary-model";
import { GriGrid } from "./GriGrid";

interface PeriodDates {
  startDate: string;
  endDate: string;
  patientDays?: PatientDays;
  nValues: number;
}

/**
 * A period as chosen: its days on the receiver's clock when it was chosen as days, else its
 * window as written on the service's clock (systemTime is UTC).
 */
function Window({ period, clock }: { period: PeriodDates; clock: string }) {
  const days = period.patientDays;
  if (days) {
    return (
      <>
        <time dateTime={days.firstDay}>{formatDayText(days.firstDay)}</time> to{" "}
        <time dateTime={days.lastDay}>{formatDayText(days.lastDay)}</time>
        {` on ${clock}`}
      </>
    );
  }
  return (
    <>
      <time dateTime={`${period.startDate}Z`}>{formatDateTimeText(period.startDate)}</time> to{" "}
      <time dateTime={`${period.endDate}Z`}>{formatDateTimeText(period.endDate)}</time> UTC
    </>
  );
}

/** Which two periods are compared, and how many readings each holds. */
export function PeriodsText({
  earlier,
  recent,
  days,
  byDays,
  viewer = PATIENT,
}: {
  earlier: PeriodDates;
  recent: PeriodDates;
  days: number;
  byDays: boolean;
  viewer?: Viewer;
}) {
  const { your, Your, clock } = wordsFor(viewer);
  const length = `${days} ${days === 1 ? "day" : "days"}`;
  return (
    <div className="space-y-2">
      <p className="text-slate-700 dark:text-slate-300">
        {byDays
          ? `The last ${length} of ${your} data, up to ${your} newest reading, against the ${length} before.`
          : `${viewer.kind === "clinic" ? "The" : Your} chosen period of ${length} against the ${length} just before it.`}
      </p>
      <dl className="grid gap-x-3 gap-y-1 text-sm sm:grid-cols-[9rem_1fr]" data-testid="compare-periods">
        <dt className="font-medium">Recent period</dt>
        <dd data-period="recent">
          <Window period={recent} clock={clock} />, {recent.nValues.toLocaleString("en")} readings
        </dd>
        <dt className="font-medium">Earlier period</dt>
        <dd data-period="earlier">
          <Window period={earlier} clock={clock} />, {earlier.nValues.toLocaleString("en")} readings
        </dd>
      </dl>
    </div>
  );
}

/** A recent period of your own: two days on the receiver's clock, as a plain GET form. */
export function ComparePeriodForm({
  recent,
  action = "/reports/compare",
  clock = wordsFor().clock,
}: {
  recent?: Parameters<typeof formDates>[0];
  /** The compare page the form comes back to: the patient's own, or the clinic's for its patient. */
  action?: string;
  clock?: string;
}) {
  const dates = recent ? formDates(recent) : null;
  return (
    <form method="get" action={action} className="space-y-2" aria-labelledby="compare-form-heading">
      <h3 id="compare-form-heading" className="text-sm font-medium text-slate-700 dark:text-slate-300">
        Or choose the recent period
      </h3>
      <div className="flex flex-wrap items-end gap-3">
        <DayField id="compare-start" label="From" name="startDate" defaultValue={dates?.start} />
        <DayField id="compare-end" label="To (included)" name="endDate" defaultValue={dates?.end} />
        <button
          type="submit"
          className="rounded-lg bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-400"
        >
          Compare
        </button>
      </div>
      <p className="text-xs text-slate-700 dark:text-slate-300">
        {`Whole days on ${clock}, at most ${REPORT_MAX_DAYS}; the earlier period is as many days just before.`}
      </p>
    </form>
  );
}

/** How a change is traced to a time of day: the line the methods note carries for this report. */
export function AttributionMethod({ clock = wordsFor().clock }: { clock?: string }) {
  return (
    <section
      aria-labelledby="attribution-method-heading"
      className="border-t border-slate-300 pt-3 text-xs text-slate-700 dark:border-slate-700 dark:text-slate-300"
    >
      <h2 id="attribution-method-heading" className="mb-1 text-sm font-semibold">
        How a change is traced to a time of day
      </h2>
      <p>
        {`The day (displayTime, ${clock}) is cut into ${BLOCKS_PER_DAY} blocks of ${BLOCK_HOURS} hours.`} A
        period&apos;s share of time in a band equals the sum over the blocks of the block&apos;s part of the
        period&apos;s readings times the band&apos;s share within the block; so the change of the share is the
        sum of the blocks&apos; changes of these products, and the blocks&apos; contributions add up exactly
        to the change. A contribution can come from a changed share within the block or from a changed number
        of readings in it. A change of at least {ATTRIBUTION_MIN_CHANGE_POINTS} percentage point is placed
        where adjacent blocks (across midnight too), at most half the day, hold more than half of the change
        in its direction, the shortest such span first; else two such spans; else it is &ldquo;spread over the
        day&rdquo;.
      </p>
    </section>
  );
}

/** Both periods on one GRI grid: the recent period filled, the earlier one hollow. */
export function CompareGriGrid({ earlier, recent }: { earlier: PeriodSummary; recent: PeriodSummary }) {
  return (
    <GriGrid
      id="compare-gri-grid"
      periods={[
        { key: "recent", label: "Recent period", dates: null, index: reportGri(recent), marker: "filled" },
        { key: "earlier", label: "Earlier period", dates: null, index: reportGri(earlier), marker: "hollow" },
      ]}
    />
  );
}
