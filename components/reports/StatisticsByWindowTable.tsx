import { Blank, RecordTable, TD, TH_COL, TH_ROW, TR } from "@/components/records/RecordTable";
import { formatGlucoseNumber } from "@/lib/cgm/glucose-text";
import { convertGlucose, type GlucoseUnit } from "@/lib/cgm/units";
import {
  type GroupCounts,
  type StatisticsByWindow,
  servicePercentsOf,
} from "@/lib/reports/statistics-by-window/model";
import { hoursLabel } from "@/lib/reports/statistics-by-window/windows";
import { formatPercent } from "@/lib/trace/format";

const GROUPS = {
  v2: [
    ["urgentLow", "Urgent low"],
    ["below", "Low"],
    ["within", "In range"],
    ["above", "High"],
  ],
  v1: [
    ["below", "Below"],
    ["within", "In range"],
    ["above", "Above"],
  ],
} as const satisfies Record<string, ReadonlyArray<readonly [keyof GroupCounts, string]>>;

const NUM = `${TD} text-right tabular-nums`;
const DASHBOARD_COLUMNS = ["Mean", "Median", "SD", "Sensor use"] as const;

/**
 * The statistics by window: per window, the service's counts of that window's readings in its
 * groups (lib/reports/statistics-by-window/model.ts says how they are isolated), beside the dashboard's
 * mean, median, SD and sensor use of the same readings; the last row is the service's answer for
 * all windows together, every number of it the service's (with API v3, which has no statistics,
 * computed by the dashboard with the service's method, and labelled so). Glucose numbers in the unit on screen;
 * 39 and 401 only ever enter as parts of aggregates.
 */
export function StatisticsByWindowTable({
  results,
  dataUnit,
  unit,
}: {
  results: StatisticsByWindow;
  dataUnit: GlucoseUnit;
  unit: GlucoseUnit;
}) {
  const groups = GROUPS[results.version];
  const glucose = (value: number, from: GlucoseUnit) =>
    formatGlucoseNumber(convertGlucose(value, from, unit), unit);
  const percent = (p: GroupCounts | null, g: keyof GroupCounts) => {
    const v = p?.[g];
    return v === null || v === undefined ? <Blank label="no readings" /> : formatPercent(v);
  };
  const bounds = (b: { urgentLow: number; low: number; high: number }) =>
    results.version === "v2"
      ? `${glucose(b.urgentLow, dataUnit)} / ${glucose(b.low, dataUnit)} / ${glucose(b.high, dataUnit)} ${unit}`
      : `${glucose(b.low, dataUnit)}–${glucose(b.high, dataUnit)} ${unit}`;
  const together = results.together;
  const togetherPercents = servicePercentsOf(together);
  // With API v3 the service has no statistics: the same numbers, computed here by its method.
  const byService = results.computedBy === "service";
  const serviceLabel = byService ? "The service" : "The service's method";

  return (
    <RecordTable caption={`Statistics by window (${results.version}); the last row is all windows together`}>
      <thead>
        <tr>
          <td className="border-b border-slate-300 dark:border-slate-700" />
          <th scope="colgroup" colSpan={1 + groups.length} className={`${TH_COL} text-center`}>
            {serviceLabel}: share of readings
          </th>
          <th scope="colgroup" colSpan={4} className={`${TH_COL} text-center`}>
            This dashboard, same readings
          </th>
        </tr>
        <tr>
          <th scope="col" className={TH_COL}>
            Window
          </th>
          <th scope="col" className={`${TH_COL} text-right`}>
            Readings
          </th>
          {groups.map(([g, label]) => (
            <th key={g} scope="col" className={`${TH_COL} text-right`}>
              {label}
            </th>
          ))}
          <th scope="col" className={`${TH_COL} text-right`}>
            Mean
          </th>
          <th scope="col" className={`${TH_COL} text-right`}>
            Median
          </th>
          <th scope="col" className={`${TH_COL} text-right`}>
            SD
          </th>
          <th scope="col" className={`${TH_COL} text-right`}>
            Sensor use
          </th>
        </tr>
      </thead>
      <tbody>
        {results.windows.map((w) => (
          <tr
            key={`${w.startTime}-${w.name}`}
            className={TR}
            data-testid="window-result"
            data-window={w.name}
          >
            <th scope="row" className={TH_ROW}>
              <span className="block">{w.name}</span>
              <span className="block text-xs font-normal text-slate-700 dark:text-slate-300">
                {`${hoursLabel(w)} · ${bounds(w.bounds)}`}
              </span>
            </th>
            <td className={NUM} data-testid="window-readings" data-label="Readings">
              {(w.counts.urgentLow ?? 0) + w.counts.below + w.counts.within + w.counts.above}
            </td>
            {groups.map(([g, label]) => (
              <td key={g} className={NUM} data-group={g} data-label={`${serviceLabel}: ${label}`}>
                {percent(w.percents, g)}
              </td>
            ))}
            <td className={NUM} data-label="Mean">
              {w.summary ? glucose(w.summary.meanMgdl, "mg/dL") : <Blank label="no readings" />}
            </td>
            <td className={NUM} data-label="Median">
              {w.summary ? glucose(w.summary.medianMgdl, "mg/dL") : <Blank label="no readings" />}
            </td>
            <td className={NUM} data-label="SD">
              {w.summary ? glucose(w.summary.sdMgdl, "mg/dL") : <Blank label="no readings" />}
            </td>
            <td className={NUM} data-label="Sensor use">
              {w.summary ? formatPercent(w.summary.sensorUsePercent) : <Blank label="no readings" />}
            </td>
          </tr>
        ))}
        <tr className={`${TR} bg-slate-50 dark:bg-slate-800/60`} data-testid="together-result">
          <th scope="row" className={TH_ROW}>
            <span className="block">All windows together</span>
            <span className="block text-xs font-normal text-slate-700 dark:text-slate-300">
              {byService
                ? "every number from the service"
                : "every number by the service's method, computed here"}
            </span>
          </th>
          <td className={NUM} data-testid="together-readings" data-label="Readings">
            {together.nValues}
          </td>
          {groups.map(([g, label]) => (
            <td key={g} className={NUM} data-group={g} data-label={`${serviceLabel}: ${label}`}>
              {percent(togetherPercents, g)}
            </td>
          ))}
          {together.nValues === 0 ? (
            DASHBOARD_COLUMNS.map((label) => (
              <td key={label} className={NUM} data-label={label}>
                <Blank label="no readings" />
              </td>
            ))
          ) : (
            <>
              <td className={NUM} data-label="Mean">
                {glucose(together.mean, dataUnit)}
              </td>
              <td className={NUM} data-label="Median">
                {glucose(together.median, dataUnit)}
              </td>
              <td className={NUM} data-label="SD">
                {glucose(together.stdDev, dataUnit)}
              </td>
              <td className={NUM} data-label="Sensor use">
                {formatPercent(together.utilizationPercent)}
              </td>
            </>
          )}
        </tr>
      </tbody>
    </RecordTable>
  );
}
