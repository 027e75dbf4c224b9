import { MS_PER_DAY } from "@/lib/cgm/datetime";
import type { ClockGlucose } from "@/lib/metrics/episodes";
import { evaluateGoals, type GoalResult } from "@/lib/metrics/goals";
import { type PeriodMetrics, periodMetrics } from "@/lib/metrics/report";
import { TARGET_PRESETS, type TargetGroup } from "@/lib/metrics/targets";
import type { PatientDays } from "../period/patient-days";
import type { ReportPeriod } from "../period/period";

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
   * The days of the receiver's clock with at least one reading in the period: the CGM's "days of
   * wear" (the FHIR CGM IG's duration of use, lib/fhir), 0 without readings.
   */
  daysOfWear: number;
  targetGroup: TargetGroup;
  goals: SummaryGoal[];
};

/** Distinct receiver-clock days (displayTime on its naive UTC axis) that hold a reading. */
export function daysOfWear(readings: readonly ClockGlucose[]): number {
  return new Set(readings.map((r) => Math.floor(r.displayMs / MS_PER_DAY))).size;
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
  readings: readonly ClockGlucose[],
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
  return { ...metrics, daysOfWear: daysOfWear(readings), targetGroup, goals };
}
