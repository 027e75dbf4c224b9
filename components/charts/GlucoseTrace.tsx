import type { TraceChart } from "@/lib/dashboard/overview-model";
import { encodeSeries } from "@/lib/trace";
import type { NoteBand } from "./note-bands";
import { TraceLayers } from "./TraceLayers";

/**
 * The EGV trace (see TraceInteractive for what it draws). Its points travel to the browser once,
 * as columns: the browser's layer draws the SVG from them in the server's render, so the trace is
 * in the first paint, and recharts' interactive chart, loaded after that paint, reads the same
 * columns. A server component, so the page around it is not hydrated for its sake; only what the
 * chart draws is picked (a whole overview passed in would otherwise travel too).
 */
export function GlucoseTrace({ overview, bands }: { overview: TraceChart; bands?: readonly NoteBand[] }) {
  const { unit, target, clockChanges, events, calibrations, alerts, trace } = overview;
  return (
    <TraceLayers
      bands={bands}
      chart={{
        unit,
        target,
        clockChanges,
        events,
        calibrations,
        alerts,
        trace: {
          startMs: trace.startMs,
          endMs: trace.endMs,
          initialOffsetMinutes: trace.initialOffsetMinutes,
          ticks: trace.ticks,
          series: encodeSeries(trace.points),
        },
      }}
    />
  );
}
