import { tz } from "@date-fns/tz";
import { addDays, format, isValid, parse } from "date-fns";
import { z } from "zod";
import type { CgmEvent } from "@/lib/cgm/app-records";
import { clockOffsetMinutes } from "@/lib/cgm/clock-offset";
import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE, parseDateTime } from "@/lib/cgm/datetime";
import { displayValue, pointText } from "@/lib/cgm/glucose-text";
import { toReadings } from "@/lib/cgm/reading";
import type { Calibration, DataRangeResponse, EgvsV2Response } from "@/lib/cgm/schemas";
import { convertGlucose, fromMgdlRounded, type GlucoseUnit } from "@/lib/cgm/units";
import { type Window, windowOf } from "@/lib/cgm/window";
import { readableWindow } from "@/lib/cgm/window-bounds";
import { coefficientOfVariation, maximum, mean, minimum, timeInRanges } from "@/lib/metrics";
import type { TargetPreset } from "@/lib/metrics/targets";
import type { Preferences } from "@/lib/preferences";
import type { AlertSounding } from "@/lib/records/alerts";
import { type CalibrationRow, calibrationRows } from "@/lib/records/calibrations";
import { type EventRow, eventRow } from "@/lib/records/events";
import { firstParam, type SearchParam } from "@/lib/records/query";
import { bandRangeText } from "@/lib/reports/agp/agp-model";
import {
  type ClockChange,
  clockChanges,
  expectedReadings,
  missingReadings,
  READING_INTERVAL_MS,
  type TracePoint,
  type TraceTableRow,
  tracePointsOf,
  traceTable,
  wallClockLabel,
  withGapBreaks,
} from "@/lib/trace";
import { type DayEpisode, dayEpisodes } from "./day-episodes";
import { type JudgedRanges, judgeRanges, shadingNote } from "./judged-ranges";
import { calibrationMarker, eventMarker, type TraceChart } from "./overview-model";

/**
 * The daily view: one calendar day on the patient's own clock (the date of displayTime), its
 * readings in the order they happened (systemTime), its events, calibrations and numbers. Pure:
 * the loader (day.ts) fetches, this shapes, and the tests feed it hand-made records.
 */

export const DAY_PATH = "/dashboard/day";

/** The daily view's URL; no date means the day of the latest reading. */
export const dayHref = (day: string | null) => (day === null ? DAY_PATH : `${DAY_PATH}?date=${day}`);

// Real zone offsets run from −12 h to +14 h; ±14 h around the day's wall-clock bounds surely
// holds every reading whose displayTime falls on the day, whatever the clock did that day.
const MAX_OFFSET_MS = 14 * MS_PER_HOUR;

/**
 * Hours of the receiver's clock fetched beyond the day on either side, whatever its offset, so
 * that the day's CGM episodes are found as over the whole data (day-episodes.ts): an episode that
 * crosses midnight is seen from its start and to the 15 minutes that end it. 6 h covers every
 * low or high that does not last longer (an extended low is 2 h); a longer one is cut at the
 * context's edge, as iglu cuts one at the edge of the data it is given.
 */
export const EPISODE_CONTEXT_MS = 6 * MS_PER_HOUR;

const TICK_EVERY_HOURS = 3;

// ---- The day asked for ---------------------------------------------------------------------------

const DAY_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

// Calendar days are read on UTC so that the server's own zone never moves a date.
const calendar = { in: tz("UTC") };
const asDate = (day: string) => parse(day, "yyyy-MM-dd", new Date(0), calendar);

export const calendarDaySchema = z
  .string()
  .regex(DAY_SHAPE, { message: "write the day as YYYY-MM-DD, for example 2026-11-01" })
  .refine((day) => isValid(asDate(day)), { message: "there is no such day in the calendar" });

export type DayRequest =
  | { kind: "latest" }
  | { kind: "day"; day: string }
  | { kind: "invalid"; text: string; problem: string };

/** What the daily view's loader (day.ts) found; declared here, apart from that server module, so pages' components can name it. */
export type DayView =
  /** The service holds no EGVs at all. */
  | { kind: "empty" }
  /** A day before the first or after the newest reading: nothing to fetch. */
  | { kind: "outside"; day: string; placement: "before" | "after"; bounds: DataBounds }
  | { kind: "day"; model: DayModel };

/** `?date=`: absent or empty means the latest day; anything but a real YYYY-MM-DD is invalid. */
export function parseDayParam(param: SearchParam): DayRequest {
  const text = firstParam(param)?.trim();
  if (!text) return { kind: "latest" };
  const parsed = calendarDaySchema.safeParse(text);
  if (!parsed.success) return { kind: "invalid", text, problem: parsed.error.issues[0]?.message ?? "" };
  return { kind: "day", day: parsed.data };
}

/** The day `n` days later (earlier for negative n), "yyyy-MM-dd". */
export const shiftDay = (day: string, n: number) => format(addDays(asDate(day), n), "yyyy-MM-dd");

/** "Sunday 1 November 2026". */
export const dayInWords = (day: string) => format(asDate(day), "EEEE d MMMM yyyy");

/** "Sun 1 Nov". */
export const dayShort = (day: string) => format(asDate(day), "EEE d MMM");

/** Midnight starting the day, on the naive axis of displayTime (wall clock read as UTC). */
const wallStartMs = (day: string) => asDate(day).getTime();

/**
 * The systemTime window to fetch: the day's wall-clock bounds widened by the largest offsets and
 * the episodes' context, but
 * never past the dates a request may read (1 January 2000 widened would start in 1999).
 */
export function dayFetchWindow(day: string): Window {
  const start = wallStartMs(day);
  const widen = MAX_OFFSET_MS + EPISODE_CONTEXT_MS;
  const { startMs, endMs } = readableWindow(start - widen, start + MS_PER_DAY + widen);
  return windowOf(startMs, endMs);
}

// ---- The data there is ---------------------------------------------------------------------------

export interface DataBounds {
  /** Display dates of the oldest and newest EGV. */
  firstDay: string;
  lastDay: string;
  /** systemTimes (ms) of the oldest and newest EGV. */
  startMs: number;
  endMs: number;
  /** The newest EGV's clock offset: the best guess for a stretch with no readings at all. */
  offsetMinutes: number;
}

/** The EGV bounds of the service's dataRange, or null when it holds no EGVs. */
export function dataBounds(egvs: DataRangeResponse["egvs"]): DataBounds | null {
  if (!egvs) return null;
  const startMs = parseDateTime(egvs.start.systemTime);
  const endMs = parseDateTime(egvs.end.systemTime);
  if (startMs === null || endMs === null) return null;
  return {
    firstDay: egvs.start.displayTime.slice(0, 10),
    lastDay: egvs.end.displayTime.slice(0, 10),
    startMs,
    endMs,
    offsetMinutes: clockOffsetMinutes(egvs.end.systemTime, egvs.end.displayTime) ?? 0,
  };
}

export type DayPlacement = "before" | "within" | "after";

/** Where a day lies against the data (YYYY-MM-DD compares as text). */
export function placeDay(day: string, bounds: Pick<DataBounds, "firstDay" | "lastDay">): DayPlacement {
  if (day < bounds.firstDay) return "before";
  if (day > bounds.lastDay) return "after";
  return "within";
}

// ---- The clock of the day ------------------------------------------------------------------------

/** A stretch of systemTime [from, to) on one clock offset. */
interface OffsetSpan {
  from: number;
  to: number;
  offsetMinutes: number;
  /** After a switch: the last reading on the old offset and the first on this one. */
  readingsAround: [number, number] | null;
}

export interface DayClockChange extends ClockChange {
  /** On the old clock: "at 02:00", or "between 15:40 and 16:55" when no readings tell the moment. */
  when: string;
  note: string;
}

/**
 * When the clock switched. The readings only say it happened after one reading and by the next;
 * offsets are whole quarter hours, so a 5-minute mark of systemTime is one of the wall clock too,
 * and the mark at or before the first reading on the new offset is the round time clocks change at
 * (02:00, not 02:02:30).
 */
const switchInstant = (firstOnNewOffset: number) =>
  Math.floor(firstOnNewOffset / READING_INTERVAL_MS) * READING_INTERVAL_MS;

// Readings a little more than one interval apart are still neighbours (their times jitter); beyond
// that a gap (a flight, a lost signal) hides when the clock changed.
const NEIGHBOURS_MS = 1.5 * READING_INTERVAL_MS;

function offsetSpans(points: readonly TracePoint[], fallbackOffsetMinutes: number): OffsetSpan[] {
  const spans: OffsetSpan[] = [];
  let from = Number.NEGATIVE_INFINITY;
  let offsetMinutes = points[0]?.offsetMinutes ?? fallbackOffsetMinutes;
  let readingsAround: OffsetSpan["readingsAround"] = null;
  for (const c of clockChanges(points)) {
    const at = switchInstant(c.t);
    spans.push({ from, to: at, offsetMinutes, readingsAround });
    const before = points[points.findIndex((p) => p.t === c.t) - 1];
    from = at;
    offsetMinutes = c.toMinutes;
    readingsAround = [before?.t ?? c.t, c.t];
  }
  spans.push({ from, to: Number.POSITIVE_INFINITY, offsetMinutes, readingsAround });
  return spans;
}

/** The systemTime stretches in which the wall clock showed the day: 23 h, 25 h, or a travel day's. */
function dayWindows(day: string, spans: readonly OffsetSpan[]): Array<[number, number]> {
  const wallStart = wallStartMs(day);
  const windows: Array<[number, number]> = [];
  for (const s of spans) {
    const offsetMs = s.offsetMinutes * MS_PER_MINUTE;
    const from = Math.max(s.from, wallStart - offsetMs);
    const to = Math.min(s.to, wallStart + MS_PER_DAY - offsetMs);
    if (from >= to) continue;
    const last = windows.at(-1);
    // Spans meet at a switch: a day that runs across one is one stretch of real time.
    if (last && last[1] === from) last[1] = to;
    else windows.push([from, to]);
  }
  return windows;
}

/**
 * Axis ticks every 3 h of the patient's clock (an hour the clock skipped gets none, one it repeated
 * gets two), and one at each switch, so the axis reads where the clock jumped to.
 */
function wallClockTicks(day: string, spans: readonly OffsetSpan[], startMs: number, endMs: number): number[] {
  const inDay = (t: number) => t >= startMs && t <= endMs;
  const ticks = new Set<number>();
  for (let h = 0; h <= 24; h += TICK_EVERY_HOURS) {
    const wall = wallStartMs(day) + h * MS_PER_HOUR;
    for (const s of spans) {
      const t = wall - s.offsetMinutes * MS_PER_MINUTE;
      if (t >= s.from && t < s.to && inDay(t)) ticks.add(t);
    }
  }
  for (const s of spans) if (inDay(s.from)) ticks.add(s.from);
  return [...ticks].sort((a, b) => a - b);
}

const durationText = (minutes: number) => {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return [h ? `${h} h` : "", m ? `${m} min` : ""].filter(Boolean).join(" ");
};

/** "Clocks went back 1 h at 02:00 — the repeated hour is shown in order of real time." */
export function clockChangeNote(change: Pick<ClockChange, "fromMinutes" | "toMinutes">, when: string) {
  const delta = change.toMinutes - change.fromMinutes;
  const size = Math.abs(delta);
  const what = size === 60 ? "hour is" : size < 60 ? "minutes are" : "hours are";
  return delta < 0
    ? `Clocks went back ${durationText(size)} ${when} — the repeated ${what} shown in order of real time.`
    : `Clocks went forward ${durationText(size)} ${when} — the skipped ${what} not missing data.`;
}

function dayClockChanges(spans: readonly OffsetSpan[], startMs: number, endMs: number): DayClockChange[] {
  const out: DayClockChange[] = [];
  for (let i = 1; i < spans.length; i++) {
    const before = spans[i - 1]!;
    const after = spans[i]!;
    if (after.from < startMs || after.from >= endMs || !after.readingsAround) continue;
    const [last, first] = after.readingsAround;
    const oldClock = (t: number) => wallClockLabel(t, before.offsetMinutes, 0);
    const when =
      first - last <= NEIGHBOURS_MS
        ? `at ${oldClock(after.from)}`
        : `between ${oldClock(last)} and ${oldClock(first)}`;
    const change = { fromMinutes: before.offsetMinutes, toMinutes: after.offsetMinutes };
    out.push({
      // The switch instant, not the first reading after it: axis labels read the offset in force
      // at a tick, and a tick at the switch belongs to the new clock.
      t: after.from,
      ...change,
      when,
      note: clockChangeNote(change, when),
    });
  }
  return out;
}

// ---- The day's numbers ---------------------------------------------------------------------------

export interface DayCoverage {
  /** Readings the day should hold at one per 5 minutes, within the data the service has. */
  expected: number;
  missing: number;
}

function dayCoverage(
  points: readonly TracePoint[],
  windows: ReadonlyArray<[number, number]>,
  bounds: Pick<DataBounds, "startMs" | "endMs">,
): DayCoverage {
  let expected = 0;
  let missing = 0;
  for (const [from, to] of windows) {
    // Before the first reading and after the newest nothing is missing: it does not exist yet.
    const start = Math.max(from, bounds.startMs);
    const end = Math.min(to, bounds.endMs + READING_INTERVAL_MS);
    if (start >= end) continue;
    expected += expectedReadings(start, end);
    missing += missingReadings(points, start, end);
  }
  return { expected, missing };
}

export interface DaySummary {
  readings: number;
  /** "LOW", "HIGH" or the number in the unit on screen; null without readings. */
  mean: string | null;
  lowest: string | null;
  highest: string | null;
  /**
   * The day's time in the target group's bands, judged against the group's goals: one day, where
   * the consensus reads 14, so the view says so. Null without readings.
   */
  goals: JudgedRanges | null;
  /** Readings below 70 mg/dL and above 180 mg/dL (the consensus target range). */
  lows: number;
  highs: number;
  /** Readings outside the measuring range, shown as LOW and HIGH. */
  lowSentinels: number;
  highSentinels: number;
}

function extremeText(points: readonly TracePoint[], unit: GlucoseUnit, which: "low" | "high") {
  if (points.length === 0) return null;
  // A sentinel is the extreme by definition; comparing numbers could tie it with 40 mg/dL in mmol/L.
  if (points.some((p) => p.sentinel === which)) return which === "low" ? "LOW" : "HIGH";
  const values = points.map((p) => p.value);
  const extreme = which === "low" ? minimum(values) : maximum(values);
  // By the point's own sentinel: re-classified in mmol/L, a real 40 mg/dL (2.2) would read LOW.
  // A real 2.2 mmol/L ties with LOW's edge value; the highest of those is the real one.
  const at = points.filter((p) => p.value === extreme);
  return pointText(at.find((p) => p.sentinel === null) ?? at[0]!, unit);
}

function daySummary(
  points: readonly TracePoint[],
  valuesMgdl: readonly number[],
  unit: GlucoseUnit,
  preset: TargetPreset,
) {
  const ranges = timeInRanges(valuesMgdl);
  const meanMgdl = mean(valuesMgdl);
  return {
    readings: points.length,
    mean: meanMgdl === null ? null : displayValue(convertGlucose(meanMgdl, "mg/dL", unit), unit),
    lowest: extremeText(points, unit, "low"),
    highest: extremeText(points, unit, "high"),
    goals: judgeRanges(preset, valuesMgdl, coefficientOfVariation(valuesMgdl), unit),
    lows: ranges.counts.veryLow + ranges.counts.low,
    highs: ranges.counts.high + ranges.counts.veryHigh,
    lowSentinels: points.filter((p) => p.sentinel === "low").length,
    highSentinels: points.filter((p) => p.sentinel === "high").length,
  } satisfies DaySummary;
}

// ---- Events --------------------------------------------------------------------------------------

export interface DayEvent extends EventRow {
  /** The patient's clock, "14:05". */
  clock: string;
}

const bySystemTime = (a: { systemTime: string }, b: { systemTime: string }) =>
  a.systemTime < b.systemTime ? -1 : a.systemTime > b.systemTime ? 1 : 0;

const onDay = (day: string) => (r: { displayTime: string }) => r.displayTime.slice(0, 10) === day;

function dayEvents(events: readonly CgmEvent[], unit: GlucoseUnit): DayEvent[] {
  return events.map((e) => ({ ...eventRow(e, unit), clock: e.displayTime.slice(11, 16) }));
}

// ---- The day -------------------------------------------------------------------------------------

export interface DayLink {
  day: string;
  /** "Sat 31 Oct". */
  label: string;
}

export interface DayModel {
  day: string;
  title: string;
  /** Null beyond the data's first and last day. */
  previous: DayLink | null;
  next: DayLink | null;
  bounds: Pick<DataBounds, "firstDay" | "lastDay">;
  unit: GlucoseUnit;
  /** The day's readings (displayTime on the day) in systemTime order. */
  points: TracePoint[];
  chart: TraceChart;
  /** What the shading is, and that the numbers keep the consensus ranges when it differs. */
  shading: string;
  /** The chart's text alternative, per hour of the patient's clock. */
  table: TraceTableRow[];
  clockChanges: DayClockChange[];
  coverage: DayCoverage;
  summary: DaySummary;
  events: DayEvent[];
  calibrations: CalibrationRow[];
  /** The CGM episodes with a point on the day (day-episodes.ts); null: readings too sparse. */
  episodes: DayEpisode[] | null;
}

export interface DayInput {
  day: string;
  preferences: Preferences;
  bounds: DataBounds;
  /** EGVs, events and calibrations of dayFetchWindow(day), any order. */
  egvs: EgvsV2Response;
  events: CgmEvent[];
  calibrations: Calibration[];
  /** The alerts that sounded in dayFetchWindow(day) (API v3); absent with v2. */
  alerts?: AlertSounding[];
  /** The patient's consensus target group: its bands and goals judge the day. */
  preset: TargetPreset;
  /** Whose display setting the shading is, in the reader's words (lib/records/viewer.ts). */
  your?: string;
}

const dayLink = (day: string): DayLink => ({ day, label: dayShort(day) });

export function buildDay(input: DayInput): DayModel {
  const { day, preferences, bounds, egvs } = input;
  const dataUnit = egvs.unit;
  const unit = preferences.unit ?? dataUnit;

  // Every reading fetched tells the clock around the day; only the day's own are shown.
  const readings = toReadings(egvs.egvs, dataUnit);
  const fetched = tracePointsOf(readings, dataUnit, unit, egvs.rateUnit);
  const spans = offsetSpans(fetched, bounds.offsetMinutes);
  const windows = dayWindows(day, spans);
  const startMs = windows[0]?.[0] ?? wallStartMs(day);
  const endMs = windows.at(-1)?.[1] ?? wallStartMs(day) + MS_PER_DAY;
  // tracePointsOf sorts by systemTime, so a repeated hour keeps the order its readings happened in.
  const points = fetched.filter((p) => p.display.slice(0, 10) === day);
  const changes = dayClockChanges(spans, startMs, endMs);

  const events = input.events
    .filter(onDay(day))
    .filter((e) => e.eventStatus !== "deleted")
    .sort(bySystemTime);
  const calibrations = input.calibrations.filter(onDay(day)).sort(bySystemTime);
  const spanAt = (t: number) => spans.find((s) => t >= s.from && t < s.to) ?? spans[0]!;
  const target = {
    low: fromMgdlRounded(preferences.targetLowMgdl, unit),
    high: fromMgdlRounded(preferences.targetHighMgdl, unit),
  };

  return {
    day,
    title: dayInWords(day),
    previous: day > bounds.firstDay ? dayLink(shiftDay(day, -1)) : null,
    next: day < bounds.lastDay ? dayLink(shiftDay(day, 1)) : null,
    bounds: { firstDay: bounds.firstDay, lastDay: bounds.lastDay },
    unit,
    points,
    shading: shadingNote(target, unit, bandRangeText("inRange", input.preset.edges, unit), input.your),
    chart: {
      unit,
      target,
      clockChanges: changes,
      events: events.map(eventMarker),
      calibrations: calibrations.map((c) => calibrationMarker(c, unit)),
      alerts: (input.alerts ?? []).filter(onDay(day)).sort((a, b) => a.t - b.t),
      trace: {
        startMs,
        endMs,
        points: withGapBreaks(points),
        initialOffsetMinutes: spanAt(startMs).offsetMinutes,
        ticks: wallClockTicks(day, spans, startMs, endMs),
      },
    },
    table: traceTable(points, unit, "hour"),
    clockChanges: changes,
    coverage: dayCoverage(points, windows, bounds),
    // Each reading's metric value (lib/cgm/reading.ts): an mmol/L LOW (2.2) counts as 39, not 39.6.
    summary: daySummary(
      points,
      readings.filter(onDay(day)).map((r) => r.mgdl),
      unit,
      input.preset,
    ),
    events: dayEvents(events, unit),
    calibrations: calibrationRows(calibrations, preferences).reverse(),
    episodes: dayEpisodes(day, readings, unit),
  };
}
