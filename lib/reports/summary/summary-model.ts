import { MS_PER_DAY } from "@/lib/cgm/datetime";
import type { ClockGlucose } from "@/lib/metrics/episodes";
import { evaluateGoals, type GoalResult } from "@/lib/metrics/goals";
import { type PeriodMetrics, periodMetrics } from "@/lib/metrics/report";
import { TARGET_PRESETS, type TargetGroup } from "@/lib/metrics/targets";
import type { PatientDays } from "../period/patient-days";
import type { ReportPeriod } from "../period/period";
import { periodDayCount } from "../period/period-days";

/**
 * A period as asked (with its days on the receiver's clock when it was chosen as days), with its
 * metrics (lib/metrics/report.ts): what the comparison holds per period.
 */
export type PeriodSummary = { startDate: string; endDate: string; patientDays?: PatientDays } & PeriodMetrics;

/** One of the group's consensus goals judged on the period (lib/metrics/goals.ts), as the API says it. */
export type SummaryGoal = Pick<GoalResult, "metric" | "value" | "goal" | "met">;

/**
 * The summary API's answer: the period's metrics, the patient's target group and its goals
 * judged (an empty list for a period without readings; no CV goal while the CV is unknown).
 */
export type ReportSummary = PeriodSummary & {
  /**
   * The CGM's "days of wear" (the FHIR CGM IG's duration of use, LOINC 104636-6, lib/fhir): how
   * many of the period's days hold at least one reading (daysOfWear below); 0 without readings.
   */
  daysOfWear: number;
  targetGroup: TargetGroup;
  goals: SummaryGoal[];
};

/** A reading as days of wear count it: its systemTime instant. */
export interface WornReading {
  t: number;
}

/**
 * Days of wear: of the period's days, those that hold at least one reading. The IG defines it as
 * "the number of days the CGM device was worn during the reporting period", and the 2023
 * consensus reads it against the period's length (14 days recommended): so it never exceeds the
 * period's days. The days are 24-hour slices of systemTime from the period's start, which are the
 * receiver's own days when the period was chosen as days (it starts at the receiver's midnight);
 * a reading at the window's inclusive end belongs to its last day. Counting the receiver-clock
 * dates a window touches instead gave 15 for an explicit 14-day window (its ends fall mid-day on
 * the receiver's clock).
 */
export function daysOfWear(
  period: Pick<ReportPeriod, "startMs" | "endMs" | "patientDays">,
  readings: readonly WornReading[],
): number {
  const days = periodDayCount(period);
  const worn = new Set<number>();
  for (const r of readings) {
    if (r.t < period.startMs || r.t > period.endMs) continue;
    worn.add(Math.min(Math.floor((r.t - period.startMs) / MS_PER_DAY), days - 1));
  }
  return worn.size;
}

export function periodSummary(period: ReportPeriod, readings: readonly ClockGlucose[]): PeriodSummary {
  return {
    startDate: period.startDate,
    endDate: period.endDate,
    ...(period.patientDays && { patientDays: period.patientDays }),
    ...periodMetrics(readings, period.startMs, period.endMs),
  };
}

export function summaryOf(
  period: ReportPeriod,
  readings: ReadonlyArray<ClockGlucose & WornReading>,
  targetGroup: TargetGroup,
): ReportSummary {
  // The summary API's keys are the period as asked and the metrics; the receiver's days are the
  // comparison's.
  const { patientDays: _, ...metrics } = periodSummary(period, readings);
  const goals = evaluateGoals(
    TARGET_PRESETS[targetGroup],
    readings.map((r) => r.mgdl),
    metrics.cv,
  ).map(({ metric, value, goal, met }) => ({ metric, value, goal, met }));
  return { ...metrics, daysOfWear: daysOfWear(period, readings), targetGroup, goals };
}
