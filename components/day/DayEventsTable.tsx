import { Blank, RecordTable, TD, TH_COL, TH_ROW, TR } from "@/components/records/RecordTable";
import type { DayEvent } from "@/lib/dashboard/day-model";

/** The day's events in the order they happened; the time is the receiver's clock, as the patient saw it. */
export function DayEventsTable({ events }: { events: DayEvent[] }) {
  return (
    <RecordTable
      caption={`${events.length} ${events.length === 1 ? "event" : "events"}, in the order they happened`}
    >
      <thead>
        <tr>
          <th scope="col" className={TH_COL}>
            Time (receiver)
          </th>
          <th scope="col" className={TH_COL}>
            Type
          </th>
          <th scope="col" className={TH_COL}>
            Detail
          </th>
          <th scope="col" className={TH_COL}>
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <tr key={e.key} className={TR}>
            <th scope="row" className={`${TH_ROW} tabular-nums`}>
              <time dateTime={e.displayTime}>{e.clock}</time>
            </th>
            <td data-label="Type" className={TD}>
              {e.type}
            </td>
            <td data-label="Detail" className={TD}>
              {e.detail ?? <Blank />}
            </td>
            <td data-label="Amount" className={`${TD} whitespace-nowrap tabular-nums`}>
              {e.amount ?? <Blank label="no value" />}
            </td>
          </tr>
        ))}
      </tbody>
    </RecordTable>
  );
}
