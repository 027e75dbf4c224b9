import { GRI_GRID_HYPER_MAX, GRI_GRID_HYPO_MAX, GRI_ZONE_WIDTH } from "@/lib/metrics/constants";
import type { GlycemiaRiskIndex, GriZone } from "@/lib/metrics/gri";
import { griZoneLabelPoints, griZoneLines, griZonePolygons, placeOnGriGrid } from "@/lib/metrics/gri-grid";

/**
 * The GRI grid of the AGP report v4 (Klonoff 2023, Figure 5): the hypoglycaemia component across,
 * the hyperglycaemia component up, the zones A–E shaded between the lines 3·x + 1.6·y = 20 … 80
 * and lettered (colour is never the only cue), and one marker per period. Server-drawn SVG, so
 * it prints and renders in the PDF; a table under it gives the same numbers in words.
 */
const W = 300;
const H = 230;
const BOX = { left: 40, right: 10, top: 8, bottom: 38 };
const PLOT_W = W - BOX.left - BOX.right;
const PLOT_H = H - BOX.top - BOX.bottom;
/** How far (drawn units) a zone letter keeps from a period's point: a marker's radius and half a letter. */
const LETTER_CLEARANCE = 16;

/** Green to red, as the AGP report shades the zones; light enough for dark letters in light mode. */
const ZONE_FILL: Record<GriZone, string> = {
  A: "#009E73",
  B: "#8DC63F",
  C: "#F0E442",
  D: "#E69F00",
  E: "#D55E00",
};

export const GRI_ZONE_WORDS: Record<GriZone, string> = {
  A: "lowest risk",
  B: "low risk",
  C: "moderate risk",
  D: "high risk",
  E: "highest risk",
};

export interface GriGridPeriod {
  key: string;
  /** What the period is called in the legend and table ("This period", "Previous 14 days"). */
  label: string;
  /** Its dates, in words, for the table; null when there is nothing to add. */
  dates: string | null;
  /** null: no readings in the period. */
  index: GlycemiaRiskIndex | null;
  /** The marker: the period the page is about is filled, the one it is compared with hollow. */
  marker: "filled" | "hollow";
}

const x = (v: number) => BOX.left + (v / GRI_GRID_HYPO_MAX) * PLOT_W;
const y = (v: number) => BOX.top + PLOT_H - (v / GRI_GRID_HYPER_MAX) * PLOT_H;
const f = (n: number) => n.toFixed(1);

function Marker({ kind, cx, cy }: { kind: GriGridPeriod["marker"]; cx: number; cy: number }) {
  return kind === "filled" ? (
    <circle
      cx={cx}
      cy={cy}
      r={5.5}
      className="fill-slate-900 stroke-white dark:fill-white dark:stroke-slate-900"
      strokeWidth={1.5}
    />
  ) : (
    <rect
      x={cx - 5}
      y={cy - 5}
      width={10}
      height={10}
      transform={`rotate(45 ${cx} ${cy})`}
      className="fill-white stroke-slate-900 dark:fill-slate-900 dark:stroke-white"
      strokeWidth={2}
    />
  );
}

/** Beyond which axis a period's point lies, in words; null when it lies on the grid. */
function beyondText(index: GlycemiaRiskIndex): string | null {
  const { beyond } = placeOnGriGrid(index.hypoComponent, index.hyperComponent);
  const axes = [
    beyond.hypo && `hypoglycaemia component over ${GRI_GRID_HYPO_MAX}%`,
    beyond.hyper && `hyperglycaemia component over ${GRI_GRID_HYPER_MAX}%`,
  ].filter(Boolean);
  return axes.length ? `${axes.join(" and ")}: drawn at the grid's edge` : null;
}

const pct = (v: number) => `${v.toFixed(1)}%`;

/** One period in words: "This period: GRI 12.5, zone A (lowest risk), hypo 4.2%, hyper 0.0%". */
export function griPeriodSentence(p: GriGridPeriod): string {
  if (p.index === null) return `${p.label}: no readings, so no GRI.`;
  const { gri, zone, hypoComponent, hyperComponent } = p.index;
  const beyond = beyondText(p.index);
  return `${p.label}: GRI ${gri.toFixed(1)}, zone ${zone} (${GRI_ZONE_WORDS[zone]}); hypoglycaemia component ${pct(hypoComponent)}, hyperglycaemia component ${pct(hyperComponent)}${beyond ? ` (${beyond})` : ""}.`;
}

export function GriGrid({ periods, id }: { periods: GriGridPeriod[]; id: string }) {
  const zones = griZonePolygons();
  const lines = griZoneLines();
  const shown = periods.filter((p): p is GriGridPeriod & { index: GlycemiaRiskIndex } => p.index !== null);
  const label = `GRI grid: hypoglycaemia component across, hyperglycaemia component up, zones A (lowest risk) to E (highest). ${periods.map(griPeriodSentence).join(" ")}`;
  return (
    <figure
      className="gri-grid flex flex-col gap-x-6 gap-y-2 sm:flex-row sm:items-start print:flex-col print:gap-y-1"
      data-testid="gri-grid"
      aria-labelledby={`${id}-caption`}
    >
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={label}
        className="h-auto w-full max-w-[22rem] shrink-0 text-slate-700 sm:w-[22rem] print:w-full dark:text-slate-300"
      >
        {zones.map(({ zone, points }) => (
          <polygon
            key={zone}
            points={points.map(([a, b]) => `${f(x(a))},${f(y(b))}`).join(" ")}
            fill={ZONE_FILL[zone]}
            fillOpacity={0.45}
            data-zone={zone}
          />
        ))}
        {lines.map(({ gri, from, to }) => (
          <line
            key={gri}
            x1={x(from[0])}
            y1={y(from[1])}
            x2={x(to[0])}
            y2={y(to[1])}
            stroke="currentColor"
            strokeOpacity={0.6}
            strokeDasharray="3 2"
          />
        ))}
        {griZoneLabelPoints(
          shown.map((p) => placeOnGriGrid(p.index.hypoComponent, p.index.hyperComponent).at),
          [PLOT_W / GRI_GRID_HYPO_MAX, PLOT_H / GRI_GRID_HYPER_MAX],
          LETTER_CLEARANCE,
        ).map(({ zone, at: [cx, cy] }) => {
          return (
            <text
              key={zone}
              x={x(cx)}
              y={y(cy) + 5}
              textAnchor="middle"
              fontSize={15}
              fontWeight={700}
              className="fill-slate-900 dark:fill-white"
            >
              {zone}
            </text>
          );
        })}
        <rect x={BOX.left} y={BOX.top} width={PLOT_W} height={PLOT_H} fill="none" stroke="currentColor" />
        {[0, 5, 10, 15, 20, 25, 30].map((v) => (
          <text
            key={`x${v}`}
            x={x(v)}
            y={H - BOX.bottom + 14}
            textAnchor="middle"
            fontSize={11}
            fill="currentColor"
          >
            {v}
          </text>
        ))}
        {[0, 10, 20, 30, 40, 50, 60].map((v) => (
          <text
            key={`y${v}`}
            x={BOX.left - 5}
            y={y(v) + 4}
            textAnchor="end"
            fontSize={11}
            fill="currentColor"
          >
            {v}
          </text>
        ))}
        <text x={BOX.left + PLOT_W / 2} y={H - 4} textAnchor="middle" fontSize={11} fill="currentColor">
          Hypoglycaemia component (%)
        </text>
        <text
          x={11}
          y={BOX.top + PLOT_H / 2}
          textAnchor="middle"
          fontSize={11}
          fill="currentColor"
          transform={`rotate(-90 11 ${BOX.top + PLOT_H / 2})`}
        >
          Hyperglycaemia component (%)
        </text>
        {/* The period compared with first, so the current one is drawn on top of it. */}
        {[...shown].reverse().map((p) => {
          const { at } = placeOnGriGrid(p.index.hypoComponent, p.index.hyperComponent);
          return (
            <g key={p.key} data-period={p.key} data-zone={p.index.zone}>
              <Marker kind={p.marker} cx={x(at[0])} cy={y(at[1])} />
            </g>
          );
        })}
      </svg>
      <div className="space-y-2 print:space-y-1">
        <p id={`${id}-caption`} className="gri-grid-caption text-xs text-slate-700 dark:text-slate-300">
          <span className="font-medium text-slate-900 dark:text-slate-100">GRI grid.</span> Zone lines where
          GRI = 3 × hypo + 1.6 × hyper is {GRI_ZONE_WIDTH}, {2 * GRI_ZONE_WIDTH}, {3 * GRI_ZONE_WIDTH},{" "}
          {4 * GRI_ZONE_WIDTH}; A lowest risk, E highest.
        </p>
        <table
          className="gri-grid-table w-full max-w-[22rem] text-left text-xs tabular-nums"
          data-testid="gri-table"
        >
          <caption className="sr-only">GRI, zone and components of each period</caption>
          <thead>
            <tr className="border-b border-slate-300 dark:border-slate-700">
              <th scope="col" className="py-0.5 pr-2 font-semibold">
                Period
              </th>
              <th scope="col" className="px-1 text-right font-semibold">
                GRI
              </th>
              <th scope="col" className="px-1 font-semibold">
                Zone
              </th>
              <th scope="col" className="px-1 text-right font-semibold">
                Hypo
              </th>
              <th scope="col" className="pl-1 text-right font-semibold">
                Hyper
              </th>
            </tr>
          </thead>
          <tbody>
            {periods.map((p) => {
              const beyond = p.index && beyondText(p.index);
              return (
                <tr key={p.key} data-period={p.key}>
                  <th scope="row" className="py-0.5 pr-2 font-normal">
                    <span className="inline-flex items-center gap-1">
                      <svg viewBox="0 0 16 16" aria-hidden="true" className="h-3.5 w-3.5 shrink-0">
                        <Marker kind={p.marker} cx={8} cy={8} />
                      </svg>
                      <span>
                        {p.label}
                        {p.dates && (
                          <span className="gri-dates block text-slate-700 dark:text-slate-300">
                            {p.dates}
                          </span>
                        )}
                        {beyond && <span className="block">{beyond}</span>}
                      </span>
                    </span>
                  </th>
                  {p.index === null ? (
                    <td colSpan={4} className="px-1">
                      no readings
                    </td>
                  ) : (
                    <>
                      <td className="px-1 text-right font-semibold">{p.index.gri.toFixed(1)}</td>
                      <td className="px-1" data-zone={p.index.zone}>
                        {p.index.zone}
                      </td>
                      <td className="px-1 text-right">{pct(p.index.hypoComponent)}</td>
                      <td className="pl-1 text-right">{pct(p.index.hyperComponent)}</td>
                    </>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
