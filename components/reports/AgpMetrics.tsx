import { mgdlRangeText } from "@/lib/cgm/glucose-text";
import { RANGE_COLOURS } from "@/lib/dashboard/palette";
import {
  CV_STABLE_MAX_PERCENT,
  SENSOR_ACTIVE_MIN_PERCENT,
  TIGHT_RANGE_MAX_MGDL,
  TIGHT_RANGE_MIN_MGDL,
} from "@/lib/metrics/constants";
import type { AgpReport } from "@/lib/reports/agp/agp-model";
import { patientDaysText } from "@/lib/reports/period/patient-days";
import { formatDuration } from "@/lib/trace/format";
import { GRI_ZONE_WORDS } from "./GriGrid";

/** The consensus metrics panel: glucose statistics beside time in the population's bands and goals. */
export function AgpMetrics({ report }: { report: AgpReport }) {
  const { metrics, period } = report;
  // The CV goal is judged beside the CV in the statistics; the table holds the time goals, so the
  // printed report keeps to one page.
  const cvGoal = report.goals?.find((g) => g.metric === "cv");
  const timeGoals = report.goals?.filter((g) => g.metric !== "cv");
  // The fourth element puts a short note on the value's line on paper (a line less on the one page).
  const stats: Array<[string, string, string?, "inline-on-paper"?]> = [
    [
      "Period",
      period.firstDay && period.lastDay
        ? patientDaysText({ firstDay: period.firstDay, lastDay: period.lastDay })
        : `${period.days} days`,
    ],
    [
      "Sensor active",
      metrics.sensorActivePercent === null ? "—" : `${metrics.sensorActivePercent.toFixed(1)}%`,
      `${metrics.nValues} readings`,
      "inline-on-paper",
    ],
    ["Mean glucose", report.meanText === null ? "—" : `${report.meanText} ${report.unit}`],
    ["Glucose Management Indicator (GMI)", metrics.gmi === null ? "—" : `${metrics.gmi.toFixed(1)}%`],
    [
      "Glucose variability (CV)",
      metrics.cv === null ? "—" : `${metrics.cv.toFixed(1)}%`,
      cvGoal
        ? `goal ${cvGoal.goal} · ${cvGoal.met ? "✓ met" : "✗ not met"}`
        : `target ${CV_STABLE_MAX_PERCENT}% or less`,
    ],
    ["Standard deviation", report.sdText === null ? "—" : `${report.sdText} ${report.unit}`],
    [
      "Glycemia Risk Index (GRI)",
      report.gri.current === null
        ? "—"
        : `${report.gri.current.gri.toFixed(1)} · zone ${report.gri.current.zone}`,
      report.gri.current ? `${GRI_ZONE_WORDS[report.gri.current.zone]} (zones A–E)` : undefined,
    ],
    // Issue 14: time in tight range (2023 consensus), as percent of readings; printed too.
    [
      `Time in tight range (${mgdlRangeText(TIGHT_RANGE_MIN_MGDL, TIGHT_RANGE_MAX_MGDL, report.unit)})`,
      metrics.timeInTightRange === null ? "—" : `${metrics.timeInTightRange.toFixed(1)}%`,
    ],
  ];
  return (
    <div className="agp-metrics grid gap-4 md:grid-cols-2 print:grid-cols-2 print:gap-3">
      <section aria-labelledby="agp-stats-heading">
        <h2 id="agp-stats-heading" className="mb-2 font-semibold">
          Glucose statistics and targets
        </h2>
        {metrics.sensorActivePercent !== null && metrics.sensorActivePercent < SENSOR_ACTIVE_MIN_PERCENT && (
          <p
            role="note"
            className="agp-sensor-note mb-2 rounded border border-amber-400 bg-amber-50 px-2 py-1 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-100"
          >
            The sensor was active {metrics.sensorActivePercent.toFixed(0)}% of this period: the consensus asks
            for at least {SENSOR_ACTIVE_MIN_PERCENT}% before these numbers describe the period reliably.
          </p>
        )}
        <dl className="divide-y divide-slate-200 text-sm dark:divide-slate-700" data-testid="agp-stats">
          {stats.map(([term, value, note, paper]) => (
            <div key={term} className="flex items-baseline justify-between gap-3 py-1">
              <dt>{term}</dt>
              <dd className="text-right font-semibold tabular-nums">
                {value}
                {note && (
                  <span
                    className={`block text-xs font-normal text-slate-700 dark:text-slate-300 ${paper ? "print:ml-1 print:inline" : ""}`}
                  >
                    {note}
                  </span>
                )}
              </dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-labelledby="agp-tir-heading">
        <h2 id="agp-tir-heading" className="mb-2 font-semibold">
          Time in ranges{" "}
          <span className="font-normal text-slate-700 dark:text-slate-300">· {report.preset.label}</span>
        </h2>
        {report.bands === null ? (
          <p>No readings in this period.</p>
        ) : (
          <div className="flex gap-3">
            <div
              aria-hidden="true"
              className="flex w-8 shrink-0 flex-col overflow-hidden rounded border border-slate-300 dark:border-slate-600"
            >
              {report.bands.map((b) => (
                <div
                  key={b.key}
                  style={{ flexGrow: b.percent, flexBasis: 0, background: RANGE_COLOURS[b.key] }}
                />
              ))}
            </div>
            <div className="flex-1 space-y-2">
              <ul className="space-y-1 text-sm print:space-y-0" data-testid="agp-bands">
                {report.bands.map((b) => (
                  <li key={b.key} data-band={b.key} className="flex items-baseline justify-between gap-2">
                    <span>
                      <span className="font-medium">{b.name}</span>{" "}
                      <span className="text-slate-700 dark:text-slate-300">
                        {b.range} {report.unit}
                      </span>
                    </span>
                    <span className="text-right tabular-nums">
                      <span className="font-semibold">{b.percentText}</span>{" "}
                      <span className="text-xs text-slate-700 dark:text-slate-300">
                        ({formatDuration(b.minutesPerDay)}/day)
                      </span>
                    </span>
                  </li>
                ))}
              </ul>
              <table className="w-full text-xs" data-testid="agp-goals">
                <caption className="text-left font-medium">Goals for this group</caption>
                <thead className="sr-only">
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Goal</th>
                    <th scope="col">This period</th>
                  </tr>
                </thead>
                <tbody>
                  {timeGoals?.map((g) => (
                    <tr key={g.metric} data-met={g.met}>
                      <th scope="row" className="py-0.5 text-left font-normal">
                        {g.label}
                      </th>
                      <td className="text-slate-700 dark:text-slate-300">{g.goal}</td>
                      <td className="text-right tabular-nums">
                        {g.valueText} <span className="font-medium">{g.met ? "✓ met" : "✗ not met"}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        )}
      </section>
    </div>
  );
}
