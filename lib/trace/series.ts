import type { GapBreak } from "./gaps";
import type { TracePoint } from "./points";

/**
 * The reduced trace as the page sends it to the browser, once: columns instead of an object per
 * point (a tenth of the bytes at 1,500 points), from which the browser draws both the server-side
 * SVG (during the server's render of the client layer) and the interactive chart. Only what the
 * chart shows travels: time, value, off-scale side and the receiver's clock for the tooltip.
 */
export interface TraceSeries {
  /** Milliseconds per unit of `t0`, `dt` and `clock`: 1000 when every time is a whole second. */
  unitMs: number;
  /** The first point's systemTime, in units. */
  t0: number;
  /** Each point's systemTime minus the previous point's (the first: 0), in units. */
  dt: number[];
  /** Each point's value in the unit on screen; null where the line breaks. */
  v: Array<number | null>;
  /** The receiver's clock (displayTime on the naive UTC axis) minus systemTime, in units, as runs: [from index, offset]. */
  clock: Array<[number, number]>;
  /** Indices of the readings below and above the sensor's range (drawn at the chart's edge). */
  low: number[];
  high: number[];
}

/** A reading as the chart and its tooltip use it. */
export type SeriesPoint = Pick<TracePoint, "t" | "display" | "value" | "sentinel">;

/** displayTime read as a naive wall clock on the UTC axis (seconds kept, any zone suffix ignored). */
const naiveMs = (displayTime: string) => Date.parse(`${displayTime.slice(0, 19)}Z`);

export function encodeSeries(points: ReadonlyArray<TracePoint | GapBreak>): TraceSeries {
  const whole =
    points.every((p) => p.t % 1000 === 0) &&
    points.every((p) => p.value === null || (naiveMs(p.display) - p.t) % 1000 === 0);
  const unitMs = whole ? 1000 : 1;
  const series: TraceSeries = {
    unitMs,
    t0: (points[0]?.t ?? 0) / unitMs,
    dt: [],
    v: [],
    clock: [],
    low: [],
    high: [],
  };
  let previousT = points[0]?.t ?? 0;
  let previousClock: number | null = null;
  points.forEach((p, i) => {
    series.dt.push((p.t - previousT) / unitMs);
    previousT = p.t;
    series.v.push(p.value);
    if (p.value === null) return;
    const clock = (naiveMs(p.display) - p.t) / unitMs;
    if (clock !== previousClock) series.clock.push([i, clock]);
    previousClock = clock;
    if (p.sentinel === "low") series.low.push(i);
    if (p.sentinel === "high") series.high.push(i);
  });
  return series;
}

/** The points again, with each reading's displayTime to the second ("2026-11-22T10:05:00"). */
export function decodeSeries(series: TraceSeries): Array<SeriesPoint | GapBreak> {
  const low = new Set(series.low);
  const high = new Set(series.high);
  const out: Array<SeriesPoint | GapBreak> = [];
  let t = series.t0 * series.unitMs;
  let run = 0;
  series.v.forEach((value, i) => {
    t += (series.dt[i] ?? 0) * series.unitMs;
    if (value === null) {
      out.push({ t, value: null });
      return;
    }
    while (run + 1 < series.clock.length && (series.clock[run + 1]?.[0] ?? Infinity) <= i) run++;
    const clock = (series.clock[run]?.[1] ?? 0) * series.unitMs;
    out.push({
      t,
      value,
      display: new Date(t + clock).toISOString().slice(0, 19),
      sentinel: low.has(i) ? "low" : high.has(i) ? "high" : null,
    });
  });
  return out;
}
