import type { CgmEvent } from "@/lib/cgm/app-records";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { eventRow } from "@/lib/records/events";
import { EVENT_COLUMNS, EventCells } from "./EventColumns";
import { ColumnHeads, DisplayTime, RecordTable, TD, TH_ROW, TR } from "./RecordTable";

/**
 * Events newest first; a deleted event is struck through and labelled "Deleted"; a changed one
 * (API v3 `updated`) is shown as it now is, labelled "Changed". Meter readings are shown in
 * `glucoseUnit` (the patient's choice; null: as logged).
 */
export function EventsTable({
  caption,
  events,
  glucoseUnit = null,
}: {
  caption: string;
  events: CgmEvent[];
  glucoseUnit?: GlucoseUnit | null;
}) {
  return (
    <RecordTable caption={caption}>
      <ColumnHeads names={[...EVENT_COLUMNS, "Status"]} />
      <tbody>
        {events.map((e) => {
          const deleted = e.eventStatus === "deleted";
          const struck = deleted ? "line-through decoration-2" : "";
          return (
            <tr
              key={e.eventId}
              data-status={e.eventStatus}
              className={`${TR} ${deleted ? "bg-slate-50 text-slate-700 dark:bg-slate-950 dark:text-slate-400" : ""}`}
            >
              <th scope="row" className={`${TH_ROW} ${struck}`}>
                <DisplayTime value={e.displayTime} />
              </th>
              <EventCells row={eventRow(e, glucoseUnit)} struck={struck} />
              <td data-label="Status" className={TD}>
                {deleted ? (
                  <span className="rounded bg-red-100 px-2 py-0.5 text-xs font-semibold uppercase tracking-wide text-red-900 dark:bg-red-950 dark:text-red-200">
                    Deleted
                  </span>
                ) : e.eventStatus === "updated" ? (
                  "Changed"
                ) : (
                  "Recorded"
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </RecordTable>
  );
}
