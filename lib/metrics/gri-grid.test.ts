import { describe, expect, it } from "vitest";
import { GRI_GRID_HYPER_MAX, GRI_GRID_HYPO_MAX } from "./constants";
import { glycemiaRiskIndex, griZone } from "./gri";
import {
  type GridPoint,
  griZoneLabelPoints,
  griZoneLines,
  griZonePolygons,
  placeOnGriGrid,
} from "./gri-grid";

/** Twice the signed area (shoelace), positive for counter-clockwise vertices. */
function area(points: readonly GridPoint[]): number {
  let a = 0;
  for (let i = 0; i < points.length; i++) {
    const [x0, y0] = points[i]!;
    const [x1, y1] = points[(i + 1) % points.length]!;
    a += x0 * y1 - x1 * y0;
  }
  return a / 2;
}

/** Point in convex polygon (every zone is the intersection of convex sets). */
function inside(points: readonly GridPoint[], [x, y]: GridPoint): boolean {
  const s = Math.sign(area(points));
  return points.every(([x0, y0], i) => {
    const [x1, y1] = points[(i + 1) % points.length]!;
    return s * ((x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)) >= -1e-9;
  });
}

describe("griZonePolygons", () => {
  const zones = griZonePolygons();

  it("cuts the whole 30 × 60 grid into zones A to E without overlap", () => {
    expect(zones.map((z) => z.zone)).toEqual(["A", "B", "C", "D", "E"]);
    const total = zones.reduce((s, z) => s + Math.abs(area(z.points)), 0);
    expect(total).toBeCloseTo(GRI_GRID_HYPO_MAX * GRI_GRID_HYPER_MAX, 9);
  });

  it("zone A is the triangle under 3·x + 1.6·y = 20, zone B the band up to 40", () => {
    const a = zones[0]!.points;
    expect(a).toHaveLength(3);
    expect(Math.abs(area(a))).toBeCloseTo(((20 / 3) * (20 / 1.6)) / 2, 9);
    // B: the triangle under the 40 line minus A's (the lines are parallel).
    expect(Math.abs(area(zones[1]!.points))).toBeCloseTo(
      ((40 / 3) * (40 / 1.6) - (20 / 3) * (20 / 1.6)) / 2,
      9,
    );
    // E: everything above 80, up to the far corner (30, 60).
    expect(zones[4]!.points).toContainEqual([GRI_GRID_HYPO_MAX, GRI_GRID_HYPER_MAX]);
  });

  it("every zone's letter sits inside its polygon, on a row above the x-axis, A to E left to right", () => {
    const labels = griZoneLabelPoints();
    expect(labels.map((l) => l.zone)).toEqual(["A", "B", "C", "D", "E"]);
    for (const { zone, at } of labels) {
      const polygon = zones.find((z) => z.zone === zone)!.points;
      expect(inside(polygon, at)).toBe(true);
      expect(griZone(3 * at[0] + 1.6 * at[1])).toBe(zone);
      expect(at[1]).toBe(3);
    }
    // A's letter halfway across A's width at that height: x from 0 to (20 − 1.6 × 3) / 3.
    expect(labels[0]!.at[0]).toBeCloseTo((20 - 4.8) / 6, 9);
  });

  it("moves a letter that a period's point would cover to a clear spot, still inside the zone", () => {
    const row = griZoneLabelPoints();
    const points: GridPoint[] = [
      [1.9, 4.7],
      [3.6, 2.6],
    ];
    // The grid as components/reports/GriGrid.tsx draws it: 250 × 184 units for 30 × 60 percent.
    const scale: GridPoint = [250 / 30, 184 / 60];
    const moved = griZoneLabelPoints(points, scale, 16);
    const a = moved[0]!;
    const away = (p: GridPoint) =>
      Math.min(...points.map((q) => Math.hypot((p[0] - q[0]) * scale[0], (p[1] - q[1]) * scale[1])));
    expect(a.at).not.toEqual(row[0]!.at);
    expect(away(a.at)).toBeGreaterThan(away(row[0]!.at));
    expect(inside(zones[0]!.points, a.at)).toBe(true);
    // Clear of both points, though zone A is small: the letter and the markers do not overlap.
    expect(away(a.at)).toBeGreaterThanOrEqual(16);
    // The other letters are far from the points and stay in the row.
    expect(moved.slice(1)).toEqual(row.slice(1));
  });

  it("every vertex of a zone's polygon has at least that zone's lower GRI", () => {
    for (const { zone, points } of zones) {
      for (const [x, y] of points) {
        const gri = Math.min(100, 3 * x + 1.6 * y);
        // Vertices lie on the zone's own boundaries (inclusive of both edges here).
        expect(gri).toBeGreaterThanOrEqual(["A", "B", "C", "D", "E"].indexOf(zone) * 20 - 1e-9);
      }
    }
  });

  it("a patient's point lies in the polygon of the zone glycemiaRiskIndex gives", () => {
    const cases = [
      { veryLow: 0.5, low: 2, high: 15, veryHigh: 3 }, // A
      { veryLow: 1, low: 4, high: 25, veryHigh: 10 }, // B
      { veryLow: 6, low: 8, high: 10, veryHigh: 5 }, // C
      { veryLow: 2, low: 3, high: 30, veryHigh: 35 }, // E
    ];
    for (const c of cases) {
      const g = glycemiaRiskIndex(c);
      const polygon = zones.find((z) => z.zone === g.zone)!.points;
      expect(inside(polygon, [g.hypoComponent, g.hyperComponent])).toBe(true);
    }
  });
});

describe("griZoneLines", () => {
  it("draws 3·x + 1.6·y = 20, 40, 60, 80 from the y-axis to the x-axis", () => {
    const lines = griZoneLines();
    expect(lines.map((l) => l.gri)).toEqual([20, 40, 60, 80]);
    expect(lines[0]!.from).toEqual([0, 12.5]);
    expect(lines[0]!.to[0]).toBeCloseTo(20 / 3, 9);
    expect(lines[3]!.from).toEqual([0, 50]);
    expect(lines[3]!.to[0]).toBeCloseTo(80 / 3, 9);
    for (const { gri, from, to } of lines) {
      expect(3 * from[0] + 1.6 * from[1]).toBeCloseTo(gri, 9);
      expect(3 * to[0] + 1.6 * to[1]).toBeCloseTo(gri, 9);
    }
  });
});

describe("placeOnGriGrid", () => {
  it("places a point inside the grid as it is", () => {
    expect(placeOnGriGrid(4.2, 18.5)).toEqual({ at: [4.2, 18.5], beyond: { hypo: false, hyper: false } });
    expect(placeOnGriGrid(30, 60)).toEqual({ at: [30, 60], beyond: { hypo: false, hyper: false } });
  });

  it("clamps a component beyond its axis to the edge and says which", () => {
    expect(placeOnGriGrid(42, 10)).toEqual({ at: [30, 10], beyond: { hypo: true, hyper: false } });
    expect(placeOnGriGrid(2, 75)).toEqual({ at: [2, 60], beyond: { hypo: false, hyper: true } });
    expect(placeOnGriGrid(31, 99)).toEqual({ at: [30, 60], beyond: { hypo: true, hyper: true } });
  });
});
