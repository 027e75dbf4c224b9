/**
 * The marker of a reading beyond the measuring range: a triangle pointing out of the chart, its tip
 * on the edge the reading is beyond (down at the bottom for LOW, up at the top for HIGH). LOW and
 * HIGH share a colour, so the direction tells them apart where position alone would not (a short
 * chart, a glance), and the whole triangle stays inside the plot, which clips what crosses its edge.
 */
export const OFF_SCALE_MARKER = { width: 12, height: 10 } as const;

/** SVG path of the marker whose tip is at (cx, cy), the chart's edge. */
export function offScaleMarkerPath(cx: number, cy: number, kind: "low" | "high"): string {
  const { width, height } = OFF_SCALE_MARKER;
  // The base lies inside the plot: above the tip for LOW, below it for HIGH.
  const base = kind === "low" ? cy - height : cy + height;
  return `M${cx - width / 2} ${base}L${cx + width / 2} ${base}L${cx} ${cy}Z`;
}
