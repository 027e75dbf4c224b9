import { displayValue } from "@/lib/cgm/values";
import type { AgpReport } from "@/lib/reports/agp-model";
import { formatGlucoseNumber } from "@/lib/trace/format";

/**
 * The AGP chart, drawn on the server as SVG: it paints with the HTML, prints crisply and renders
 * in the PDF without JavaScript. 5–95 and 25–75 percentile bands, the median, the target range.
 * Screen readers get the chart's summary as its name and the hourly values as a table.
 */
const W = 720;
const H = 250;
const BOX = { left: 44, right: 22, top: 8, bottom: 22 };
const PLOT_W = W - BOX.left - BOX.right;
const PLOT_H = H - BOX.top - BOX.bottom;
const BAND_COLOUR = "#0072B2";

const clock = (minute: number) =>
  `${String(Math.floor(minute / 60) % 24).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

type Point = NonNullable<AgpReport["agp"][number]>;

/** Runs of consecutive non-null points: a band is drawn only where the data holds it up. */
function runs(points: AgpReport["agp"]): Point[][] {
  const out: Point[][] = [];
  let run: Point[] = [];
  for (const p of points) {
    if (p === null) {
      if (run.length) out.push(run);
      run = [];
    } else run.push(p);
  }
  if (run.length) out.push(run);
  // The day is a circle: a run ending at 23:45 continues into one starting at 00:00, drawn to 24:00.
  return out;
}

/** Label positions (ascending values, so descending y) at least 12 px apart, lower ones pushed down. */
function spreadLabels(ys: number[]): number[] {
  const out = [...ys];
  for (let i = out.length - 2; i >= 0; i--) {
    if (out[i]! - out[i + 1]! < 12) out[i] = out[i + 1]! + 12;
  }
  return out;
}

export function agpSummary(report: AgpReport): string {
  const points = report.agp.filter((p): p is Point => p !== null);
  if (points.length === 0) return "Too few readings to draw a profile.";
  let low = points[0]!;
  let high = points[0]!;
  for (const p of points) {
    if (p.p50 < low.p50) low = p;
    if (p.p50 > high.p50) high = p;
  }
  const u = report.unit;
  return `Median glucose by time of day, lowest ${displayValue(low.p50, u)} ${u} around ${clock(low.minute)}, highest ${displayValue(high.p50, u)} ${u} around ${clock(high.minute)}.`;
}

export function AgpChart({ report }: { report: AgpReport }) {
  const { axis, target } = report;
  const x = (minute: number) => BOX.left + (minute / 1440) * PLOT_W;
  const y = (v: number) =>
    BOX.top + ((axis.max - Math.min(axis.max, Math.max(axis.min, v))) / (axis.max - axis.min)) * PLOT_H;
  const f = (n: number) => n.toFixed(1);
  const area = (run: Point[], lo: keyof Point, hi: keyof Point) => {
    const top = run.map((p) => `${f(x(p.minute))},${f(y(p[hi]))}`);
    const bottom = run.map((p) => `${f(x(p.minute))},${f(y(p[lo]))}`).reverse();
    return `M${top.join("L")}L${bottom.join("L")}Z`;
  };
  const line = (run: Point[]) => `M${run.map((p) => `${f(x(p.minute))},${f(y(p.p50))}`).join("L")}`;
  const summary = agpSummary(report);
  // 54 and 70 mg/dL lie 10 px apart: labels closer than 12 px are pushed apart downwards.
  const labelYs = spreadLabels(axis.ticks.map((v) => y(v) + 4));
  return (
    <figure className="agp-chart" data-testid="agp-chart">
      {/* On a phone the chart keeps a readable size and scrolls sideways. */}
      <section
        className="overflow-x-auto print:overflow-visible"
        aria-label="Ambulatory glucose profile, scrolls sideways"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
        tabIndex={0}
      >
        <svg
          viewBox={`0 0 ${W} ${H}`}
          role="img"
          aria-label={`Ambulatory glucose profile. ${summary}`}
          className="h-auto w-full min-w-[34rem] text-slate-700 print:min-w-0 dark:text-slate-300"
        >
          <rect
            x={BOX.left}
            width={PLOT_W}
            y={y(target.high)}
            height={y(target.low) - y(target.high)}
            fill="#009E73"
            fillOpacity={0.1}
          />
          {axis.ticks.map((v, i) => (
            <g key={v}>
              <line
                x1={BOX.left}
                x2={W - BOX.right}
                y1={y(v)}
                y2={y(v)}
                stroke={v === target.low || v === target.high ? "#009E73" : "currentColor"}
                strokeOpacity={v === target.low || v === target.high ? 1 : 0.25}
                strokeWidth={v === target.low || v === target.high ? 1.5 : 1}
              />
              <text x={BOX.left - 6} y={labelYs[i]} textAnchor="end" fontSize={11} fill="currentColor">
                {formatGlucoseNumber(v, report.unit)}
              </text>
            </g>
          ))}
          {[0, 180, 360, 540, 720, 900, 1080, 1260, 1440].map((m) => (
            <g key={m}>
              <line
                x1={x(m)}
                x2={x(m)}
                y1={BOX.top}
                y2={H - BOX.bottom}
                stroke="currentColor"
                strokeOpacity={0.12}
              />
              <text x={x(m)} y={H - 6} textAnchor="middle" fontSize={11} fill="currentColor">
                {clock(m)}
              </text>
            </g>
          ))}
          {runs(report.agp).map((run) => (
            <g key={run[0]!.minute}>
              <path d={area(run, "p5", "p95")} fill={BAND_COLOUR} fillOpacity={0.18} />
              <path d={area(run, "p25", "p75")} fill={BAND_COLOUR} fillOpacity={0.42} />
              <path
                d={line(run)}
                fill="none"
                stroke="#00375A"
                strokeWidth={2.2}
                className="dark:stroke-sky-200"
              />
            </g>
          ))}
          <text x={BOX.left + 4} y={BOX.top + 12} fontSize={11} fill="currentColor">
            {report.unit}
          </text>
        </svg>
      </section>
      <figcaption className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700 dark:text-slate-300">
        <span className="flex items-center gap-1">
          <span aria-hidden="true" className="inline-block h-0.5 w-5 bg-[#00375A] dark:bg-sky-200" /> Median
          (50%)
        </span>
        <span className="flex items-center gap-1">
          <span
            aria-hidden="true"
            className="inline-block h-3 w-5"
            style={{ background: BAND_COLOUR, opacity: 0.5 }}
          />{" "}
          25–75%
        </span>
        <span className="flex items-center gap-1">
          <span
            aria-hidden="true"
            className="inline-block h-3 w-5"
            style={{ background: BAND_COLOUR, opacity: 0.22 }}
          />{" "}
          5–95%
        </span>
        <span className="flex items-center gap-1">
          <span aria-hidden="true" className="inline-block h-0.5 w-5 bg-[#009E73]" /> Target range{" "}
          {formatGlucoseNumber(target.low, report.unit)}–{formatGlucoseNumber(target.high, report.unit)}{" "}
          {report.unit}
        </span>
      </figcaption>
      <details className="mt-2 text-sm print:hidden">
        <summary className="cursor-pointer font-medium">The profile as a table (every hour)</summary>
        <AgpTable report={report} />
      </details>
    </figure>
  );
}

function AgpTable({ report }: { report: AgpReport }) {
  const hourly = report.agp.filter((p): p is Point => p !== null && p.minute % 60 === 0);
  // A percentile that is a sentinel (39 or 401) reads LOW or HIGH, like any reading.
  const v = (n: number) => displayValue(n, report.unit);
  return (
    <table className="mt-2 w-full text-right tabular-nums">
      <caption className="sr-only">Glucose percentiles by hour of the day, {report.unit}</caption>
      <thead>
        <tr>
          <th scope="col" className="text-left">
            Time
          </th>
          <th scope="col">5%</th>
          <th scope="col">25%</th>
          <th scope="col">Median</th>
          <th scope="col">75%</th>
          <th scope="col">95%</th>
          <th scope="col">Readings</th>
        </tr>
      </thead>
      <tbody>
        {hourly.map((p) => (
          <tr key={p.minute}>
            <th scope="row" className="text-left font-normal">
              {clock(p.minute)}
            </th>
            <td>{v(p.p5)}</td>
            <td>{v(p.p25)}</td>
            <td>{v(p.p50)}</td>
            <td>{v(p.p75)}</td>
            <td>{v(p.p95)}</td>
            <td>{p.n}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
