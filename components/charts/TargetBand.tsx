import { TRACE_COLOURS } from "@/lib/dashboard/palette";

/**
 * The target range shaded across a server-drawn chart, in the colour every chart of the app gives
 * it. Each chart chooses its own opacity: a dense AGP wants a lighter band than a small daily profile.
 */
export function TargetBand({
  width,
  top,
  bottom,
  opacity,
}: {
  width: number;
  /** The band's top edge (the high bound) and bottom edge (the low bound), in the chart's y. */
  top: number;
  bottom: number;
  opacity: number;
}) {
  return (
    <rect
      x={0}
      width={width}
      y={top}
      height={bottom - top}
      fill={TRACE_COLOURS.targetBand}
      fillOpacity={opacity}
    />
  );
}
