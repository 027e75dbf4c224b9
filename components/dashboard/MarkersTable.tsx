"use client";

import { useState } from "react";
import { Blank, RecordTable } from "@/components/records/RecordTable";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { markerRows } from "@/lib/dashboard/markers";
import type { CalibrationMarker, EventMarker } from "@/lib/dashboard/overview-model";
import type { AlertSounding } from "@/lib/records/alerts";
import { formatDisplayTime } from "@/lib/trace";

/**
 * Rows sent in the page while the list is closed. 90 days hold over a thousand markers (325 kB of
 * HTML for a list nobody has opened); the rest are drawn when the list is opened, from the
 * markers the trace already holds.
 */
export const ROWS_WHILE_CLOSED = 50;

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
  const [open, setOpen] = useState(false);
  const all = markerRows(events, calibrations, unit, alerts);
  if (all.length === 0) return null;
  const rows = open ? all : all.slice(0, ROWS_WHILE_CLOSED);
  const what = [
    events.length > 0 && `${events.length} ${events.length === 1 ? "event" : "events"}`,
    calibrations.length > 0 &&
      `${calibrations.length} ${calibrations.length === 1 ? "calibration" : "calibrations"}`,
    alerts.length > 0 && `${alerts.length} ${alerts.length === 1 ? "alert" : "alerts"}`,
  ]
    .filter((x): x is string => typeof x === "string")
    .join(", ")
    .replace(/, ([^,]*)$/, " and $1");
  const listed = alerts.length > 0 ? "Events, calibrations and alerts" : "Events and calibrations";
  return (
    <details
      className="text-sm"
      data-testid="markers-table"
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary className="cursor-pointer font-medium text-blue-800 dark:text-blue-300">
        The trace&apos;s {alerts.length > 0 ? "events, calibrations and alerts" : "events and calibrations"}{" "}
        as a table ({what})
      </summary>
      <RecordTable
        caption={`${listed} on the trace, newest first`}
        label={`${listed} on the trace`}
        captionHidden
        fitWidth
        capped
      >
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
                {r.valueText ?? <Blank label="no value" />}
              </td>
            </tr>
          ))}
        </tbody>
      </RecordTable>
      {rows.length < all.length && (
        <p className="mt-2 text-slate-700 dark:text-slate-300" data-testid="markers-table-partial">
          The newest {rows.length} of {all.length.toLocaleString("en-GB")} are listed. With JavaScript on,
          this list holds them all; the events, calibrations and alerts pages list every one too.
        </p>
      )}
    </details>
  );
}
