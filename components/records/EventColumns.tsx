import type { EventRow } from "@/lib/records/events";
import { Blank, TD } from "./RecordTable";

/**
 * The columns of every list of events (the events page, the day view), defined once: the time
 * (each list writes its own: a date and time, or the day's clock), then the cells below.
 */
export const EVENT_COLUMNS = ["Time (receiver)", "Type", "Detail", "Amount"] as const;

/**
 * An event's type, detail and amount cells. `struck` (the events page's strike-through of a
 * deleted event, or "") is added to each cell's classes when given.
 */
export function EventCells({ row, struck }: { row: EventRow; struck?: string }) {
  const withStruck = (classes: string) => (struck === undefined ? classes : `${classes} ${struck}`);
  return (
    <>
      <td data-label="Type" className={withStruck(TD)}>
        {row.type}
      </td>
      <td data-label="Detail" className={withStruck(TD)}>
        {row.detail ?? <Blank />}
      </td>
      <td data-label="Amount" className={withStruck(`${TD} whitespace-nowrap tabular-nums`)}>
        {row.amount ?? <Blank label="no value" />}
      </td>
    </>
  );
}
