import { describe, expect, it } from "vitest";
import { formatDisplayTime } from "./format";
import type { GapBreak } from "./gaps";
import type { TracePoint } from "./points";
import { decodeSeries, encodeSeries } from "./series";

const T0 = Date.UTC(2026, 10, 22, 15, 0, 0);
const STEP = 5 * 60_000;

/** The i-th reading, its receiver's clock `offsetMs` from systemTime, its time `shiftMs` off the 5 minutes. */
function reading(
  i: number,
  value: number,
  offsetMs: number,
  sentinel: TracePoint["sentinel"] = null,
  shiftMs = 0,
): TracePoint {
  const t = T0 + i * STEP + shiftMs;
  return {
    t,
    display: new Date(t + offsetMs).toISOString().slice(0, 19),
    offsetMinutes: Math.round(offsetMs / 60_000),
    value,
    sentinel,
    trend: "flat",
    rate: 0.1,
  };
}

const shown = (p: TracePoint | GapBreak) =>
  p.value === null ? p : { t: p.t, value: p.value, display: p.display, sentinel: p.sentinel };

describe("encodeSeries and decodeSeries", () => {
  it("give back each point's time, value, off-scale side and receiver's clock, gaps included", () => {
    const EST = -5 * 3_600_000;
    const points: Array<TracePoint | GapBreak> = [
      reading(0, 120, EST),
      reading(1, 39, EST, "low"),
      reading(2, 2.2, EST),
      { t: T0 + 2.5 * STEP, value: null },
      reading(4, 401, EST, "high"),
      // The receiver's clock changed (daylight saving ended), and a reading 37 s off the minute.
      reading(5, 7.3, EST - 3_600_000),
      reading(6, 150, EST - 3_600_000 + 37_000),
    ];
    const series = encodeSeries(points);
    expect(series.unitMs).toBe(1000);
    expect(series.low).toEqual([1]);
    expect(series.high).toEqual([4]);
    expect(series.clock).toHaveLength(3);
    expect(decodeSeries(series)).toEqual(points.map(shown));
  });

  it("keep milliseconds when a time has them", () => {
    const points = [reading(0, 100, 0, null, 250), reading(1, 101, 1_500)];
    const series = encodeSeries(points);
    expect(series.unitMs).toBe(1);
    expect(decodeSeries(series)).toEqual(points.map(shown));
  });

  it("keep the tooltip's text of a displayTime that carries a zone or fractions", () => {
    const p = { ...reading(0, 100, 3_600_000), display: "2026-11-22T16:00:00.000+01:00" };
    const [back] = decodeSeries(encodeSeries([p])) as Array<{ display: string }>;
    expect(formatDisplayTime(back!.display)).toBe(formatDisplayTime(p.display));
  });

  it("send an empty trace as empty columns", () => {
    expect(decodeSeries(encodeSeries([]))).toEqual([]);
  });

  it("are a fraction of the points' JSON at 1,500 points", () => {
    const points = Array.from({ length: 1_500 }, (_, i) => reading(i, 80 + (i % 170), -18_000_000));
    const columns = JSON.stringify(encodeSeries(points)).length;
    expect(columns).toBeLessThan(JSON.stringify(points).length / 5);
  });
});
