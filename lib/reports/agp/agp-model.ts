import { MS_PER_DAY, secondsOfDay } from "@/lib/cgm/datetime";
import { displayValue, formatGlucoseNumber } from "@/lib/cgm/glucose-text";
import { convertGlucose, fromMgdlRounded, type GlucoseUnit } from "@/lib/cgm/units";
import { SENTINEL_HIGH_MGDL } from "@/lib/cgm/values";
import { type AgpPoint, agpProfile } from "@/lib/metrics/agp";
import { cgmEpisodes } from "@/lib/metrics/episodes";
import { type GlycemiaRiskIndex, glycemiaRiskIndexOf } from "@/lib/metrics/gri";
import { type PeriodMetrics, periodMetrics, reportGri } from "@/lib/metrics/report";
import { type BandEdges, type BandKey, bandsOf, type TargetPreset, timeInBands } from "@/lib/metrics/targets";
import { type JudgedGoal, judgeBands } from "@/lib/trace/goal-text";
import { type EpisodesView, episodesView } from "../episodes-view";
import { dayOf, dayStartMs, type PatientDays, windowDays } from "../period/patient-days";
import type { ReportPeriod } from "../period/period";
import { namedPeriodDays } from "../period/period-days";
import type { Reading } from "../period/readings";

/**
 * The AGP report as pages and the PDF draw it: the consensus metrics of the period, the time in
 * the chosen population's bands with its goals, the percentile profile by time of day and the
 * daily profiles of its last 14 days. Metrics are computed in mg/dL (lib/metrics) and converted
 * for display only here, once.
 */
export const DAILY_PROFILE_DAYS = 14;
/** Readings further apart than this are not joined by a line: a gap is drawn as a gap. */
export const PROFILE_GAP_MINUTES = 15;
/** The charts' glucose axis: the sensor's measuring range and a little above, so LOW/HIGH show at the edges. */
export const AGP_AXIS_MGDL = { min: 0, max: SENTINEL_HIGH_MGDL } as const;

const BAND_NAMES: Record<BandKey, string> = {
  veryHigh: "Very high",
  high: "High",
  inRange: "Target range",
  low: "Low",
  veryLow: "Very low",
};

export interface ReportBand {
  key: BandKey;
  name: string;
  /** The band's glucose range in the display unit, as words ("above 250", "54–69"). */
  range: string;
  percent: number;
  /** The share as shown: the shown shares sum to 100% and agree with the goals (goal-text.ts). */
  percentText: string;
  minutesPerDay: number;
}

export interface ProfileDay {
  /** The patient's calendar day (displayTime), yyyy-MM-dd. */
  day: string;
  readings: number;
  /** Polylines of [minute of the day, value in the display unit]; a gap starts a new line. */
  lines: Array<Array<[number, number]>>;
}

/** The GRI of the period before the report's (the same length), for the GRI grid's second point. */
export interface PreviousGri {
  /** The previous period's first and last day on the patient's clock (null: no readings in it). */
  firstDay: string | null;
  lastDay: string | null;
  /** null: no readings in the previous period. */
  index: GlycemiaRiskIndex | null;
}

export interface AgpReport {
  period: ReportPeriod & { days: number; firstDay: string | null; lastDay: string | null };
  unit: GlucoseUnit;
  dataUnit: GlucoseUnit;
  preset: Pick<TargetPreset, "id" | "label">;
  /** The summary API's metrics of the period, episodes included. */
  metrics: PeriodMetrics;
  /** The episodes as the table shows them; null where they cannot be computed. */
  episodes: EpisodesView | null;
  /**
   * The GRI with its components and zone, this period's and the previous one's. previous is
   * "unread" when the page could not read that period (before the earliest readable date, or the
   * read failed): the report is drawn without it.
   */
  gri: { current: GlycemiaRiskIndex | null; previous: PreviousGri | "unread" };
  /** Mean and SD in the display unit, rounded as the unit is read. */
  meanText: string | null;
  sdText: string | null;
  bands: ReportBand[] | null;
  goals: JudgedGoal[] | null;
  /** The preset's target range in the display unit: the AGP's shaded band. */
  target: { low: number; high: number };
  axis: { min: number; max: number; ticks: number[] };
  agp: Array<(Omit<AgpPoint, "n"> & { n: number }) | null>;
  dailyProfiles: ProfileDay[];
}

const text = (mgdl: number, unit: GlucoseUnit) =>
  formatGlucoseNumber(convertGlucose(mgdl, "mg/dL", unit), unit);
/** The largest value the unit can write below `mgdl` (69 mg/dL, 3.8 mmol/L below 70). */
const justBelow = (mgdl: number, unit: GlucoseUnit) =>
  unit === "mg/dL" ? String(mgdl - 1) : (fromMgdlRounded(mgdl, unit) - 0.1).toFixed(1);
const justAbove = (mgdl: number, unit: GlucoseUnit) =>
  unit === "mg/dL" ? String(mgdl + 1) : (fromMgdlRounded(mgdl, unit) + 0.1).toFixed(1);

/** A band's range in words and the display unit: "below 54", "54–69", "70–180", "181–250", "above 250". */
export function bandRangeText(key: BandKey, edges: BandEdges, unit: GlucoseUnit): string {
  switch (key) {
    case "veryLow":
      return `below ${text(edges.veryLowBelow, unit)}`;
    case "low":
      return `${text(edges.veryLowBelow, unit)}–${justBelow(edges.lowBelow, unit)}`;
    case "inRange":
      return `${text(edges.lowBelow, unit)}–${text(edges.inRangeMax, unit)}`;
    case "high":
      return edges.highMax === null
        ? `above ${text(edges.inRangeMax, unit)}`
        : `${justAbove(edges.inRangeMax, unit)}–${text(edges.highMax, unit)}`;
    case "veryHigh":
      return `above ${text(edges.highMax ?? edges.inRangeMax, unit)}`;
  }
}

function profileLines(readings: readonly Reading[], unit: GlucoseUnit): Array<Array<[number, number]>> {
  const lines: Array<Array<[number, number]>> = [];
  let line: Array<[number, number]> = [];
  let previous: Reading | null = null;
  for (const r of readings) {
    // A new line after a gap, and where the clock jumped (a travel or daylight-saving change
    // moves the minute of the day; joining across it would draw a line backwards).
    const minute = secondsOfDay(r.displayMs) / 60;
    const jumped = previous !== null && minute < secondsOfDay(previous.displayMs) / 60;
    if (previous && (r.t - previous.t > PROFILE_GAP_MINUTES * 60_000 || jumped)) {
      if (line.length) lines.push(line);
      line = [];
    }
    line.push([minute, fromMgdlRounded(r.mgdl, unit)]);
    previous = r;
  }
  if (line.length) lines.push(line);
  return lines;
}

/**
 * The period's days on the patient's clock, decided once for the label and the daily profiles:
 * the days it was chosen as, or, for a window given on systemTime, the days its ends fall on by
 * the clock of the reading nearest each. Null for a window without readings.
 */
export function reportDays(period: ReportPeriod, readings: readonly Reading[]): PatientDays | null {
  return period.patientDays ?? windowDays(period, readings);
}

/**
 * The last `DAILY_PROFILE_DAYS` calendar days (displayTime) of the period, days without readings
 * included: a week without a sensor must show as empty days, not vanish from the report.
 */
export function dailyProfiles(
  period: ReportPeriod,
  readings: readonly Reading[],
  unit: GlucoseUnit,
): ProfileDay[] {
  const shown = reportDays(period, readings);
  if (!shown) return [];
  const lastDayMs = dayStartMs(shown.lastDay) ?? 0;
  const firstDayMs = Math.max(
    lastDayMs - (DAILY_PROFILE_DAYS - 1) * MS_PER_DAY,
    dayStartMs(shown.firstDay) ?? 0,
  );
  const byDay = new Map<number, Reading[]>();
  for (const r of readings) {
    const day = Math.floor(r.displayMs / MS_PER_DAY) * MS_PER_DAY;
    if (day < firstDayMs || day > lastDayMs) continue;
    const list = byDay.get(day);
    if (list) list.push(r);
    else byDay.set(day, [r]);
  }
  const days: ProfileDay[] = [];
  for (let day = firstDayMs; day <= lastDayMs; day += MS_PER_DAY) {
    const list = byDay.get(day) ?? [];
    days.push({
      day: dayOf(day),
      readings: list.length,
      lines: profileLines(list, unit),
    });
  }
  return days;
}

export interface AgpReportInput {
  period: ReportPeriod;
  readings: readonly Reading[];
  dataUnit: GlucoseUnit;
  unit: GlucoseUnit;
  preset: TargetPreset;
  /** The period of the same length just before, and its readings; null when it could not be read. */
  previous: { period: ReportPeriod; readings: readonly Reading[] } | null;
}

function previousGri(previous: AgpReportInput["previous"]): PreviousGri | "unread" {
  if (previous === null) return "unread";
  const days = reportDays(previous.period, previous.readings);
  return {
    firstDay: days?.firstDay ?? null,
    lastDay: days?.lastDay ?? null,
    index: glycemiaRiskIndexOf(previous.readings.map((r) => r.mgdl)),
  };
}

export function buildAgpReport({
  period,
  readings,
  dataUnit,
  unit,
  preset,
  previous,
}: AgpReportInput): AgpReport {
  const values = readings.map((r) => r.mgdl);
  const cgm = cgmEpisodes(readings);
  const metrics = periodMetrics(readings, period.startMs, period.endMs, cgm);
  const shares = timeInBands(values, preset.edges);
  const judged = shares && judgeBands(preset, shares, metrics.cv, unit);
  const edges = preset.edges;
  const days = reportDays(period, readings);
  const tickMgdl = [edges.veryLowBelow, edges.lowBelow, edges.inRangeMax, edges.highMax ?? 250, 400];
  return {
    period: {
      ...period,
      // The days the label names are the days counted: "Thu 12 Nov – Wed 25 Nov (14 days)".
      days: namedPeriodDays(period, days).days,
      firstDay: days?.firstDay ?? null,
      lastDay: days?.lastDay ?? null,
    },
    unit,
    dataUnit,
    preset: { id: preset.id, label: preset.label },
    metrics,
    gri: {
      current: reportGri(metrics),
      previous: previousGri(previous),
    },
    episodes: episodesView(cgm, unit),
    // A mean of exactly 39 or 401 (every reading LOW or HIGH) reads as the word, like the readings.
    meanText: metrics.mean === null ? null : displayValue(convertGlucose(metrics.mean, "mg/dL", unit), unit),
    sdText: metrics.sd === null ? null : text(metrics.sd, unit),
    bands:
      shares &&
      judged &&
      bandsOf(edges).map((key) => ({
        key,
        name: BAND_NAMES[key],
        range: bandRangeText(key, edges, unit),
        percent: shares[key],
        percentText: judged.bandText[key],
        minutesPerDay: Math.round((shares[key] / 100) * 1440),
      })),
    goals: judged?.goals ?? null,
    target: { low: fromMgdlRounded(edges.lowBelow, unit), high: fromMgdlRounded(edges.inRangeMax, unit) },
    axis: {
      min: fromMgdlRounded(AGP_AXIS_MGDL.min, unit),
      max: fromMgdlRounded(AGP_AXIS_MGDL.max, unit),
      ticks: tickMgdl.map((v) => fromMgdlRounded(v, unit)),
    },
    agp: agpProfile(readings.map((r) => ({ secondOfDay: secondsOfDay(r.displayMs), mgdl: r.mgdl }))).map(
      (p) =>
        p && {
          minute: p.minute,
          n: p.n,
          p5: fromMgdlRounded(p.p5, unit),
          p25: fromMgdlRounded(p.p25, unit),
          p50: fromMgdlRounded(p.p50, unit),
          p75: fromMgdlRounded(p.p75, unit),
          p95: fromMgdlRounded(p.p95, unit),
        },
    ),
    dailyProfiles: dailyProfiles(period, readings, unit),
  };
}
