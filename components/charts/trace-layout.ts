import type { CgmEventType } from "@/lib/cgm/app-records";
import type { TraceChart } from "@/lib/dashboard/overview-model";
import type { GapBreak, SeriesPoint, TraceSeries } from "@/lib/trace";

/**
 * What the trace's two layers share: the server-drawn SVG (painted with the document) and
 * recharts' interactive chart (loaded after that paint) must place the plot box and the event
 * strip's rows alike, or the chart would jump when it takes over.
 */

export const ROW_HEIGHT_PX = 20;
// Both charts share one y-axis width so their x axes line up; wide enough for "Exercise".
export const Y_AXIS_WIDTH = 52;
// recharts' default height of an x axis; with the margins it places the plot box that
// TracePreview must match.
export const X_AXIS_HEIGHT = 30;
export const MARGIN = { top: 8, right: 8, bottom: 0, left: 0 };

/** The trace chart as the browser receives it: its points once, as columns (lib/trace/series.ts). */
export type SeriesChart = Omit<TraceChart, "trace"> & {
  trace: Omit<TraceChart["trace"], "points"> & { series: TraceSeries };
};

/** The trace chart with its points read back from the columns. */
export type DecodedChart = Omit<TraceChart, "trace"> & {
  trace: Omit<TraceChart["trace"], "points"> & { points: Array<SeriesPoint | GapBreak> };
};

// The strip's rows: v2's four event types always, v3's others (meter readings, notes) and the
// alerts that sounded only when there are some.
const EVENT_ROWS = ["carbs", "insulin", "exercise", "health"] as const;
const EXTRA_EVENT_ROWS = ["bloodGlucose", "notes", "unknown"] as const;
export type StripRow = CgmEventType | "alerts";

export function stripRows(chart: Pick<TraceChart, "events" | "alerts">): StripRow[] {
  return [
    ...EVENT_ROWS,
    ...EXTRA_EVENT_ROWS.filter((t) => chart.events.some((e) => e.type === t)),
    ...((chart.alerts ?? []).length > 0 ? (["alerts"] as const) : []),
  ];
}

/** Whether the chart has a strip of events beneath it. */
export const hasStrip = (chart: Pick<TraceChart, "events" | "alerts">) =>
  chart.events.length > 0 || (chart.alerts ?? []).length > 0;
