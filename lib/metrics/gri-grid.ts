import {
  GRI_GRID_HYPER_MAX,
  GRI_GRID_HYPO_MAX,
  GRI_HYPER_WEIGHT,
  GRI_HYPO_WEIGHT,
  GRI_ZONE_WIDTH,
} from "./constants";
import type { GriZone } from "./gri";

/**
 * The GRI grid's geometry in the components' own units (percent): x the hypoglycaemia component,
 * y the hyperglycaemia component. A zone is the part of the grid between two of the lines
 * 3.0·x + 1.6·y = 20, 40, 60, 80; zone E runs to the grid's far corner (its GRI is capped at 100,
 * but the components are not, so the plane beyond 100 is still E). Pure numbers: the component that
 * draws it only scales them.
 */

export type GridPoint = readonly [x: number, y: number];

export const GRI_ZONES: readonly GriZone[] = ["A", "B", "C", "D", "E"];

/** The uncapped weighted sum whose level lines are the zone boundaries. */
const weighted = ([x, y]: GridPoint) => GRI_HYPO_WEIGHT * x + GRI_HYPER_WEIGHT * y;

/**
 * The part of `polygon` where `weighted ≥ level` (side 1) or `≤ level` (side -1): one pass of
 * Sutherland–Hodgman clipping by a half-plane.
 */
function clip(polygon: GridPoint[], level: number, side: 1 | -1): GridPoint[] {
  const out: GridPoint[] = [];
  const inside = (p: GridPoint) => side * (weighted(p) - level) >= -1e-9;
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i]!;
    const b = polygon[(i + 1) % polygon.length]!;
    if (inside(a)) out.push(a);
    if (inside(a) !== inside(b)) {
      const t = (level - weighted(a)) / (weighted(b) - weighted(a));
      out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
    }
  }
  return out;
}

const GRID: GridPoint[] = [
  [0, 0],
  [GRI_GRID_HYPO_MAX, 0],
  [GRI_GRID_HYPO_MAX, GRI_GRID_HYPER_MAX],
  [0, GRI_GRID_HYPER_MAX],
];

/** Each zone's polygon within the grid, A first (vertices in order, no repeated first vertex). */
export function griZonePolygons(): Array<{ zone: GriZone; points: GridPoint[] }> {
  return GRI_ZONES.map((zone, i) => {
    let points = clip(GRID, i * GRI_ZONE_WIDTH, 1);
    if (i < GRI_ZONES.length - 1) points = clip(points, (i + 1) * GRI_ZONE_WIDTH, -1);
    return { zone, points };
  });
}

/** The zone boundaries (20, 40, 60, 80) as segments across the grid, from the x-axis or the y-axis side. */
export function griZoneLines(): Array<{ gri: number; from: GridPoint; to: GridPoint }> {
  return GRI_ZONES.slice(1).map((_, i) => {
    const gri = (i + 1) * GRI_ZONE_WIDTH;
    // Where the line meets the left or top edge, and the bottom or right edge.
    const yAtLeft = gri / GRI_HYPER_WEIGHT;
    const from: GridPoint =
      yAtLeft <= GRI_GRID_HYPER_MAX
        ? [0, yAtLeft]
        : [(gri - GRI_HYPER_WEIGHT * GRI_GRID_HYPER_MAX) / GRI_HYPO_WEIGHT, GRI_GRID_HYPER_MAX];
    const xAtBottom = gri / GRI_HYPO_WEIGHT;
    const to: GridPoint =
      xAtBottom <= GRI_GRID_HYPO_MAX
        ? [xAtBottom, 0]
        : [GRI_GRID_HYPO_MAX, (gri - GRI_HYPO_WEIGHT * GRI_GRID_HYPO_MAX) / GRI_HYPER_WEIGHT];
    return { gri, from, to };
  });
}

/**
 * A point on the level line `share` of the way up zone `i` (GRI 20·i + 20·share; zone E's lines
 * are within the grid too), `fraction` of the way from its x-axis end to its y-axis end.
 */
function onLevelLine(i: number, share: number, fraction: number): GridPoint {
  const gri = (i + share) * GRI_ZONE_WIDTH;
  const xEnd = Math.min(gri / GRI_HYPO_WEIGHT, GRI_GRID_HYPO_MAX);
  const yAtXEnd = (gri - GRI_HYPO_WEIGHT * xEnd) / GRI_HYPER_WEIGHT;
  const yEnd = Math.min(gri / GRI_HYPER_WEIGHT, GRI_GRID_HYPER_MAX);
  const xAtYEnd = (gri - GRI_HYPER_WEIGHT * yEnd) / GRI_HYPO_WEIGHT;
  return [xEnd + fraction * (xAtYEnd - xEnd), yAtXEnd + fraction * (yEnd - yAtXEnd)];
}

/**
 * Where each zone's letter sits. First choice: a row just above the x-axis, at the middle of the
 * zone's width there (E: between its boundary and the right edge), which reads as a scale A to E.
 * Where that spot lies within `clearance` (in drawn units, `scale` per grid unit) of a period's
 * point, the letter moves along the zone's middle line to the spot farthest from the points: a
 * letter never hides a point, nor a point a letter.
 */
export function griZoneLabelPoints(
  avoid: readonly GridPoint[] = [],
  scale: GridPoint = [1, 1],
  clearance = 0,
): Array<{ zone: GriZone; at: GridPoint }> {
  const height = GRI_GRID_HYPER_MAX / 20;
  const xAt = (gri: number) => (gri - GRI_HYPER_WEIGHT * height) / GRI_HYPO_WEIGHT;
  const distance = (p: GridPoint) =>
    Math.min(Infinity, ...avoid.map((a) => Math.hypot((p[0] - a[0]) * scale[0], (p[1] - a[1]) * scale[1])));
  return GRI_ZONES.map((zone, i) => {
    const last = i === GRI_ZONES.length - 1;
    const row: GridPoint = [
      last
        ? (xAt(i * GRI_ZONE_WIDTH) + GRI_GRID_HYPO_MAX) / 2
        : (Math.max(0, xAt(i * GRI_ZONE_WIDTH)) + xAt((i + 1) * GRI_ZONE_WIDTH)) / 2,
      height,
    ];
    if (distance(row) >= clearance) return { zone, at: row };
    const candidates = [row];
    for (const share of [0.5, 0.75]) {
      for (const f of [0.1, 0.25, 0.5, 0.75, 0.9]) candidates.push(onLevelLine(i, share, f));
    }
    const best = candidates.reduce((a, b) => (distance(b) > distance(a) ? b : a));
    return { zone, at: best };
  });
}

export interface GridPlacement {
  /** Where the point is drawn: on the grid, at its edge when beyond it. */
  at: GridPoint;
  /** Which components lie beyond the grid's axes (drawn at the edge, and said so). */
  beyond: { hypo: boolean; hyper: boolean };
}

/** A period's components placed on the grid: clamped to its edges, saying which were clamped. */
export function placeOnGriGrid(hypoComponent: number, hyperComponent: number): GridPlacement {
  const beyond = { hypo: hypoComponent > GRI_GRID_HYPO_MAX, hyper: hyperComponent > GRI_GRID_HYPER_MAX };
  return {
    at: [
      Math.min(Math.max(hypoComponent, 0), GRI_GRID_HYPO_MAX),
      Math.min(Math.max(hyperComponent, 0), GRI_GRID_HYPER_MAX),
    ],
    beyond,
  };
}
