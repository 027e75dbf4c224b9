import type { CgmEvent } from "@/lib/cgm/app-records";
import { MS_PER_DAY, parseDateTime } from "@/lib/cgm/datetime";
import { pointText } from "@/lib/cgm/glucose-text";
import { type Reading, toReadings } from "@/lib/cgm/reading";
import type { Calibration, EgvsV2Response, HypoglycemiaRisk, StatisticsV2Response } from "@/lib/cgm/schemas";
import { TREND_DESCRIPTIONS, type Trend } from "@/lib/cgm/trend";
import { convertGlucose, fromMgdlRounded, type GlucoseUnit, roundForUnit, toMgdl } from "@/lib/cgm/units";
import { cgmEpisodes, gmi } from "@/lib/metrics";
import { type ReportMetrics, reportMetrics } from "@/lib/metrics/report";
import type { TargetGroup, TargetPreset } from "@/lib/metrics/targets";
import type { Preferences } from "@/lib/preferences";
import type { AlertSounding } from "@/lib/records/alerts";
import { bandRangeText } from "@/lib/reports/agp/agp-model";
import { type EpisodesView, episodesView } from "@/lib/reports/episodes-view";
import { windowDayCount } from "@/lib/reports/period/period-days";
import {
  type ClockChange,
  clockChanges,
  type DataFreshness,
  dataFreshness,
  encodeSeries,
  formatDisplayDay,
  type GapBreak,
  reduceForDrawing,
  roundWallClockTicks,
  type TracePoint,
  type TraceSeries,
  type TraceTableRow,
  tracePointsOf,
  traceTable,
  withGapBreaks,
} from "@/lib/trace";
import {
  type GoalHeadline,
  goalHeadline,
  type JudgedRanges,
  judgeRanges,
  shadingNote,
} from "./judged-ranges";
import { TRACE_RANGES, type TraceRange } from "./ranges";

/**
 * The patient's overview as the page draws it: pure assembly of what the service answered (EGVs,
 * events, calibrations, v2 statistics) into numbers in the unit on screen. No I/O here: the
 * server loader (overview.ts) fetches, this shapes, and the tests feed it hand-made records.
 */

export {
  DEFAULT_RANGE,
  overviewPath,
  parseTraceRange,
  TRACE_RANGE_LABELS,
  TRACE_RANGES,
  type TraceRange,
} from "./ranges";

/**
 * Time in range and the other summary numbers need weeks of data to mean something (the consensus
 * reads 14 days), so a short trace is summarized over the last 14 days; a longer one over itself.
 */
export const SUMMARY_MIN_MS = 14 * MS_PER_DAY;
export const summaryWindowMs = (range: TraceRange) => Math.max(TRACE_RANGES[range], SUMMARY_MIN_MS);

/**
 * The windows the overview asks the service for. They end one second past the newest reading, so
 * they surely include it, and count back from there, so a 90-day view asks for exactly 90 days
 * (the service's longest window).
 */
export function overviewWindows(range: TraceRange, dataEndMs: number) {
  const endMs = dataEndMs + 1000;
  return {
    trace: { startMs: endMs - TRACE_RANGES[range], endMs },
    summary: { startMs: endMs - summaryWindowMs(range), endMs },
  };
}

/**
 * The summary's true period, named by its last day on the receiver's clock: "14 days to Sun 15
 * Nov". It ends at the newest reading, which may be days old, so "the last 14 days" could be
 * another period than the one summarized.
 */
export function summaryPeriodText(overview: {
  summary: { startMs: number; endMs: number };
  latest: { displayTime: string } | null;
}): string {
  const days = windowDayCount(overview.summary.startMs, overview.summary.endMs);
  const span = `${days} days`;
  return overview.latest ? `${span} to ${formatDisplayDay(overview.latest.displayTime)}` : span;
}

/** Points drawn at most: recharts stays fast below ~2,000 (see STACK-NOTES), extremes are kept. */
export const MAX_DRAWN_POINTS = 1_500;

export interface LatestView {
  t: number;
  displayTime: string;
  /** "LOW", "HIGH" or the number as text in the unit on screen. */
  text: string;
  sentinel: "low" | "high" | null;
  trend: Trend;
  trendDescription: string;
  /** Rate in the unit on screen per minute, rounded for reading; null when the service gave none. */
  rate: number | null;
}

export interface EventMarker {
  t: number;
  displayTime: string;
  type: CgmEvent["eventType"];
  subType: CgmEvent["eventSubType"];
  value: number | null;
  unit: CgmEvent["unit"];
  /** A note's text (API v3); null for other events. */
  text: string | null;
}

export interface CalibrationMarker {
  t: number;
  displayTime: string;
  value: number;
}

/**
 * The summary window's report metrics (lib/metrics/report.ts, the one computation the reports
 * share) as the overview shows them beside the service's: mean and SD in the unit on screen,
 * rounded as devices display; the rest as computed.
 */
export type OurSummary = Pick<
  ReportMetrics,
  "nValues" | "sensorActivePercent" | "cv" | "gmi" | "timeInRanges" | "timeInTightRange"
> & {
  /** In the unit on screen. */
  mean: number | null;
  sd: number | null;
};

const inUnit = (mgdl: number | null, unit: GlucoseUnit) =>
  mgdl === null ? null : fromMgdlRounded(mgdl, unit);

export function ourSummary(m: ReportMetrics, unit: GlucoseUnit): OurSummary {
  return {
    nValues: m.nValues,
    sensorActivePercent: m.sensorActivePercent,
    mean: inUnit(m.mean, unit),
    sd: inUnit(m.sd, unit),
    cv: m.cv,
    gmi: m.gmi,
    timeInRanges: m.timeInRanges,
    timeInTightRange: m.timeInTightRange,
  };
}

/**
 * The CGM episodes of the summary window, and the window named as its readings lie on the
 * receiver's clock (first and last displayTime): the window ends at the newest reading the service
 * released, which may be hours before now, so "the last 14 days" alone would not say which days.
 */
export interface OverviewEpisodes {
  firstDisplayTime: string;
  lastDisplayTime: string;
  /** Null where readings are too sparse for episodes (more than 45 minutes apart). */
  view: EpisodesView | null;
}

export interface ServiceSummary {
  hypoglycemiaRisk: StatisticsV2Response["hypoglycemiaRisk"];
  percentUrgentLow: number;
  percentBelowRange: number;
  percentWithinRange: number;
  percentAboveRange: number;
  /** In the unit on screen. */
  mean: number;
  sd: number;
  /** Derived from the service's mean and SD with our definitions (the service gives neither). */
  cv: number | null;
  gmi: number | null;
  utilizationPercent: number;
  nValues: number;
  nDays: number;
}

export type StatisticsBy = "service" | "dashboard";

/** The hypoglycemia risk of the summary window, and who computed it. */
export interface RiskView {
  risk: HypoglycemiaRisk | null;
  by: StatisticsBy;
}

export interface Overview {
  range: TraceRange;
  unit: GlucoseUnit;
  dataUnit: GlucoseUnit;
  /** Target range in the unit on screen: the patient's display band, which shades the trace only. */
  target: { low: number; high: number };
  /** What the shading is, and that the numbers keep the consensus ranges when it differs. */
  shading: string;
  /** systemTime (ms) of the service's newest EGV: the client asks dataRange whether it moved. */
  dataEndMs: number;
  latest: LatestView | null;
  freshness: DataFreshness | null;
  trace: {
    startMs: number;
    endMs: number;
    /** Reduced for drawing (extremes kept), with breaks where readings are missing. */
    points: Array<TracePoint | GapBreak>;
    readings: number;
    /** Offset (displayTime − systemTime) of the first reading, for axis labels. */
    initialOffsetMinutes: number;
    /** systemTimes of the x-axis ticks, at round times of the patient's clock. */
    ticks: number[];
    /** The chart's text alternative: per hour up to a day, per day beyond. */
    table: TraceTableRow[];
    tableBy: "hour" | "day";
  };
  events: EventMarker[];
  calibrations: CalibrationMarker[];
  /** The alerts that sounded on the trace (API v3; empty with v2, which has none). */
  alerts: AlertSounding[];
  clockChanges: ClockChange[];
  summary: {
    startMs: number;
    endMs: number;
    /** Whole days the summary reads ("the last 14 days"). */
    days: number;
    ours: OurSummary;
    /** The summary judged against the patient's target group; null without readings. */
    goals: JudgedRanges | null;
    /** The worst unmet goal in words, for the top of the page; null without readings. */
    headline: GoalHeadline | null;
    /** The service's own statistics (API v2); null with API v3, which has none. */
    service: ServiceSummary | null;
    hypoglycemiaRisk: RiskView;
    /** Null without readings in the summary window. */
    episodes: OverviewEpisodes | null;
  };
  /** The target group whose goals judge this view's data (lib/preferences/target-group.ts). */
  targetGroup: TargetGroup;
}

/** The overview as the page sends it to the browser: the trace's points once, as columns. */
export type SentOverview = Omit<Overview, "trace"> & {
  trace: Omit<Overview["trace"], "points"> & { series: TraceSeries };
};

export function sentOverview({ trace: { points, ...trace }, ...overview }: Overview): SentOverview {
  return { ...overview, trace: { ...trace, series: encodeSeries(points) } };
}

/**
 * What the trace chart draws: the overview satisfies it, and so can any other view (the daily
 * view) that brings its own window, points and optional wall-clock ticks.
 */
export type TraceChart = Pick<Overview, "unit" | "target" | "clockChanges" | "events" | "calibrations"> & {
  /** Alert soundings (API v3); absent or empty: no alert row. */
  alerts?: AlertSounding[];
  trace: Pick<Overview["trace"], "startMs" | "endMs" | "points" | "initialOffsetMinutes"> & {
    /** systemTimes of the x-axis ticks; absent: recharts chooses. */
    ticks?: number[];
  };
};

/** An event as the chart marks it (systemTime for position, displayTime for the label). */
export function eventMarker(e: CgmEvent): EventMarker {
  return {
    t: parseDateTime(e.systemTime) ?? 0,
    displayTime: e.displayTime,
    type: e.eventType,
    subType: e.eventSubType,
    value: e.value,
    unit: e.unit,
    text: e.text ?? null,
  };
}

/** A calibration as the chart marks it, converted from its own unit to the one on screen. */
export function calibrationMarker(c: Calibration, unit: GlucoseUnit): CalibrationMarker {
  return {
    t: parseDateTime(c.systemTime) ?? 0,
    displayTime: c.displayTime,
    value: roundForUnit(convertGlucose(c.value, c.unit, unit), unit),
  };
}

export interface OverviewInput {
  range: TraceRange;
  preferences: Preferences;
  /** The group the view judges by (default: the standard goals). */
  dataEndMs: number;
  nowMs: number;
  expectedDelayMinutes: number;
  /** EGVs of the whole summary window (which contains the trace window). */
  egvs: EgvsV2Response;
  /** `toReadings` of `egvs`, when the caller has read them already; absent: read here. */
  readings?: readonly Reading[];
  events: CgmEvent[];
  calibrations: Calibration[];
  /** The alerts that sounded (API v3, lib/records/alerts.ts); absent with v2. */
  alerts?: AlertSounding[];
  /** The service's v2 statistics of the summary window; null when it gave none or was not asked. */
  statistics: StatisticsV2Response | null;
  /**
   * Who computes the statistics beside ours: the service (API v2, `statistics`), or, with API v3,
   * which has none, nobody but this dashboard, which then computes the hypoglycemia risk itself
   * with the service's method (lib/metrics/service-statistics.ts). Default: the service.
   */
  statisticsBy?: StatisticsBy;
  /**
   * With statisticsBy "dashboard": the risk of the summary window computed by the server loader
   * (overview.ts; not here, which browser code imports, as the method needs the service's schemas).
   */
  dashboardRisk?: HypoglycemiaRisk | null;
  /** The patient's consensus target group: its bands and goals judge the summary. */
  preset: TargetPreset;
  /** Whose display setting the shading is, in the reader's words (lib/records/viewer.ts). */
  your?: string;
}

/** Rates read to one more decimal than values: 1.3 mg/dL/min, 0.07 mmol/L/min. */
export const roundRate = (rate: number, unit: GlucoseUnit) =>
  unit === "mg/dL" ? Math.round(rate * 10) / 10 : Math.round(rate * 100) / 100;

export function buildOverview(input: OverviewInput): Overview {
  const { range, preferences, dataEndMs, egvs } = input;
  const statisticsBy = input.statisticsBy ?? "service";
  const dataUnit = egvs.unit;
  const unit = preferences.unit ?? dataUnit;
  const windows = overviewWindows(range, dataEndMs);
  const traceStartMs = windows.trace.startMs;

  const readings = input.readings ?? toReadings(egvs.egvs, dataUnit);
  const all = tracePointsOf(readings, dataUnit, unit, egvs.rateUnit);
  const traced = all.filter((p) => p.t >= traceStartMs);
  const last = all.at(-1);

  const initialOffsetMinutes = traced[0]?.offsetMinutes ?? last?.offsetMinutes ?? 0;
  const changes = clockChanges(traced);
  const tableBy = TRACE_RANGES[range] <= TRACE_RANGES["24h"] ? "hour" : "day";
  const valuesMgdl = readings.map((r) => r.mgdl);
  const metrics = reportMetrics(valuesMgdl, windows.summary.startMs, windows.summary.endMs);
  const summaryDays = Math.round((windows.summary.endMs - windows.summary.startMs) / MS_PER_DAY);
  const goals = judgeRanges(input.preset, valuesMgdl, metrics.cv, unit);

  const target = {
    low: fromMgdlRounded(preferences.targetLowMgdl, unit),
    high: fromMgdlRounded(preferences.targetHighMgdl, unit),
  };

  return {
    range,
    unit,
    dataUnit,
    target,
    shading: shadingNote(target, unit, bandRangeText("inRange", input.preset.edges, unit), input.your),
    dataEndMs,
    targetGroup: input.preset.id,
    latest: last
      ? {
          t: last.t,
          displayTime: last.display,
          // The trace point's own sentinel, decided in the data's unit (pointText): converted
          // first, an mmol/L LOW (2.2) would round to an in-range 40 mg/dL.
          text: pointText(last, unit),
          sentinel: last.sentinel,
          trend: last.trend ?? "none",
          trendDescription: TREND_DESCRIPTIONS[last.trend ?? "none"],
          rate: last.rate === null ? null : roundRate(last.rate, unit),
        }
      : null,
    freshness: last ? dataFreshness(last.t, input.nowMs, input.expectedDelayMinutes) : null,
    trace: {
      startMs: traceStartMs,
      endMs: windows.trace.endMs,
      points: reduceForDrawing(withGapBreaks(traced), MAX_DRAWN_POINTS),
      readings: traced.length,
      initialOffsetMinutes,
      ticks: roundWallClockTicks(traceStartMs, windows.trace.endMs, initialOffsetMinutes, changes),
      table: traceTable(traced, unit, tableBy),
      tableBy,
    },
    events: input.events
      .filter((e) => e.eventStatus !== "deleted")
      .map(eventMarker)
      .filter((e) => e.t >= traceStartMs && e.t <= dataEndMs)
      .sort((a, b) => a.t - b.t),
    calibrations: input.calibrations
      .map((c) => calibrationMarker(c, unit))
      .filter((c) => c.t >= traceStartMs && c.t <= dataEndMs)
      .sort((a, b) => a.t - b.t),
    alerts: (input.alerts ?? [])
      .filter((a) => a.t >= traceStartMs && a.t <= dataEndMs)
      .sort((a, b) => a.t - b.t),
    clockChanges: changes,
    summary: {
      ...windows.summary,
      days: summaryDays,
      goals,
      headline:
        goals &&
        goalHeadline(
          goals,
          `the ${summaryPeriodText({ summary: windows.summary, latest: last ? { displayTime: last.display } : null })}`,
        ),
      ours: ourSummary(metrics, unit),
      episodes: overviewEpisodes(readings, unit),
      hypoglycemiaRisk:
        statisticsBy === "dashboard"
          ? { risk: input.dashboardRisk ?? null, by: "dashboard" }
          : { risk: input.statistics?.hypoglycemiaRisk ?? null, by: "service" },
      service:
        statisticsBy === "service" && input.statistics
          ? {
              hypoglycemiaRisk: input.statistics.hypoglycemiaRisk,
              percentUrgentLow: input.statistics.percentUrgentLow,
              percentBelowRange: input.statistics.percentBelowRange,
              percentWithinRange: input.statistics.percentWithinRange,
              percentAboveRange: input.statistics.percentAboveRange,
              mean: roundForUnit(convertGlucose(input.statistics.mean, dataUnit, unit), unit),
              sd: roundForUnit(convertGlucose(input.statistics.stdDev, dataUnit, unit), unit),
              cv: input.statistics.mean > 0 ? (100 * input.statistics.stdDev) / input.statistics.mean : null,
              gmi: gmi(toMgdl(input.statistics.mean, dataUnit)),
              utilizationPercent: input.statistics.utilizationPercent,
              nValues: input.statistics.nValues,
              nDays: input.statistics.nDays,
            }
          : null,
    },
  };
}

/** The episodes of the summary window's readings, on the receiver's clock (displayTime). */
export function overviewEpisodes(readings: readonly Reading[], unit: GlucoseUnit): OverviewEpisodes | null {
  if (readings.length === 0) return null;
  // The clock's order, not the response's: the first and last displayTime name the period.
  const { first, last } = clockEnds(readings);
  return {
    firstDisplayTime: first.displayTime,
    lastDisplayTime: last.displayTime,
    view: episodesView(cgmEpisodes(readings), unit),
  };
}

/**
 * The first and last of readings (at least one) in displayTime order, as a stable sort by
 * displayMs would put them: of equal times, the first and the last in input order. One pass, where
 * sorting a copy of a 90-day window's 26,000 readings cost milliseconds for two of them.
 */
export function clockEnds<R extends { displayMs: number }>(readings: readonly R[]): { first: R; last: R } {
  let first = readings[0]!;
  let last = first;
  for (const r of readings) {
    if (r.displayMs < first.displayMs) first = r;
    if (r.displayMs >= last.displayMs) last = r;
  }
  return { first, last };
}
