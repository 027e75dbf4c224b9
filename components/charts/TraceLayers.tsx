"use client";

import { useEffect, useMemo, useState } from "react";
import { sentinelValue } from "@/lib/cgm/values";
import { decodeSeries } from "@/lib/trace";
import type { NoteBand } from "./note-bands";
import { TracePreview } from "./TracePreview";
import {
  type DecodedChart,
  hasStrip,
  MARGIN,
  ROW_HEIGHT_PX,
  type SeriesChart,
  stripRows,
  X_AXIS_HEIGHT,
  Y_AXIS_WIDTH,
} from "./trace-layout";

type Interactive = typeof import("./TraceInteractive");

/**
 * recharts (a third of the page's script) is fetched only after the browser has painted the
 * server-drawn trace: a frame, then a task, so neither its download nor its first render (a long
 * task at 90 days) holds back the first paint.
 */
function useInteractiveAfterPaint(): Interactive | null {
  const [layer, setLayer] = useState<Interactive | null>(null);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        void import("./TraceInteractive").then((m) => {
          if (live) setLayer(m);
        });
      }, 0);
    });
    return () => {
      live = false;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return layer;
}

function decodedChart({ trace: { series, ...trace }, ...chart }: SeriesChart): DecodedChart {
  return { ...chart, trace: { ...trace, points: decodeSeries(series) } };
}

/** The trace's two layers: the SVG in the first paint, recharts' chart over it once loaded. */
export function TraceLayers({ chart, bands }: { chart: SeriesChart; bands?: readonly NoteBand[] }) {
  const { trace } = chart;
  const decoded = useMemo(() => decodedChart(chart), [chart]);
  const layer = useInteractiveAfterPaint();
  const rows = stripRows(chart);
  return (
    <div className="text-slate-800 dark:text-slate-200">
      <div className="relative h-72 sm:h-80" data-testid="glucose-trace">
        <TracePreview
          points={decoded.trace.points}
          startMs={trace.startMs}
          endMs={trace.endMs}
          yMin={sentinelValue("low", chart.unit)}
          yMax={sentinelValue("high", chart.unit)}
          target={chart.target}
          bands={bands}
          box={{
            left: Y_AXIS_WIDTH + MARGIN.left,
            right: MARGIN.right,
            top: MARGIN.top,
            bottom: X_AXIS_HEIGHT + MARGIN.bottom,
          }}
        />
        {layer && <layer.TracePlot overview={decoded} bands={bands} />}
      </div>
      {hasStrip(chart) && (
        <div
          className="h-24"
          style={{ height: `${rows.length * ROW_HEIGHT_PX + 16}px` }}
          data-testid="event-strip"
        >
          {layer && <layer.EventStrip overview={decoded} rows={rows} />}
        </div>
      )}
    </div>
  );
}
