import { Blank } from "@/components/records/RecordTable";
import type { ChangeText, ComparisonRow } from "@/lib/reports/comparison/comparison-view";
import { CompareTableFrame, CT_COL, CT_ROW, CT_TD, CT_TR } from "./CompareTableFrame";

/**
 * Better and worse: the word always, a shape for each (✓ and !), and a colour from the Okabe–Ito
 * pair blue/vermillion that the common colour-vision deficiencies keep apart. Colour is the third
 * cue, never the only one.
 */
const JUDGEMENT = {
  better: {
    mark: "✓",
    className:
      "border-blue-700 bg-blue-50 text-blue-900 dark:border-blue-300 dark:bg-blue-950 dark:text-blue-100",
  },
  worse: {
    mark: "!",
    className:
      "border-orange-700 bg-orange-50 text-orange-950 dark:border-orange-300 dark:bg-orange-950 dark:text-orange-100",
  },
} as const;

function ChangeCell({ change }: { change: ChangeText }) {
  if (change.direction === "same") return <span>no change</span>;
  const j = change.judgement && JUDGEMENT[change.judgement];
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
      <span className="tabular-nums">
        <span aria-hidden="true">{change.direction === "up" ? "▲ " : "▼ "}</span>
        {change.direction} <span className="whitespace-nowrap">{change.amount}</span>
      </span>
      {j && change.judgement && (
        <span
          className={`inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-semibold ${j.className}`}
        >
          <span aria-hidden="true">{j.mark}</span>
          <span className="sr-only">, </span>
          {change.judgement}
        </span>
      )}
    </span>
  );
}

/**
 * The metrics of both periods and their changes. With one period missing (no readings) only the
 * other's values are listed: there is nothing to compare.
 */
export function ComparisonTable({
  rows,
  earlierLabel,
  recentLabel,
  show,
}: {
  rows: ComparisonRow[];
  earlierLabel: string;
  recentLabel: string;
  show: { earlier: boolean; recent: boolean };
}) {
  const both = show.earlier && show.recent;
  return (
    <CompareTableFrame
      id="comparison-table-caption"
      caption={
        both
          ? "Each metric in the earlier and the recent period, and its change"
          : `Each metric in the ${show.recent ? "recent" : "earlier"} period`
      }
    >
      <thead>
        <tr>
          <th scope="col" className={CT_COL}>
            Metric
          </th>
          {show.earlier && (
            <th scope="col" className={`${CT_COL} text-right`}>
              {earlierLabel}
            </th>
          )}
          {show.recent && (
            <th scope="col" className={`${CT_COL} text-right`}>
              {recentLabel}
            </th>
          )}
          {both && (
            <th scope="col" className={CT_COL}>
              Change
            </th>
          )}
        </tr>
      </thead>
      <tbody data-testid="comparison-table">
        {rows.map((r) => (
          <tr key={r.key} className={CT_TR} data-metric={r.key}>
            <th scope="row" className={CT_ROW}>
              {r.label}
              {r.note && (
                <span className="block text-xs font-normal text-slate-700 dark:text-slate-300">{r.note}</span>
              )}
            </th>
            {show.earlier && (
              <td
                className={`${CT_TD} text-right tabular-nums`}
                data-period="earlier"
                data-label={earlierLabel}
              >
                {r.earlier ?? <Blank label="no readings" />}
              </td>
            )}
            {show.recent && (
              <td
                className={`${CT_TD} text-right tabular-nums`}
                data-period="recent"
                data-label={recentLabel}
              >
                {r.recent ?? <Blank label="no readings" />}
              </td>
            )}
            {both && (
              <td className={CT_TD} data-period="change" data-label="Change">
                {r.change ? <ChangeCell change={r.change} /> : <Blank label="no change to show" />}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </CompareTableFrame>
  );
}
