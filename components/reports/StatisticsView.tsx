import { HypoglycemiaRiskBadge } from "@/components/glucose/HypoglycemiaRiskBadge";
import { Panel } from "@/components/patient/Panel";
import { ChoiceLinks } from "@/components/records/ChoiceLinks";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { hrefWith } from "@/lib/records/query";
import { PATIENT, type Viewer, viewPath, wordsFor } from "@/lib/records/viewer";
import { patientDaysText } from "@/lib/reports/period/patient-days";
import { type PeriodRequest, REPORT_DEFAULT_DAYS } from "@/lib/reports/period/period";
import { periodChoices } from "@/lib/reports/period/period-choices";
import type { StatisticsPage, StatisticsVersion } from "@/lib/reports/statistics-by-window/model";
import {
  rowsFromWindows,
  type StatisticsWindow,
  type WindowRow,
} from "@/lib/reports/statistics-by-window/windows";
import { formatDisplayTime } from "@/lib/trace/format";
import { MethodsNote } from "./MethodsNote";
import { StatisticsByWindowTable } from "./StatisticsByWindowTable";
import { StatisticsEditor } from "./StatisticsEditor";

const DEFAULTS = { days: String(REPORT_DEFAULT_DAYS), version: "v2" };

/**
 * Statistics by time of day (issue 5), as the patient's page and the clinic's page about the
 * patient both show them: the patient's named windows and the service's statistics per window
 * over the last 7–90 days on the receiver's clock, ending on the day of the newest reading, as the
 * AGP and the comparison take them (or a systemTime window given as startDate/endDate), v2 (urgent
 * low, low, high) or v1 (one range). The patient edits and saves the windows here; a clinician sees
 * the ones the patient saved and cannot change them, so a clinic's visit never changes the patient's
 * settings (the clinic's period and version are links, as the patient's).
 */
export function StatisticsView({
  request,
  version,
  byService,
  windows,
  saved,
  data,
  unit,
  viewer = PATIENT,
}: {
  request: { ok: true; value: PeriodRequest } | { ok: false; message: string };
  version: StatisticsVersion;
  /** API v2 answers statistics; with v3 the dashboard computes them with the service's method. */
  byService: boolean;
  windows: readonly StatisticsWindow[];
  saved: boolean;
  /** Null: no valid period asked, or no readings. */
  data: StatisticsPage | null;
  unit: GlucoseUnit;
  viewer?: Viewer;
}) {
  const clinic = viewer.kind === "clinic";
  const { your, Your, clock } = wordsFor(viewer);
  const path = viewPath(viewer, "/statistics");
  const days = request.ok && request.value.kind === "days" ? request.value.days : null;
  const current = { days: String(days ?? REPORT_DEFAULT_DAYS), version };
  const href = (change: Record<string, string>) => hrefWith(path, current, change, DEFAULTS);

  return (
    <>
      <p className="max-w-3xl text-slate-700 dark:text-slate-300">
        {clinic
          ? "Parts of the day the patient named, such as day and night, each with its own targets, and how the patient's glucose did in each."
          : "Name parts of the day, such as day and night, give each its own targets, and see how your glucose did in each."}{" "}
        {byService
          ? `The statistics come from ${your} CGM service, asked with ${your} windows.`
          : `The statistics are computed by this dashboard with ${your} CGM service's own method: the service's current interface (API v3) gives none.`}
      </p>
      <Panel title={`${Your} time-of-day windows`} id="windows">
        {!saved && (
          <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="windows-default-note">
            {clinic ? "The patient has" : "You have"} not saved windows yet: these are the suggested day and
            night windows.
          </p>
        )}
        {clinic ? (
          <SavedWindows rows={rowsFromWindows(windows, unit)} unit={unit} />
        ) : (
          <StatisticsEditor initialRows={rowsFromWindows(windows, unit)} unit={unit} />
        )}
      </Panel>

      <Panel title="Statistics by window" id="results">
        <ChoiceLinks
          id="statistics-period"
          label="Period"
          choices={periodChoices(days, (d) => href({ days: String(d) }))}
        />
        <ChoiceLinks
          id="statistics-version"
          label="Statistics"
          choices={[
            { href: href({ version: "v2" }), label: "v2: urgent low, low, high", current: version === "v2" },
            { href: href({ version: "v1" }), label: "v1: one range per window", current: version === "v1" },
          ]}
        />
        {!request.ok ? (
          <p role="alert" className="text-red-800 dark:text-red-300">
            {request.message}
          </p>
        ) : data === null ? (
          <p data-testid="statistics-empty">
            {clinic
              ? "The glucose service holds no readings for this patient yet, so there is nothing to compute."
              : "The glucose service holds no readings for your account yet, so there is nothing to compute. Your windows are kept for when readings arrive."}
          </p>
        ) : (
          <>
            <p className="text-slate-700 dark:text-slate-300" data-testid="statistics-period">
              {data.period.patientDays
                ? `${patientDaysText(data.period.patientDays)}, up to ${your} newest reading${
                    data.latestDisplayTime ? `, ${formatDisplayTime(data.latestDisplayTime)}` : ""
                  }, on ${clock}.`
                : `From ${data.period.startDate.replace("T", " ")} to ${data.period.endDate.replace("T", " ")} UTC (the service's systemTime).`}{" "}
              {`Glucose in ${unit}; times of day are ${clock}.`}
            </p>
            <StatisticsByWindowTable results={data.results} dataUnit={data.dataUnit} unit={unit} />
            <div className="space-y-2">
              <h3 className="font-semibold">Hypoglycemia risk over the whole period</h3>
              <HypoglycemiaRiskBadge
                risk={data.results.together.hypoglycemiaRisk}
                by={byService ? "service" : "dashboard"}
              />
              <p className="text-sm text-slate-700 dark:text-slate-300">
                {byService
                  ? "The service's estimate, from all readings of the period; it gives none per window."
                  : "This dashboard's estimate with the service's method, from all readings of the period; the method gives none per window."}
              </p>
            </div>
            <details className="text-sm text-slate-700 dark:text-slate-300">
              <summary className="cursor-pointer font-medium text-slate-900 dark:text-slate-100">
                How these numbers are made
              </summary>
              <div className="mt-2 space-y-2">
                {!byService && (
                  <p data-testid="statistics-computed-here">
                    {Your} CGM service&apos;s current interface (API v3) has no statistics, so this dashboard
                    computes what its statistics (API v2) would answer, with the same method and from the same
                    readings; the methods note below says how the hypoglycemia risk is estimated.
                  </p>
                )}
                <p>
                  The service answers a statistics request for all its windows together: its mean, median, SD,
                  sensor use and hypoglycemia risk are of every reading of the period, whatever the time of
                  day. Only its range groups follow the windows, each reading judged by the bounds of the
                  window it falls in. The last row of the table is that answer.
                </p>
                <p>
                  For one window, the dashboard asks again with that window and the rest of the day as a
                  filler whose readings all fall in one known group; asked twice, filling opposite groups, the
                  {byService ? " service" : " method"} counts the window&apos;s own readings in each group.
                  The mean, median, SD and sensor use of a window are computed by this dashboard from the same
                  readings.
                </p>
                {version === "v2" ? (
                  <p>
                    Urgent low: below the urgent-low bound. Low: from urgent low up to, not including, low. In
                    range: from low to high, both included. High: above high.
                  </p>
                ) : (
                  <p>
                    v1 has one range per window: {your} low bound is its minimum and {your} high bound its
                    maximum, both included. Below: under the minimum; above: over the maximum.
                  </p>
                )}
              </div>
            </details>
          </>
        )}
      </Panel>
      <MethodsNote />
    </>
  );
}

/** The patient's saved windows as a clinician reads them: a table, no editor. */
function SavedWindows({ rows, unit }: { rows: WindowRow[]; unit: GlucoseUnit }) {
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="windows-read-only">
        These are the patient&apos;s own windows. The clinic sees them as the patient saved them and cannot
        change them; the period and the statistics&apos; version below are the clinic&apos;s to choose.
      </p>
      <table className="w-full text-sm" data-testid="saved-windows">
        <caption className="sr-only">The patient&apos;s time-of-day windows</caption>
        <thead>
          <tr className="border-b border-slate-300 text-left dark:border-slate-700">
            <th scope="col" className="py-1 pr-3 font-medium">
              Window
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Hours
            </th>
            <th scope="col" className="py-1 font-medium">
              Urgent low / low / high ({unit})
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.name}|${r.startTime}`} className="border-b border-slate-200 dark:border-slate-800">
              <th scope="row" className="py-1 pr-3 text-left font-medium">
                {r.name}
              </th>
              <td className="py-1 pr-3 tabular-nums whitespace-nowrap">
                {r.startTime}–{r.endTime}
              </td>
              <td className="py-1 tabular-nums">
                {r.urgentLow} / {r.low} / {r.high}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
