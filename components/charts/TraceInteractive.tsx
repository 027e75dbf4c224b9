"use client";

import {
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatGlucoseNumber, glucoseText, pointText, withGlucoseUnit } from "@/lib/cgm/glucose-text";
import { convertGlucose, type GlucoseUnit, roundForUnit } from "@/lib/cgm/units";
import { sentinelValue } from "@/lib/cgm/values";
import { alertMarkerTitle, eventMarkerValue } from "@/lib/dashboard/markers";
import type { CalibrationMarker, EventMarker } from "@/lib/dashboard/overview-model";
import { TRACE_COLOURS } from "@/lib/dashboard/palette";
import { type AlertSounding, soundingEndText } from "@/lib/records/alerts";
import { eventTitle, eventTypeLabel } from "@/lib/records/labels";
import { axisTicks, formatDisplayTime, offsetAt, type SeriesPoint, wallClockLabel } from "@/lib/trace";
import { bandsWithin, NOTE_BAND_COLOUR, NOTE_BAND_OPACITY, type NoteBand } from "./note-bands";
import { offScaleMarkerPath } from "./off-scale-marker";
import { type DecodedChart, MARGIN, type StripRow, X_AXIS_HEIGHT, Y_AXIS_WIDTH } from "./trace-layout";

/**
 * The EGV trace, interactive (loaded after the first paint, over the server-drawn SVG of
 * TracePreview): the line (gaps left as gaps), the target band, lines at the consensus edges of
 * very low (54) and very high (250), sentinel readings drawn at the chart's edge as a triangle
 * pointing past it, calibrations as diamonds, events on a strip beneath, and a dashed line wherever
 * the patient's clock changed (daylight saving, travel). The x axis is systemTime, so the line never
 * runs back; its labels are the patient's own clock at each point.
 */

/** A calibration is named in the tooltip within 1/200 of the span (a few pixels), at least 2.5 min. */
const CALIBRATION_NEAR_FRACTION = 200;
const CALIBRATION_NEAR_MIN_MS = 150_000;

const ROW_SHAPES: Record<StripRow, "circle" | "triangle" | "square" | "diamond" | "cross" | "wye" | "star"> =
  {
    carbs: "circle",
    insulin: "triangle",
    exercise: "square",
    health: "diamond",
    bloodGlucose: "cross",
    notes: "wye",
    unknown: "circle",
    alerts: "star",
  };
const rowLabel = (row: StripRow) => (row === "alerts" ? "Alerts" : eventTypeLabel(row));

function eventText(e: EventMarker, unit: GlucoseUnit): string {
  const what = eventTitle(e.type, e.subType);
  const value = eventMarkerValue(e, unit);
  return value === null ? what : `${what}: ${value}`;
}

const alertText = (a: AlertSounding) => `${alertMarkerTitle(a)}: ${soundingEndText(a)}`;

const calibrationText = (c: CalibrationMarker, unit: GlucoseUnit) =>
  `Calibration: ${glucoseText(c.value, unit)}`;

/** The calibration nearest to `t`, if one lies within `withinMs` of it. */
function calibrationNear(calibrations: readonly CalibrationMarker[], t: number, withinMs: number) {
  let best: CalibrationMarker | null = null;
  for (const c of calibrations) {
    if (Math.abs(c.t - t) <= withinMs && (!best || Math.abs(c.t - t) < Math.abs(best.t - t))) best = c;
  }
  return best;
}

type TooltipItem = {
  payload?: SeriesPoint | EventMarker | CalibrationMarker | AlertSounding | { value: null };
};

/**
 * The trace's tooltip follows the pointer along the time axis (and the arrow keys), so it names the
 * reading there and, when the pointer is on a calibration's diamond, that calibration too: an
 * axis-wide tooltip matches other series only at the very same time, which a calibration never is.
 * On the event strip it names the event under the pointer.
 */
function TraceTooltip({
  active,
  payload,
  label,
  unit,
  calibrations = [],
  nearMs = 0,
}: {
  active?: boolean;
  payload?: TooltipItem[];
  label?: unknown;
  unit: GlucoseUnit;
  calibrations?: readonly CalibrationMarker[];
  nearMs?: number;
}) {
  // Gap breaks have a null value; an event may too (health events), and is still an event.
  const item = payload?.find(
    (p) => p.payload && ("type" in p.payload || "alertName" in p.payload || p.payload.value !== null),
  )?.payload;
  if (!active || !item || !("displayTime" in item || "display" in item)) return null;
  let time: string;
  let text: string;
  let calibration: CalibrationMarker | null = null;
  if ("display" in item) {
    time = item.display;
    text = withGlucoseUnit(pointText(item, unit), unit);
    calibration = calibrationNear(calibrations, typeof label === "number" ? label : item.t, nearMs);
  } else if ("type" in item) {
    time = item.displayTime;
    text = eventText(item, unit);
  } else if ("alertName" in item) {
    time = item.displayTime;
    text = alertText(item);
  } else {
    time = item.displayTime;
    text = calibrationText(item, unit);
  }
  return (
    <div className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow dark:border-slate-600 dark:bg-slate-900">
      <div className="font-medium">{text}</div>
      <div className="text-slate-700 dark:text-slate-300">{formatDisplayTime(time)}</div>
      {calibration && (
        <div className="mt-1 border-t border-slate-200 pt-1 dark:border-slate-700">
          <span className="font-medium">{calibrationText(calibration, unit)}</span>{" "}
          <span className="text-slate-700 dark:text-slate-300">
            at {formatDisplayTime(calibration.displayTime)}
          </span>
        </div>
      )}
    </div>
  );
}

/** The trace itself, laid over the server-drawn SVG (which it hides once its line exists, globals.css). */
export function TracePlot({ overview, bands }: { overview: DecodedChart; bands?: readonly NoteBand[] }) {
  const { unit, trace, target } = overview;
  const low = sentinelValue("low", unit);
  const high = sentinelValue("high", unit);
  const span = trace.endMs - trace.startMs;
  const label = (t: number) =>
    wallClockLabel(t, offsetAt(t, trace.initialOffsetMinutes, overview.clockChanges), span);
  const sentinels = trace.points.filter(
    (p): p is SeriesPoint => p.value !== null && (p as SeriesPoint).sentinel !== null,
  );
  const edge = (mgdl: number) => roundForUnit(convertGlucose(mgdl, "mg/dL", unit), unit);
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart
        margin={MARGIN}
        title={`Glucose trace in ${unit}`}
        desc="The readings, lowest to highest per hour or day, are also in the table below the chart."
      >
        <CartesianGrid stroke="currentColor" strokeOpacity={0.12} vertical={false} />
        <XAxis
          type="number"
          dataKey="t"
          domain={[trace.startMs, trace.endMs]}
          allowDataOverflow
          scale="time"
          height={X_AXIS_HEIGHT}
          ticks={trace.ticks}
          tickFormatter={label}
          tick={{ fontSize: 12, fill: "currentColor" }}
          minTickGap={24}
        />
        <YAxis
          type="number"
          domain={[low, high]}
          ticks={axisTicks(unit)}
          tickFormatter={(v: number) => formatGlucoseNumber(v, unit)}
          allowDataOverflow
          width={Y_AXIS_WIDTH}
          tick={{ fontSize: 12, fill: "currentColor" }}
        />
        {bandsWithin(bands, trace.startMs, trace.endMs).map((b) => (
          <ReferenceArea
            key={b.id}
            x1={b.startMs}
            x2={b.endMs}
            y1={low}
            y2={high}
            className="trace-note-band"
            fill={NOTE_BAND_COLOUR}
            fillOpacity={NOTE_BAND_OPACITY}
            label={{ value: b.label, position: "insideTopLeft", fontSize: 11, fill: "currentColor" }}
          />
        ))}
        <ReferenceArea y1={target.low} y2={target.high} fill={TRACE_COLOURS.targetBand} fillOpacity={0.14} />
        <ReferenceLine y={target.low} stroke={TRACE_COLOURS.targetBand} strokeWidth={1.5} />
        <ReferenceLine y={target.high} stroke={TRACE_COLOURS.targetBand} strokeWidth={1.5} />
        <ReferenceLine y={edge(54)} stroke={TRACE_COLOURS.veryLowLine} strokeDasharray="4 4" />
        <ReferenceLine y={edge(250)} stroke={TRACE_COLOURS.veryHighLine} strokeDasharray="4 4" />
        {overview.clockChanges.map((c) => (
          <ReferenceLine
            key={c.t}
            x={c.t}
            stroke="currentColor"
            strokeDasharray="2 3"
            label={{
              value: clockChangeText(c.toMinutes - c.fromMinutes),
              position: "insideTopLeft",
              fontSize: 11,
              fill: "currentColor",
            }}
          />
        ))}
        <Line
          data={trace.points}
          dataKey="value"
          type="linear"
          stroke={TRACE_COLOURS.line}
          strokeWidth={2}
          dot={false}
          activeDot={{ r: 4 }}
          connectNulls={false}
          isAnimationActive={false}
        />
        {(["low", "high"] as const).map((kind) => (
          <Scatter
            key={kind}
            data={sentinels.filter((p) => p.sentinel === kind)}
            dataKey="value"
            shape={(props: { cx?: number; cy?: number }) =>
              props.cx === undefined || props.cy === undefined ? (
                <g />
              ) : (
                <path
                  d={offScaleMarkerPath(props.cx, props.cy, kind)}
                  fill={TRACE_COLOURS.offScale}
                  className={`trace-${kind}-marker`}
                />
              )
            }
            fill={TRACE_COLOURS.offScale}
            isAnimationActive={false}
          />
        ))}
        <Scatter
          data={overview.calibrations}
          dataKey="value"
          className="trace-calibrations"
          shape="diamond"
          fill={TRACE_COLOURS.calibration}
          // The outline in the text colour keeps the black diamond visible on a dark background.
          stroke="currentColor"
          isAnimationActive={false}
        />
        <Tooltip
          content={
            <TraceTooltip
              unit={unit}
              calibrations={overview.calibrations}
              nearMs={Math.max(CALIBRATION_NEAR_MIN_MS, span / CALIBRATION_NEAR_FRACTION)}
            />
          }
          isAnimationActive={false}
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
}

/** The events (and alerts) on a strip beneath the trace, one row each type. */
export function EventStrip({ overview, rows }: { overview: DecodedChart; rows: StripRow[] }) {
  const { unit, trace } = overview;
  const alerts = overview.alerts ?? [];
  const rowData = (row: StripRow, i: number): Array<Record<string, unknown>> =>
    row === "alerts"
      ? alerts.map((a) => ({ ...a, row: i }))
      : overview.events.filter((e) => e.type === row).map((e) => ({ ...e, row: i }));
  return (
    <ResponsiveContainer width="100%" height="100%">
      {/* A scatter chart: a composed chart's tooltip only follows the axis, and the strip's
          markers are apart from each other, so its tooltip never found one. */}
      <ScatterChart
        margin={{ top: 4, right: 8, bottom: 0, left: 0 }}
        title={alerts.length > 0 ? "Logged events and alerts on the trace" : "Logged events on the trace"}
        desc="The events, with their amounts, are also in the table below the chart."
      >
        <XAxis type="number" dataKey="t" domain={[trace.startMs, trace.endMs]} hide allowDataOverflow />
        <YAxis
          type="number"
          dataKey="row"
          domain={[-0.5, rows.length - 0.5]}
          ticks={rows.map((_, i) => i)}
          tickFormatter={(i: number) => rowLabel(rows[i] ?? "carbs")}
          reversed
          width={Y_AXIS_WIDTH}
          tick={{ fontSize: 10, fill: "currentColor" }}
        />
        {rows.map((type, row) => (
          <Scatter
            key={type}
            name={rowLabel(type)}
            data={rowData(type, row)}
            dataKey="row"
            fill={type === "alerts" ? TRACE_COLOURS.alerts : TRACE_COLOURS.events[type]}
            // Text-coloured markers get an outline of the same colour, as the calibrations.
            stroke={type === "notes" || type === "unknown" ? "currentColor" : undefined}
            shape={ROW_SHAPES[type]}
            className={type === "alerts" ? "trace-alerts" : undefined}
            isAnimationActive={false}
          />
        ))}
        <Tooltip content={<TraceTooltip unit={unit} />} isAnimationActive={false} cursor={false} />
      </ScatterChart>
    </ResponsiveContainer>
  );
}

function clockChangeText(minutes: number): string {
  const sign = minutes > 0 ? "+" : "−";
  const abs = Math.abs(minutes);
  const h = Math.floor(abs / 60);
  const m = abs % 60;
  return `Clock ${sign}${h ? `${h} h` : ""}${m ? `${h ? " " : ""}${m} min` : ""}`;
}
