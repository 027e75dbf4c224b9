import type { GlucoseUnit } from "@/lib/cgm/units";
import type { JudgedRanges } from "@/lib/dashboard/judged-ranges";
import { RANGE_COLOURS } from "@/lib/dashboard/palette";
import { READING_INTERVAL_MINUTES } from "@/lib/metrics/sensor";
import { formatDuration, hoursPerDay } from "@/lib/trace";
import { GoalList } from "./GoalList";

/**
 * Time in the target group's bands as one stacked bar (highest on top, as on the AGP report) and,
 * beside it, the same numbers as text: percent and time per day; below, the group's goals, which
 * are cumulative (below 70 includes below 54) and so are judged on their own, never per band. The
 * bar is decoration for sighted readers; the list is the content. With `oneDay`, the time is the
 * time spent that day (a reading per 5 minutes) rather than an average day's share.
 */
export function TimeInRange({
  judged,
  unit,
  oneDay = false,
  goalsCaption,
}: {
  judged: JudgedRanges;
  unit: GlucoseUnit;
  oneDay?: boolean;
  goalsCaption?: React.ReactNode;
}) {
  return (
    <div className="space-y-4">
      <div className="flex gap-4 sm:gap-6" data-testid="time-in-range">
        <div
          aria-hidden="true"
          className="flex w-10 shrink-0 flex-col overflow-hidden rounded-md border border-slate-300 dark:border-slate-600"
          style={{ minHeight: "12rem" }}
        >
          {judged.bands.map((b) => (
            <div
              key={b.key}
              style={{ flexGrow: b.percent, flexBasis: 0, background: RANGE_COLOURS[b.key] }}
            />
          ))}
        </div>
        <ul className="flex flex-1 flex-col justify-between gap-2">
          {judged.bands.map((b) => (
            <li key={b.key} className="flex items-baseline justify-between gap-3" data-range={b.key}>
              <span className="flex items-baseline gap-2">
                <span
                  aria-hidden="true"
                  className="inline-block h-3 w-3 shrink-0 rounded-sm"
                  style={{ background: RANGE_COLOURS[b.key] }}
                />
                <span>
                  <span className="font-medium">{b.name}</span>{" "}
                  <span className="text-sm text-slate-700 dark:text-slate-300">
                    {b.range} {unit}
                  </span>
                </span>
              </span>
              <span className="text-right">
                <span className="text-lg font-semibold tabular-nums">{b.percentText}</span>
                <span className="block text-xs text-slate-700 tabular-nums dark:text-slate-300">
                  {oneDay
                    ? formatDuration(b.readings * READING_INTERVAL_MINUTES)
                    : `${formatDuration(Math.round(hoursPerDay(b.percent) * 60))} a day`}
                </span>
              </span>
            </li>
          ))}
        </ul>
      </div>
      <GoalList
        goals={judged.goals}
        caption={goalsCaption ?? `Consensus goals · ${judged.groupLabel}`}
        testId="tir-goals"
      />
    </div>
  );
}
