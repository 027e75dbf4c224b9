import { describe, expect, it } from "vitest";
import { type GapBreak, withGapBreaks } from "./gaps";
import { reduceForDrawing } from "./reduce";

const STEP = 5 * 60_000;
type P = { t: number; value: number; sentinel: "low" | "high" | null };
const series = (values: number[], t0 = 0): P[] =>
  values.map((value, i) => ({
    t: t0 + i * STEP,
    value,
    sentinel: value === 39 ? "low" : value === 401 ? "high" : null,
  }));

function expectTimeOrder(points: ReadonlyArray<{ t: number }>) {
  for (let i = 1; i < points.length; i++) expect(points[i]!.t).toBeGreaterThan(points[i - 1]!.t);
}

describe("reduceForDrawing", () => {
  it("returns short input itself", () => {
    const points = series([100, 110, 120]);
    expect(reduceForDrawing(points, 3)).toBe(points);
    expect(reduceForDrawing(points, 500)).toBe(points);
  });

  it("keeps a single 40 mg/dL dip among 10,000 readings of 150", () => {
    const values = Array<number>(10_000).fill(150);
    values[6_137] = 40;
    const points = series(values);
    const out = reduceForDrawing(points, 500);
    expect(out).toContain(points[6_137]);
    expect(out[0]).toBe(points[0]);
    expect(out.at(-1)).toBe(points.at(-1));
    // One segment, no sentinels: at most maxPoints + 2.
    expect(out.length).toBeLessThanOrEqual(502);
    expect(out.length).toBeGreaterThan(250);
    expectTimeOrder(out);
  });

  it("keeps the global minimum and maximum of a wavy series", () => {
    // Two sine waves plus a deterministic jitter; min and max are computed, not planted.
    let seed = 7;
    const jitter = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return (seed / 2_147_483_648 - 0.5) * 30;
    };
    const values = Array.from({ length: 8_640 }, (_, i) =>
      Math.round(150 + 60 * Math.sin(i / 40) + 25 * Math.sin(i / 7) + jitter()),
    );
    const points = series(values);
    const out = reduceForDrawing(points, 300);
    const values2 = out.map((p) => p.value);
    expect(Math.min(...values2)).toBe(Math.min(...values));
    expect(Math.max(...values2)).toBe(Math.max(...values));
    expect(out.length).toBeLessThanOrEqual(302);
    expectTimeOrder(out);
  });

  it("keeps every sentinel, counted on top of maxPoints", () => {
    const values = Array<number>(5_000).fill(120);
    for (let i = 1_000; i < 1_036; i++) values[i] = 39; // three hours below 40
    values[4_000] = 401;
    const points = series(values);
    const out = reduceForDrawing(points, 200);
    expect(out.filter((p) => p.sentinel === "low")).toHaveLength(36);
    expect(out.filter((p) => p.sentinel === "high")).toHaveLength(1);
    expect(out.length).toBeLessThanOrEqual(200 + 2 + 37);
    expectTimeOrder(out);
  });

  it("reduces each gap-separated segment on its own, with budget by length, keeping the break", () => {
    // 6,000 readings, a two-hour gap, then 2,000 readings with a dip right after the gap.
    const before = series(Array<number>(6_000).fill(150));
    const afterValues = Array<number>(2_000).fill(150);
    afterValues[1] = 45;
    const after = series(afterValues, before.at(-1)!.t + 2 * 3_600_000);
    const withBreaks = withGapBreaks([...before, ...after]);
    const out = reduceForDrawing(withBreaks, 400);

    const breakAt = out.findIndex((p) => p.value === null);
    expect(out.filter((p) => p.value === null)).toHaveLength(1);
    // Either side of the break: the segment's own last and first reading, never a bucket straddling it.
    expect(out[breakAt - 1]).toBe(before.at(-1));
    expect(out[breakAt + 1]).toBe(after[0]);
    expect(out).toContain(after[1]);
    // 6,000 : 2,000 readings get about 3 : 1 of the points.
    const left = breakAt;
    const right = out.length - breakAt - 1;
    expect(left / right).toBeGreaterThan(2.5);
    expect(left / right).toBeLessThan(3.5);
    // Two segments: ≤ maxPoints + 2 × 2.
    expect(out.length).toBeLessThanOrEqual(404);
    expectTimeOrder(out);
  });

  it("finds gaps by time when given no breaks, and never joins the two sides", () => {
    const before = series(Array<number>(3_000).fill(150));
    const after = series(Array<number>(3_000).fill(150), before.at(-1)!.t + 3_600_000);
    const out = reduceForDrawing([...before, ...after], 100);
    expect(out).toContain(before.at(-1));
    expect(out).toContain(after[0]);
    expect(out.length).toBeLessThanOrEqual(104);
  });

  it("keeps a short segment's low even when its share of the budget rounds to nothing", () => {
    const long = series(Array<number>(10_000).fill(150));
    const short = series([150, 150, 48, 150, 150, 150, 150], long.at(-1)!.t + 3_600_000);
    const out = reduceForDrawing<P | GapBreak>(withGapBreaks([...long, ...short]), 100);
    expect(out).toContain(short[2]);
  });
});
