import { TRACE_COLOURS } from "@/lib/dashboard/palette";
import type { GapBreak, SeriesPoint } from "@/lib/trace";
import { bandsWithin, NOTE_BAND_COLOUR, NOTE_BAND_OPACITY, type NoteBand } from "./note-bands";
import { TargetBand } from "./TargetBand";

/**
 * The trace as the server can draw it: recharts is loaded after the first paint and draws only once
 * it has measured its container, so without this the chart's area stays blank for most of the page's load. Same
 * points, same linear scales and the same plot box as the recharts chart laid over it (which hides
 * this once its own line exists, see globals.css); no axes, and hidden from assistive technology,
 * which reads the chart's own name and its tables.
 */

// The viewBox is stretched to the plot box; strokes keep their width (non-scaling-stroke).
const W = 1000;
const H = 1000;

export interface PlotBox {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export function TracePreview({
  points,
  startMs,
  endMs,
  yMin,
  yMax,
  target,
  box,
  bands,
}: {
  points: ReadonlyArray<SeriesPoint | GapBreak>;
  startMs: number;
  endMs: number;
  yMin: number;
  yMax: number;
  target: { low: number; high: number };
  box: PlotBox;
  /** Notes' time ranges, drawn as shaded columns. */
  bands?: readonly NoteBand[];
}) {
  const x = (t: number) => (((t - startMs) / (endMs - startMs)) * W).toFixed(1);
  const y = (v: number) => (((yMax - Math.min(yMax, Math.max(yMin, v))) / (yMax - yMin)) * H).toFixed(1);
  let d = "";
  let pen = false;
  for (const p of points) {
    if (p.value === null) {
      pen = false;
      continue;
    }
    d += `${pen ? "L" : "M"}${x(p.t)} ${y(p.value)}`;
    pen = true;
  }
  return (
    <svg
      aria-hidden="true"
      className="trace-preview pointer-events-none absolute"
      style={{
        left: box.left,
        top: box.top,
        width: `calc(100% - ${box.left + box.right}px)`,
        height: `calc(100% - ${box.top + box.bottom}px)`,
      }}
      viewBox={`0 0 ${W} ${H}`}
      preserveAspectRatio="none"
    >
      {bandsWithin(bands, startMs, endMs).map((b) => (
        <rect
          key={b.id}
          data-testid="note-band"
          x={x(b.startMs)}
          width={Math.max(2, Number(x(b.endMs)) - Number(x(b.startMs)))}
          y={0}
          height={H}
          fill={NOTE_BAND_COLOUR}
          fillOpacity={NOTE_BAND_OPACITY}
        />
      ))}
      <TargetBand width={W} top={Number(y(target.high))} bottom={Number(y(target.low))} opacity={0.14} />
      {[target.low, target.high].map((v) => (
        <line
          key={v}
          x1={0}
          x2={W}
          y1={y(v)}
          y2={y(v)}
          stroke={TRACE_COLOURS.targetBand}
          strokeWidth={1.5}
          vectorEffect="non-scaling-stroke"
        />
      ))}
      <path d={d} fill="none" stroke={TRACE_COLOURS.line} strokeWidth={2} vectorEffect="non-scaling-stroke" />
    </svg>
  );
}
