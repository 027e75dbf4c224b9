import type { GlucoseUnit } from "@/lib/cgm/units";
import { RANGE_COLOURS, RANGE_LABELS, RANGE_ORDER } from "@/lib/dashboard/palette";
import type { PerConsensusRange } from "@/lib/metrics";
import { formatDuration, formatPercent, hoursPerDay } from "@/lib/trace";

/**
 * Time in the five consensus ranges as one stacked bar (highest range on top, as on the AGP
 * report) and, beside it, the same numbers as text: percent, time per day and the consensus
 * target. The bar is decoration for sighted readers; the list is the content. Given `minutes` (one
 * day's readings), the time is the time spent that day rather than an average day's share.
 */
export function TimeInRange({
  percentages,
  unit,
  minutes,
}: {
  percentages: PerConsensusRange<number>;
  unit: GlucoseUnit;
  minutes?: PerConsensusRange<number>;
}) {
  return (
    <div className="flex gap-4 sm:gap-6" data-testid="time-in-range">
      <div
        aria-hidden="true"
        className="flex w-10 shrink-0 flex-col overflow-hidden rounded-md border border-slate-300 dark:border-slate-600"
        style={{ minHeight: "14rem" }}
      >
        {RANGE_ORDER.map((r) => (
          <div key={r} style={{ flexGrow: percentages[r], flexBasis: 0, background: RANGE_COLOURS[r] }} />
        ))}
      </div>
      <ul className="flex flex-1 flex-col justify-between gap-2">
        {RANGE_ORDER.map((r) => {
          const label = RANGE_LABELS[r];
          return (
            <li key={r} className="flex items-baseline justify-between gap-3" data-range={r}>
              <span className="flex items-baseline gap-2">
                <span
                  aria-hidden="true"
                  className="inline-block h-3 w-3 shrink-0 rounded-sm"
                  style={{ background: RANGE_COLOURS[r] }}
                />
                <span>
                  <span className="font-medium">{label.name}</span>{" "}
                  <span className="text-sm text-slate-700 dark:text-slate-300">
                    {unit === "mg/dL" ? label.mgdl : label.mmoll} {unit}
                  </span>
                  <span className="block text-xs text-slate-700 dark:text-slate-300">
                    Target {label.target}
                  </span>
                </span>
              </span>
              <span className="text-right">
                <span className="text-lg font-semibold tabular-nums">{formatPercent(percentages[r])}</span>
                <span className="block text-xs text-slate-700 tabular-nums dark:text-slate-300">
                  {minutes
                    ? formatDuration(minutes[r])
                    : `${formatDuration(Math.round(hoursPerDay(percentages[r]) * 60))} a day`}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
