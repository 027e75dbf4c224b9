import { Blank } from "@/components/records/RecordTable";
import type { GlucoseUnit } from "@/lib/cgm/units";
import type { EpisodesView } from "@/lib/reports/episodes-view";

/**
 * The CGM episodes of a period, one row per kind of the 2023 consensus (computed as its research
 * reference, iglu, does): how many, per day of sensor time, their mean duration and mean glucose,
 * and for lows how many started at night (00:00–06:00 on the receiver's clock). Below 480 px each
 * kind stacks over its labelled numbers (stack-narrow, app/globals.css).
 */
export function EpisodesTable({
  view,
  unit,
  caption,
}: {
  view: EpisodesView;
  unit: GlucoseUnit;
  caption?: string;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="episodes-table stack-narrow w-full text-left text-sm" data-testid="episodes-table">
        {caption && <caption className="text-left text-sm font-medium print:text-xs">{caption}</caption>}
        <thead>
          <tr className="border-b border-slate-300 dark:border-slate-700">
            <th scope="col" className="py-1 pr-2 font-medium">
              Episode<span className="hidden print:inline"> ({unit})</span>
            </th>
            <th scope="col" className="py-1 pr-2 text-right font-medium">
              Count
            </th>
            <th scope="col" className="py-1 pr-2 text-right font-medium">
              Per day
            </th>
            <th scope="col" className="py-1 pr-2 text-right font-medium">
              Mean duration
            </th>
            <th scope="col" className="py-1 pr-2 text-right font-medium">
              Mean glucose <span className="sr-only">({unit})</span>
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              At night
            </th>
          </tr>
        </thead>
        <tbody>
          {view.rows.map((r) => (
            <tr
              key={r.kind}
              data-kind={r.kind}
              className="border-b border-slate-200 last:border-0 dark:border-slate-800"
            >
              <th scope="row" className="py-1 pr-2 font-normal">
                <span className="font-semibold">{r.name}</span>{" "}
                <span className="block text-xs font-normal text-slate-700 print:hidden dark:text-slate-300">
                  {r.rule}
                </span>
                {/* On paper the table is narrow: the limit alone, its unit in the header. */}
                <span className="hidden print:inline">{r.shortRule}</span>
              </th>
              <td data-label="Count" className="py-1 pr-2 text-right font-semibold tabular-nums">
                {r.count}
              </td>
              <td data-label="Per day" className="py-1 pr-2 text-right tabular-nums">
                {r.perDayText}
              </td>
              <td data-label="Mean duration" className="py-1 pr-2 text-right tabular-nums">
                {r.meanDurationText ?? <Blank label="no episode" />}
              </td>
              <td data-label="Mean glucose" className="py-1 pr-2 text-right tabular-nums">
                {r.meanGlucoseText ?? <Blank label="no episode" />}
              </td>
              <td data-label="At night" className="py-1 text-right tabular-nums">
                {r.atNight ?? <Blank label="not counted for highs" />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
