import { describe, expect, it } from "vitest";
import { OFF_SCALE_MARKER, offScaleMarkerPath } from "./off-scale-marker";

/** The three corners of "Mx yLx yLx yZ". */
function corners(d: string): Array<[number, number]> {
  const numbers = d.match(/-?\d+(\.\d+)?/g)!.map(Number);
  return [0, 2, 4].map((i) => [numbers[i]!, numbers[i + 1]!]);
}

describe("offScaleMarkerPath", () => {
  it("points LOW down: its tip at the bottom edge, the rest above it inside the plot", () => {
    const c = corners(offScaleMarkerPath(100, 300, "low"));
    const ys = c.map(([, y]) => y);
    expect(Math.max(...ys)).toBe(300);
    expect(ys.filter((y) => y === 300)).toHaveLength(1);
    expect(Math.min(...ys)).toBe(300 - OFF_SCALE_MARKER.height);
  });

  it("points HIGH up: its tip at the top edge, the rest below it inside the plot", () => {
    const c = corners(offScaleMarkerPath(100, 8, "high"));
    const ys = c.map(([, y]) => y);
    expect(Math.min(...ys)).toBe(8);
    expect(ys.filter((y) => y === 8)).toHaveLength(1);
    expect(Math.max(...ys)).toBe(8 + OFF_SCALE_MARKER.height);
  });

  it("centres the tip on the reading's time", () => {
    const c = corners(offScaleMarkerPath(100, 300, "low"));
    expect(c.find(([, y]) => y === 300)![0]).toBe(100);
    expect(c.map(([x]) => x).sort((a, b) => a - b)).toEqual([94, 100, 106]);
  });
});
