import { MS_PER_DAY } from "@/lib/cgm/datetime";
import type { HypoglycemiaRisk } from "@/lib/cgm/schemas";
import { MINUTES_PER_DAY } from "@/lib/metrics/constants";
import { fromMoments } from "@/lib/metrics/descriptive";
import { gmi } from "@/lib/metrics/gmi";
import { evaluateGoalsOn, type GoalResult } from "@/lib/metrics/goals";
import { glycemiaRiskIndex } from "@/lib/metrics/gri";
import { sensorActivePercent } from "@/lib/metrics/sensor";
import { CONSENSUS_EDGES, TARGET_PRESETS, type TargetGroup } from "@/lib/metrics/targets";
import { type PerConsensusRange, rangePercentages, tightRangePercent } from "@/lib/metrics/time-in-ranges";
import { emptyReadingSums, type ReadingSums } from "@/lib/sync/daily";
import { type PeriodEpisodes, periodOf } from "@/lib/sync/period-episodes";
import {
  type ClinicPatientStatus,
  clinicPatientStatus,
  type PatientStatusInput,
  STATUS_LABEL,
} from "../domain/patient-status";
import type { ReviewView, TagView } from "../domain/review-types";
import { flagsFor, type TriageFlag, type TriageThresholds, triageFor } from "../domain/triage";

/**
 * The population view's rows, from the daily sums of lib/sync/daily.ts. Pure; the queries are in
 * population.ts.
 *
 * "The last 14 days", precisely: the 14 calendar days, on the patient's own clock, that end with
 * the patient's today, today included as far as it has gone. The patient's clock is the
 * displayTime of their newest reading minus its systemTime (their device's time zone, or its
 * setting, whatever it is), and "today" is the clinic's now read on that clock: a patient in
 * another zone is judged on their own days, the same days an AGP of theirs shows. A reading
 * belongs to the day of its displayTime. Sensor use is the readings present over those expected
 * from 00:00 of the first day to now (one per 5 minutes, lib/metrics/sensor.ts), so a morning does
 * not count the rest of the day as missing; readings the service has not released yet (the real
 * service: up to about 3 hours) count as missing until they arrive. The previous period is the 14
 * whole days before; only its time in range is used (the flag for a fall).
 *
 * The flags judge each patient by their target group's goals on that group's edges (triage.ts
 * `triageFor`); the columns stay the consensus ranges of every patient, so they compare.
 *
 * Level 2 hypoglycaemia episodes run across midnight, so they are not in the daily sums: the sync
 * counts them over the same period (lib/sync/period-episodes.ts `periodEpisodes`, stored in
 * synced_episodes) and a row shows the count only when it was made for the row's days and readings
 * (`weeklyEpisodes`).
 */

// The period is defined where the sync counts its episodes; the view's queries read it from here.
export { PERIOD_DAYS } from "@/lib/sync/period-episodes";

/** The clinic's status of the patient (lib/clinic/domain/patient-status.ts), and "not yet synced". */
export type PatientStatus = ClinicPatientStatus | "not_synced";

/** Sums over a period's days (synced_egv_days). */
export interface PatientSource extends PatientStatusInput {
  id: string;
  name: string;
  birthDate: string | null;
  connectionId: string | null;
  lastSyncAt: Date | null;
  hypoglycemiaRisk: HypoglycemiaRisk | null;
  /** When the sync last asked the service; null: never (the risk is then unknown, not "none"). */
  riskFetchedAt: Date | null;
  /** The group the clinic judges the patient by (lib/preferences/target-group.ts `targetGroupForClinic`). */
  targetGroup: TargetGroup;
  /** The sync's last count of episodes (synced_episodes); null: none yet. */
  episodes: PeriodEpisodes | null;
}

export interface ConnectionSums {
  /** The newest reading's systemTime (ms) and its displayTime − systemTime (ms). */
  lastSystemMs: number;
  clockOffsetMs: number;
  current: ReadingSums;
  previous: ReadingSums;
}

export interface PopulationMetrics {
  nValues: number;
  /** Percent of readings per consensus range; null without readings. */
  timeInRanges: PerConsensusRange<number> | null;
  /** Percent of readings from 70 to 140 mg/dL inclusive; null without readings. */
  timeInTightRange: number | null;
  mean: number | null;
  gmi: number | null;
  cv: number | null;
  gri: number | null;
  sensorActivePercent: number | null;
  /**
   * The consensus goals (the standard group: the daily sums are on its ranges), met or not; empty
   * without readings. Cumulative: below 70 includes below 54, above 180 above 250.
   */
  goals: GoalResult[];
}

export interface PopulationRow {
  id: string;
  name: string;
  birthDate: string | null;
  status: PatientStatus;
  /** The period's first and last day (yyyy-mm-dd, the patient's calendar); null without data. */
  firstDay: string | null;
  lastDay: string | null;
  /** Null when the patient has no synced data to measure (invited, withdrawn, not yet synced). */
  metrics: PopulationMetrics | null;
  previousInRange: number | null;
  lastDataAt: string | null;
  daysSinceLastData: number | null;
  hypoglycemiaRisk: HypoglycemiaRisk | null;
  riskKnown: boolean;
  /** The group whose goals the flags judge (the thresholds: triage.ts `triageFor`). */
  targetGroup: TargetGroup;
  flags: TriageFlag[];
  /** Level 2 hypoglycaemia episodes per week over the period; null without readings in it. */
  veryLowEpisodes: WeeklyEpisodes | null;
  /** The clinic's tags on the patient, by name (population-annotations.ts). */
  tags?: TagView[];
  /** The latest "Mark reviewed", if any. */
  lastReview?: ReviewView | null;
}

/** The orders a link may ask the population view for (?sort=), so it works without JavaScript. */
export const POPULATION_SORT_KEYS = ["flags", "name", "tags", "reviewed"] as const;
export type PopulationSort = (typeof POPULATION_SORT_KEYS)[number];

export function statusOf(p: PatientSource, nowMs: number): PatientStatus {
  const status = clinicPatientStatus(p, nowMs);
  return status === "connected" && !p.lastSyncAt ? "not_synced" : status;
}

export const STATUS_LABELS: Record<PatientStatus, string> = { ...STATUS_LABEL, not_synced: "Not yet synced" };

/**
 * A row's level 2 episodes per week: iglu's episodes per day of valid sensor time × 7, so the
 * same rate as the summary API's `perDay` and the overview's "per day" (not per calendar day: a
 * week of wear with 3 lows is 3 a week, whatever the days without a sensor). "pending" where the
 * stored count is of other days or of other readings than the row's sums (a sync since then, or
 * a day gone by): it waits for the next sync rather than show another period's number; "sparse"
 * where no count can be made.
 */
export type WeeklyEpisodes =
  | { state: "known"; perWeek: number; count: number; sensorDays: number }
  | { state: "pending" }
  | { state: "sparse" };

export function weeklyEpisodes(
  stored: PeriodEpisodes | null,
  period: { firstDay: string; lastDay: string },
  nValues: number,
): WeeklyEpisodes | null {
  if (nValues === 0) return null;
  if (
    !stored ||
    stored.firstDay !== period.firstDay ||
    stored.lastDay !== period.lastDay ||
    stored.nValues !== nValues
  ) {
    return { state: "pending" };
  }
  if (
    stored.hypoLevel2Count === null ||
    stored.hypoLevel2PerDay === null ||
    stored.validGridMinutes === null
  ) {
    return { state: "sparse" };
  }
  return {
    state: "known",
    perWeek: stored.hypoLevel2PerDay * 7,
    count: stored.hypoLevel2Count,
    sensorDays: stored.validGridMinutes / MINUTES_PER_DAY,
  };
}

/**
 * The consensus metrics of a period from its sums, each by lib/metrics' own function. The table's
 * columns are the consensus ranges; `goals` judges them by the patient's group, keeping only the
 * goals that measure what a column shows (pregnancy's 63–140 goals are judged in the flags).
 */
export function metricsOf(
  sums: ReadingSums,
  sensorWindow: { startMs: number; endMs: number },
  group: TargetGroup = "standard",
): PopulationMetrics {
  const percentages = rangePercentages(sums);
  const moments = fromMoments(sums);
  return {
    nValues: sums.n,
    timeInRanges: percentages,
    timeInTightRange: tightRangePercent(sums.tightRange, sums.n),
    mean: moments.mean,
    gmi: gmi(moments.mean),
    cv: moments.cv,
    gri: percentages ? glycemiaRiskIndex(percentages).gri : null,
    sensorActivePercent: sensorActivePercent(sums.n, sensorWindow.startMs, sensorWindow.endMs),
    goals: percentages ? columnGoals(group, sums, moments.cv) : [],
  };
}

/**
 * A period's counts in the bands of `group`: the consensus ranges, except for pregnancy, whose
 * range is 63–140 mg/dL (below 54 very low, 54–62 low, above 140 high, no very high band).
 */
export function groupCounts(sums: ReadingSums, group: TargetGroup): PerConsensusRange<number> {
  const { veryLow, low, inRange, high, veryHigh } = sums;
  if (group !== "pregnancy") return { veryLow, low, inRange, high, veryHigh };
  const n = veryLow + low + inRange + high + veryHigh;
  return {
    veryLow,
    low: sums.below63 - veryLow,
    inRange: n - sums.below63 - sums.above140,
    high: sums.above140,
    veryHigh: 0,
  };
}

function columnGoals(group: TargetGroup, sums: ReadingSums, cv: number | null): GoalResult[] {
  const preset = TARGET_PRESETS[group];
  const shares = rangePercentages(groupCounts(sums, group));
  if (!shares) return [];
  const sameRange =
    preset.edges.lowBelow === CONSENSUS_EDGES.lowBelow &&
    preset.edges.inRangeMax === CONSENSUS_EDGES.inRangeMax;
  return evaluateGoalsOn(preset, shares, cv).filter((g) => sameRange || g.metric !== "timeInRange");
}

/** The sums of a period without readings: read, never written. */
const EMPTY: Readonly<ReadingSums> = emptyReadingSums();

export function populationRow(
  patient: PatientSource,
  sums: ConnectionSums | undefined,
  thresholds: TriageThresholds,
  nowMs: number,
): PopulationRow {
  const status = statusOf(patient, nowMs);
  const measured = status === "connected" || status === "reconnect_needed";
  const base = {
    id: patient.id,
    name: patient.name,
    birthDate: patient.birthDate,
    status,
    hypoglycemiaRisk: measured ? patient.hypoglycemiaRisk : null,
    riskKnown: measured && patient.riskFetchedAt !== null,
    targetGroup: patient.targetGroup,
  };
  if (!measured) {
    return {
      ...base,
      firstDay: null,
      lastDay: null,
      metrics: null,
      previousInRange: null,
      lastDataAt: null,
      daysSinceLastData: null,
      flags: [],
      veryLowEpisodes: null,
    };
  }
  // Synced but the service holds no readings at all: the period is on the clinic's (UTC) days.
  const period = periodOf(nowMs, sums?.clockOffsetMs ?? 0);
  const metrics = metricsOf(sums?.current ?? EMPTY, period.sensorWindow, patient.targetGroup);
  const previousInRange = rangePercentages(sums?.previous ?? EMPTY)?.inRange ?? null;
  // The flags: the same period in the bands of the patient's group, judged by its goals.
  const group = patient.targetGroup;
  const shares = rangePercentages(groupCounts(sums?.current ?? EMPTY, group));
  const previousShares = rangePercentages(groupCounts(sums?.previous ?? EMPTY, group));
  return {
    ...base,
    firstDay: period.firstDay,
    lastDay: period.lastDay,
    metrics,
    previousInRange,
    lastDataAt: sums ? new Date(sums.lastSystemMs).toISOString() : null,
    daysSinceLastData: sums ? Math.max(0, Math.floor((nowMs - sums.lastSystemMs) / MS_PER_DAY)) : null,
    flags: flagsFor(
      { timeInRanges: shares, sensorActivePercent: metrics.sensorActivePercent },
      previousShares?.inRange ?? null,
      triageFor(group, thresholds),
    ),
    veryLowEpisodes: weeklyEpisodes(patient.episodes, period, metrics.nValues),
  };
}
