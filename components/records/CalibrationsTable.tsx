import type { CalibrationRow } from "@/lib/records/calibrations";
import { ColumnHeads, DisplayTime, RecordTable, TD, TH_ROW, TR } from "./RecordTable";

/** Fingerstick calibrations newest first, in the display unit (and as entered, when that differs). */
export function CalibrationsTable({ caption, rows }: { caption: string; rows: CalibrationRow[] }) {
  const converted = rows.some((r) => r.enteredText !== null);
  return (
    <RecordTable caption={caption}>
      <ColumnHeads names={["Time (receiver)", "Value", converted && "As entered"]} />
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} className={TR}>
            <th scope="row" className={TH_ROW}>
              <DisplayTime value={r.displayTime} />
            </th>
            <td data-label="Value" className={`${TD} whitespace-nowrap tabular-nums`}>
              {r.valueText}
            </td>
            {converted && (
              <td
                data-label="As entered"
                className={`${TD} whitespace-nowrap tabular-nums text-slate-700 dark:text-slate-300`}
              >
                {r.enteredText ?? r.valueText}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </RecordTable>
  );
}
