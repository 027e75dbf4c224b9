import { TargetBand } from "@/components/charts/TargetBand";
import { displayValue, formatGlucoseNumber, glucoseRangeText } from "@/lib/cgm/glucose-text";
import { TRACE_COLOURS } from "@/lib/dashboard/palette";
import type { AgpReport } from "@/lib/reports/agp/agp-model";

/**
 * The AGP chart, drawn on the server: it paints with the HTML, prints crisply and renders in the
 * PDF without JavaScript. 5–95 and 25–75 percentile bands, the median, the target range.
 * Screen readers get the chart's summary as its name and the hourly values as a table.
 *
 * The plot stretches to any width (preserveAspectRatio="none", strokes that do not scale) while its
 * labels are HTML placed over it by percentage: on a 360 px phone the whole day fits and the
 * labels keep their size, where a scaled SVG would shrink them to a few pixels.
 */
/** The plot's own coordinates: minutes of the day across, a 0–1000 scale of the glucose axis up. */
const W = 1440;
const H = 1000;
const BAND_COLOUR = "#0072B2";
/** Every 3 hours on a wide screen; every 6 on a phone, where nine labels would touch. */
const X_TICKS = [0, 180, 360, 540, 720, 900, 1080, 1260, 1440];
const X_TICK_NARROW_EVERY = 360;
/**
 * Labels closer than this share of the plot's height are pushed apart (54 and 70 mg/dL lie about
 * 4 % apart): 7 % of the smallest plot height (the printed 44 mm, about 166 px) is 12 px.
 */
const LABEL_MIN_GAP_PERCENT = 7;

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
  return out;
}

/** Label positions (percent from the top; ascending values, so descending) at least a gap apart, lower ones pushed down. */
export function spreadLabels(tops: number[], gap = LABEL_MIN_GAP_PERCENT): number[] {
  const out = [...tops];
  for (let i = out.length - 2; i >= 0; i--) {
    if (out[i]! - out[i + 1]! < gap) out[i] = out[i + 1]! + gap;
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
  const x = (minute: number) => minute;
  const y = (v: number) =>
    ((axis.max - Math.min(axis.max, Math.max(axis.min, v))) / (axis.max - axis.min)) * H;
  const top = (v: number) => (y(v) / H) * 100;
  const f = (n: number) => n.toFixed(1);
  const area = (run: Point[], lo: keyof Point, hi: keyof Point) => {
    const upper = run.map((p) => `${f(x(p.minute))},${f(y(p[hi]))}`);
    const lower = run.map((p) => `${f(x(p.minute))},${f(y(p[lo]))}`).reverse();
    return `M${upper.join("L")}L${lower.join("L")}Z`;
  };
  const line = (run: Point[]) => `M${run.map((p) => `${f(x(p.minute))},${f(y(p.p50))}`).join("L")}`;
  const summary = agpSummary(report);
  const labelTops = spreadLabels(axis.ticks.map(top));
  const isTarget = (v: number) => v === target.low || v === target.high;
  return (
    <figure className="agp-chart pt-3" data-testid="agp-chart">
      {/* The plot's box; the glucose labels hang in its left margin, the clock in its bottom one. */}
      <div className="agp-plot relative mr-5 mb-7 ml-11 text-slate-700 dark:text-slate-300">
        <svg
          viewBox={`0 0 ${W} ${H}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={`Ambulatory glucose profile. ${summary}`}
          className="block h-56 w-full overflow-visible sm:h-64"
        >
          <TargetBand width={W} top={y(target.high)} bottom={y(target.low)} opacity={0.1} />
          {axis.ticks.map((v) => (
            <line
              key={v}
              x1={0}
              x2={W}
              y1={y(v)}
              y2={y(v)}
              stroke={isTarget(v) ? TRACE_COLOURS.targetBand : "currentColor"}
              strokeOpacity={isTarget(v) ? 1 : 0.25}
              strokeWidth={isTarget(v) ? 1.5 : 1}
              vectorEffect="non-scaling-stroke"
            />
          ))}
          {X_TICKS.map((m) => (
            <line
              key={m}
              x1={x(m)}
              x2={x(m)}
              y1={0}
              y2={H}
              stroke="currentColor"
              strokeOpacity={0.12}
              vectorEffect="non-scaling-stroke"
            />
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
                vectorEffect="non-scaling-stroke"
                className="dark:stroke-sky-200"
              />
            </g>
          ))}
        </svg>
        {/* The labels repeat what the table under the chart gives screen readers. */}
        <div aria-hidden="true" className="agp-axis-labels text-xs tabular-nums">
          <span className="absolute top-1 left-1">{report.unit}</span>
          {axis.ticks.map((v, i) => (
            <span
              key={v}
              data-axis="y"
              className="absolute -left-11 w-9 -translate-y-1/2 text-right"
              style={{ top: `${labelTops[i]!.toFixed(2)}%` }}
            >
              {formatGlucoseNumber(v, report.unit)}
            </span>
          ))}
          {X_TICKS.map((m) => (
            <span
              key={m}
              data-axis="x"
              className={`absolute top-full mt-1 -translate-x-1/2 ${m % X_TICK_NARROW_EVERY === 0 ? "" : "hidden sm:block print:block"}`}
              style={{ left: `${((m / W) * 100).toFixed(3)}%` }}
            >
              {m === W ? "24:00" : clock(m)}
            </span>
          ))}
        </div>
      </div>
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
          <span
            aria-hidden="true"
            className="inline-block h-0.5 w-5"
            style={{ background: TRACE_COLOURS.targetBand }}
          />{" "}
          Target range {glucoseRangeText(target.low, target.high, report.unit)}
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
  // Below 480 px each hour is a line of labelled percentiles (stack-narrow stack-inline, app/globals.css).
  return (
    <table className="stack-narrow stack-inline mt-2 w-full text-right tabular-nums" data-testid="agp-hourly">
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
            <td data-label="5%">{v(p.p5)}</td>
            <td data-label="25%">{v(p.p25)}</td>
            <td data-label="Median">{v(p.p50)}</td>
            <td data-label="75%">{v(p.p75)}</td>
            <td data-label="95%">{v(p.p95)}</td>
            <td data-label="Readings">{p.n}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
