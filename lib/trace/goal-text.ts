import { mgdlRangeText, mgdlText } from "@/lib/cgm/glucose-text";
import type { GlucoseUnit } from "@/lib/cgm/units";
import {
  evaluateGoalsOn,
  type GoalResult,
  goalValueText,
  percentText,
  roundShares,
  timesTheGoal,
  unmetGoals,
} from "@/lib/metrics/goals";
import {
  type BandEdges,
  type BandKey,
  bandsOf,
  type Goal,
  type GoalMetric,
  type TargetPreset,
} from "@/lib/metrics/targets";

/**
 * Goals in words, in the unit on screen: what a goal measures ("Below 70 mg/dL"), the goal itself
 * ("under 4%") and the sentence that says an unmet goal plainly.
 */

/** What a goal measures, in words: the bands' joint range ("Below 70 mg/dL", "70–180 mg/dL", "CV"). */
export function goalLabel(goal: Pick<Goal, "metric" | "bands">, edges: BandEdges, unit: GlucoseUnit): string {
  const has = (k: BandKey) => goal.bands.includes(k);
  if (goal.metric === "cv") return "Glucose variability (CV)";
  if (has("inRange")) return mgdlRangeText(edges.lowBelow, edges.inRangeMax, unit);
  if (has("low")) return `Below ${mgdlText(edges.lowBelow, unit)}`;
  if (has("veryLow")) return `Below ${mgdlText(edges.veryLowBelow, unit)}`;
  if (has("high")) return `Above ${mgdlText(edges.inRangeMax, unit)}`;
  return `Above ${mgdlText(edges.highMax ?? edges.inRangeMax, unit)}`;
}

/** The goal as words: "under 4%", "over 70%", "36% or less". */
export function goalText(goal: Pick<Goal, "comparison" | "percent">): string {
  if (goal.comparison === "atMost") return `${goal.percent}% or less`;
  return `${goal.comparison === "over" ? "over" : "under"} ${goal.percent}%`;
}

/** The subject of the goal's sentence: "Time below 54 mg/dL", "Time in range 70–180 mg/dL". */
export function goalSubject(metric: GoalMetric, label: string): string {
  if (metric === "cv") return label;
  if (metric === "timeInRange") return `Time in range ${label}`;
  return `Time ${label.charAt(0).toLowerCase()}${label.slice(1)}`;
}

const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

/**
 * An unmet goal said plainly: "Time below 54 mg/dL is 9% — nine times the goal of under 1%",
 * "Time in range 70–180 mg/dL is 45%, short of the goal of over 70%". `valueText` is the value as the
 * panel beside it shows it, so the sentence and the panel agree; by default the fewest decimals
 * that keep the judgement.
 */
export function goalSentence(result: GoalResult, label: string, valueText?: string): string {
  const goal = { comparison: result.comparison, percent: result.goal };
  const valueShown = valueText ?? goalValueText(result.value, goal);
  const shown = `${valueShown}%`;
  const subject = `${goalSubject(result.metric, label)} is ${shown}`;
  if (result.met) return `${subject}, within the goal of ${goalText(goal)}.`;
  if (result.comparison === "over") return `${subject}, short of the goal of ${goalText(goal)}.`;
  // Counted from the value as shown, so the sentence agrees with itself: 8.97% is shown as 9.0%,
  // and "9.0% — eight times the goal of under 1%" would read as a mistake.
  const shownNumber = Number(valueShown);
  const times = timesTheGoal(Number.isFinite(shownNumber) ? { ...result, value: shownNumber } : result);
  if (times !== null)
    return `${subject} — ${NUMBER_WORDS[times] ?? String(times)} times the goal of ${goalText(goal)}.`;
  return `${subject}, above the goal of ${goalText(goal)}.`;
}

export interface JudgedGoal {
  metric: GoalMetric;
  /** What is measured, in the unit on screen ("Below 70 mg/dL"). */
  label: string;
  /** The goal as words ("under 4%"). */
  goal: string;
  /** The exact value (percent). */
  value: number;
  /** The value as shown, agreeing with the bands beside it ("3.6%"). */
  valueText: string;
  met: boolean;
  /** The goal said plainly, met or not. */
  sentence: string;
}

export interface JudgedBands {
  /** Decimals every shown percentage has (roundShares). */
  decimals: number;
  /** Each band's share as shown, the shown shares summing to 100%. */
  bandText: Record<BandKey, string>;
  goals: JudgedGoal[];
  /** The unmet goals, most urgent first. */
  unmet: JudgedGoal[];
}

/**
 * A period judged against a target group, in words and in the unit on screen: the one place pages
 * (overview, AGP, compare, daily view, clinic) turn shares and CV into goals met or not.
 * `shares` are on the group's own edges (`timeInBands(values, preset.edges)`).
 */
export function judgeBands(
  preset: TargetPreset,
  shares: Record<BandKey, number>,
  cv: number | null,
  unit: GlucoseUnit,
  /** At least these decimals, for a page whose other percentages have them (roundShares). */
  minDecimals = 0,
): JudgedBands {
  const rounded = roundShares(shares, bandsOf(preset.edges), preset.goals, minDecimals);
  const bandText = Object.fromEntries(
    (Object.keys(shares) as BandKey[]).map((k) => [
      k,
      percentText(rounded.bands[k] ?? shares[k], rounded.decimals),
    ]),
  ) as Record<BandKey, string>;
  const goals = evaluateGoalsOn(preset, shares, cv).map((r): JudgedGoal => {
    const goal = preset.goals.find((g) => g.metric === r.metric)!;
    const label = goalLabel(goal, preset.edges, unit);
    const shown = rounded.goals[r.metric];
    const valueText =
      shown === undefined ? goalValueText(r.value, goal, minDecimals) : shown.toFixed(rounded.decimals);
    return {
      metric: r.metric,
      label,
      goal: goalText(goal),
      value: r.value,
      valueText: `${valueText}%`,
      met: r.met,
      sentence: goalSentence(r, label, valueText),
    };
  });
  const order = unmetGoals(evaluateGoalsOn(preset, shares, cv)).map((r) => r.metric);
  return {
    decimals: rounded.decimals,
    bandText,
    goals,
    unmet: order.map((m) => goals.find((g) => g.metric === m)!),
  };
}
