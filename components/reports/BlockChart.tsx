import { Blank } from "@/components/records/RecordTable";
import { RANGE_COLOURS } from "@/lib/dashboard/palette";
import type { BlockRow } from "@/lib/reports/comparison/comparison-view";
import { CompareTableFrame, CT_COL, CT_ROW, CT_TD, CT_TR } from "./CompareTableFrame";

// The drawing's own coordinates; the SVG scales to the width it is given.
const W = 320;
const H = 180;
const M = { left: 36, right: 8, top: 8, bottom: 36 };
const PLOT_W = W - M.left - M.right;
const PLOT_H = H - M.top - M.bottom;
const BAR = 12;
const EARLIER = "#64748B";
const RECENT = RANGE_COLOURS.inRange;

const y = (percent: number) => M.top + PLOT_H * (1 - percent / 100);

/**
 * Time in range within each 3-hour block of the day, for both periods: earlier hatched grey,
 * recent solid green, so the two differ in pattern as well as colour. The drawing is for sighted
 * readers; the table beside it holds the same numbers (and each block's contribution) for all.
 */
export function BlockChart({
  rows,
  show,
  clock = "your receiver's clock",
}: {
  rows: BlockRow[];
  show: { earlier: boolean; recent: boolean };
  clock?: string;
}) {
  const group = PLOT_W / rows.length;
  return (
    <figure className="space-y-2">
      <figcaption className="text-sm text-slate-700 dark:text-slate-300">
        {`Time in range within each 3-hour block of the day (${clock})`}
        {show.earlier && show.recent ? ", earlier and recent period" : ""}. The table below lists the same
        numbers.
      </figcaption>
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-hidden="true">
        {show.earlier && (
          <span className="inline-flex items-center gap-2">
            <svg width="16" height="12" aria-hidden="true">
              <rect x="0.5" y="0.5" width="15" height="11" fill="url(#block-hatch)" stroke={EARLIER} />
            </svg>
            Earlier period (hatched)
          </span>
        )}
        {show.recent && (
          <span className="inline-flex items-center gap-2">
            <svg width="16" height="12" aria-hidden="true">
              <rect x="0" y="0" width="16" height="12" fill={RECENT} />
            </svg>
            Recent period (solid)
          </span>
        )}
      </div>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="block h-auto w-full max-w-sm text-slate-700 dark:text-slate-300"
        aria-hidden="true"
        data-testid="block-chart"
      >
        <defs>
          <pattern
            id="block-hatch"
            width="4"
            height="4"
            patternUnits="userSpaceOnUse"
            patternTransform="rotate(45)"
          >
            <rect width="4" height="4" fill="transparent" />
            <line x1="0" y1="0" x2="0" y2="4" stroke={EARLIER} strokeWidth="2.5" />
          </pattern>
        </defs>
        {[0, 50, 100].map((p) => (
          <g key={p}>
            <line
              x1={M.left}
              x2={W - M.right}
              y1={y(p)}
              y2={y(p)}
              stroke="currentColor"
              strokeOpacity={p === 0 ? 0.8 : 0.25}
            />
            <text x={M.left - 4} y={y(p) + 4} textAnchor="end" fontSize="12" fill="currentColor">
              {p}%
            </text>
          </g>
        ))}
        {rows.map((r, i) => {
          const x0 = M.left + i * group;
          const mid = x0 + group / 2;
          return (
            <g key={r.label}>
              {show.earlier && r.earlierInRange !== null && (
                <rect
                  x={mid - BAR - 1}
                  y={y(r.earlierInRange)}
                  width={BAR}
                  height={PLOT_H * (r.earlierInRange / 100)}
                  fill="url(#block-hatch)"
                  stroke={EARLIER}
                />
              )}
              {show.recent && r.recentInRange !== null && (
                <rect
                  x={show.earlier ? mid + 1 : mid - BAR / 2}
                  y={y(r.recentInRange)}
                  width={BAR}
                  height={PLOT_H * (r.recentInRange / 100)}
                  fill={RECENT}
                />
              )}
              <text x={x0} y={H - M.bottom + 15} textAnchor="middle" fontSize="12" fill="currentColor">
                {r.label.slice(0, 2)}
              </text>
            </g>
          );
        })}
        <text x={W - M.right} y={H - M.bottom + 15} textAnchor="middle" fontSize="12" fill="currentColor">
          24
        </text>
        <text x={M.left + PLOT_W / 2} y={H - 4} textAnchor="middle" fontSize="12" fill="currentColor">
          Hour of the day
        </text>
      </svg>
    </figure>
  );
}

/** The chart's numbers, with each block's part of the readings and its contribution to the change. */
export function BlockTable({
  rows,
  show,
}: {
  rows: BlockRow[];
  show: { earlier: boolean; recent: boolean };
}) {
  const both = show.earlier && show.recent;
  return (
    <CompareTableFrame
      id="block-table-caption"
      caption="Time in range within each block, the block's share of the period's readings, and the block's contribution to the change of time in range (percentage points)."
    >
      <thead>
        <tr>
          <th scope="col" className={CT_COL}>
            Time of day
          </th>
          {show.earlier && (
            <>
              <th scope="col" className={`${CT_COL} text-right`}>
                Earlier: in range
              </th>
              <th scope="col" className={`${CT_COL} text-right`}>
                Earlier: share of readings
              </th>
            </>
          )}
          {show.recent && (
            <>
              <th scope="col" className={`${CT_COL} text-right`}>
                Recent: in range
              </th>
              <th scope="col" className={`${CT_COL} text-right`}>
                Recent: share of readings
              </th>
            </>
          )}
          {both && (
            <th scope="col" className={`${CT_COL} text-right`}>
              Contribution (points)
            </th>
          )}
        </tr>
      </thead>
      <tbody data-testid="block-table">
        {rows.map((r) => (
          <tr key={r.label} className={CT_TR}>
            <th scope="row" className={`${CT_ROW} whitespace-nowrap`}>
              {r.label}
            </th>
            {show.earlier && (
              <>
                <td data-label="Earlier: in range" className={`${CT_TD} text-right tabular-nums`}>
                  {r.earlierText ?? <Blank label="no readings" />}
                </td>
                <td data-label="Earlier: share of readings" className={`${CT_TD} text-right tabular-nums`}>
                  {r.earlierWeight ?? <Blank />}
                </td>
              </>
            )}
            {show.recent && (
              <>
                <td data-label="Recent: in range" className={`${CT_TD} text-right tabular-nums`}>
                  {r.recentText ?? <Blank label="no readings" />}
                </td>
                <td data-label="Recent: share of readings" className={`${CT_TD} text-right tabular-nums`}>
                  {r.recentWeight ?? <Blank />}
                </td>
              </>
            )}
            {both && (
              <td data-label="Contribution (points)" className={`${CT_TD} text-right tabular-nums`}>
                {r.contribution === null ? <Blank /> : r.contribution}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </CompareTableFrame>
  );
}
