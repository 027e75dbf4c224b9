import { type AlertSounding, soundedAlertLabel, soundedForText } from "@/lib/records/alerts";
import { Blank, ColumnHeads, DisplayTime, RecordTable, TD, TH_ROW, TR } from "./RecordTable";

const ENDED: Record<AlertSounding["end"], string> = {
  acknowledged: "Acknowledged (snoozed)",
  cleared: "Condition cleared",
  open: "No later record",
};

/** Alert soundings newest first: which alert, when it started sounding, how long, how it stopped. */
export function AlertsTable({ caption, soundings }: { caption: string; soundings: AlertSounding[] }) {
  return (
    <RecordTable caption={caption}>
      <ColumnHeads names={["Started (receiver)", "Alert", "Sounded for", "Stopped"]} />
      <tbody>
        {soundings.map((s) => (
          <tr key={`${s.alertName}|${s.systemTime}`} data-alert={s.alertName} data-end={s.end} className={TR}>
            <th scope="row" className={TH_ROW}>
              <DisplayTime value={s.displayTime} />
            </th>
            <td data-label="Alert" className={TD}>
              {soundedAlertLabel(s.alertName)}
              {s.repeat && (
                <span className="text-slate-700 dark:text-slate-300"> (again after a snooze)</span>
              )}
            </td>
            <td data-label="Sounded for" className={`${TD} whitespace-nowrap tabular-nums`}>
              {s.seconds === null ? <Blank label="not known" /> : soundedForText(s.seconds)}
            </td>
            <td data-label="Stopped" className={TD}>
              {ENDED[s.end]}
            </td>
          </tr>
        ))}
      </tbody>
    </RecordTable>
  );
}
