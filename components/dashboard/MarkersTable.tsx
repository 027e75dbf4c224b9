import type { GlucoseUnit } from "@/lib/cgm/units";
import { markerRows } from "@/lib/dashboard/markers";
import type { CalibrationMarker, EventMarker } from "@/lib/dashboard/overview-model";
import type { AlertSounding } from "@/lib/records/alerts";
import { formatDisplayTime } from "@/lib/trace";

/** The markers' text alternative: the events, calibrations and alerts drawn on the trace, with values. */
export function MarkersTable({
  events,
  calibrations,
  alerts = [],
  unit,
}: {
  events: EventMarker[];
  calibrations: CalibrationMarker[];
  alerts?: AlertSounding[];
  unit: GlucoseUnit;
}) {
  const rows = markerRows(events, calibrations, unit, alerts);
  if (rows.length === 0) return null;
  const what = [
    events.length > 0 && `${events.length} ${events.length === 1 ? "event" : "events"}`,
    calibrations.length > 0 &&
      `${calibrations.length} ${calibrations.length === 1 ? "calibration" : "calibrations"}`,
    alerts.length > 0 && `${alerts.length} ${alerts.length === 1 ? "alert" : "alerts"}`,
  ]
    .filter((x): x is string => typeof x === "string")
    .join(", ")
    .replace(/, ([^,]*)$/, " and $1");
  return (
    <details className="text-sm" data-testid="markers-table">
      <summary className="cursor-pointer font-medium text-blue-800 dark:text-blue-300">
        The trace&apos;s {alerts.length > 0 ? "events, calibrations and alerts" : "events and calibrations"}{" "}
        as a table ({what})
      </summary>
      <section
        aria-label={
          alerts.length > 0
            ? "Events, calibrations and alerts on the trace"
            : "Events and calibrations on the trace"
        }
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to be scrolled (WCAG 2.1.1).
        tabIndex={0}
        className="mt-2 max-h-96 overflow-auto rounded focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-400"
      >
        <table className="stack-narrow w-full text-left">
          <caption className="sr-only">
            {alerts.length > 0 ? "Events, calibrations and alerts" : "Events and calibrations"} on the trace,
            newest first
          </caption>
          <thead>
            <tr className="border-b border-slate-300 dark:border-slate-700">
              <th scope="col" className="py-1 pr-3">
                Time (receiver)
              </th>
              <th scope="col" className="py-1 pr-3">
                Entry
              </th>
              <th scope="col" className="py-1 text-right">
                Value
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} className="border-b border-slate-200 dark:border-slate-800">
                <th scope="row" className="py-1 pr-3 font-normal">
                  {formatDisplayTime(r.displayTime)}
                </th>
                <td data-label="Entry" className="py-1 pr-3">
                  {r.what}
                </td>
                <td data-label="Value" className="py-1 text-right tabular-nums">
                  {r.valueText ?? (
                    <>
                      <span aria-hidden="true">—</span>
                      <span className="sr-only">no value</span>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </details>
  );
}
