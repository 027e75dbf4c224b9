import type { GlucoseUnit } from "@/lib/cgm/units";
import type { TraceTableRow } from "@/lib/trace";

/**
 * The chart's text alternative: the trace as rows of lowest, mean and highest. Below 480 px each
 * row is its hour or day and the labelled numbers in a line (stack-narrow stack-inline, app/globals.css).
 */
export function TraceTable({
  rows,
  unit,
  by,
}: {
  rows: TraceTableRow[];
  unit: GlucoseUnit;
  by: "hour" | "day";
}) {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer font-medium text-blue-800 dark:text-blue-300">
        The trace as a table ({by === "hour" ? "per hour" : "per day"})
      </summary>
      <section
        aria-label={`Glucose ${by === "hour" ? "per hour" : "per day"}, in ${unit}`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to be scrolled (WCAG 2.1.1).
        tabIndex={0}
        className="relative mt-2 max-h-96 overflow-auto rounded-lg focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-400"
      >
        <table className="stack-narrow stack-inline w-full text-left" data-testid="trace-table">
          <caption className="sr-only">
            Glucose {by === "hour" ? "per hour" : "per day"}, in {unit}
          </caption>
          <thead>
            <tr className="border-b border-slate-300 dark:border-slate-700">
              <th scope="col" className="py-1 pr-3">
                {by === "hour" ? "Hour" : "Day"}
              </th>
              <th scope="col" className="py-1 pr-3 text-right">
                Lowest
              </th>
              <th scope="col" className="py-1 pr-3 text-right">
                Mean
              </th>
              <th scope="col" className="py-1 pr-3 text-right">
                Highest
              </th>
              <th scope="col" className="py-1 text-right">
                Readings
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.label} className="border-b border-slate-200 dark:border-slate-800">
                <th scope="row" className="py-1 pr-3 font-normal">
                  {r.label}
                </th>
                <td data-label="Lowest" className="py-1 pr-3 text-right tabular-nums">
                  {r.lowest}
                </td>
                <td data-label="Mean" className="py-1 pr-3 text-right tabular-nums">
                  {r.mean}
                </td>
                <td data-label="Highest" className="py-1 pr-3 text-right tabular-nums">
                  {r.highest}
                </td>
                <td data-label="Readings" className="py-1 text-right tabular-nums">
                  {r.readings}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </details>
  );
}
