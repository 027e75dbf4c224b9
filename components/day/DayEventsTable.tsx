import { EVENT_COLUMNS, EventCells } from "@/components/records/EventColumns";
import { ColumnHeads, RecordTable, TH_ROW, TR } from "@/components/records/RecordTable";
import type { DayEvent } from "@/lib/dashboard/day-model";

/** The day's events in the order they happened; the time is the receiver's clock, as the patient saw it. */
export function DayEventsTable({ events }: { events: DayEvent[] }) {
  return (
    <RecordTable
      caption={`${events.length} ${events.length === 1 ? "event" : "events"}, in the order they happened`}
    >
      <ColumnHeads names={EVENT_COLUMNS} />
      <tbody>
        {events.map((e) => (
          <tr key={e.key} className={TR}>
            <th scope="row" className={`${TH_ROW} tabular-nums`}>
              <time dateTime={e.displayTime}>{e.clock}</time>
            </th>
            <EventCells row={e} />
          </tr>
        ))}
      </tbody>
    </RecordTable>
  );
}
