import {
  type BandKey,
  type Goal,
  type GoalMetric,
  goalTime,
  meetsGoal,
  type TargetPreset,
  timeInBands,
} from "./targets";

/**
 * The consensus goals of a target group judged on a period, and the rounding that shows them
 * without contradicting the judgement. Every page that judges numbers (overview, AGP, compare,
 * daily view, the clinic's triage) and the summary API take their goals from here.
 */

export interface GoalResult {
  metric: GoalMetric;
  /** The exact value judged: percent of readings, or the CV in percent. */
  value: number;
  /** The goal's limit in percent; its direction is `comparison`. */
  goal: number;
  comparison: Goal["comparison"];
  met: boolean;
}

/**
 * The group's goals on a period's readings (mg/dL, sentinels as 39 and 401): the band goals on the
 * group's own edges (pregnancy's 63–140), CV on all readings. Empty for no readings; the CV goal is
 * left out when the CV is unknown.
 */
export function evaluateGoals(
  preset: TargetPreset,
  valuesMgdl: readonly number[],
  cv: number | null,
): GoalResult[] {
  const shares = timeInBands(valuesMgdl, preset.edges);
  if (shares === null) return [];
  return evaluateGoalsOn(preset, shares, cv);
}

/** The same judgement from the band shares already computed on the group's edges. */
export function evaluateGoalsOn(
  preset: TargetPreset,
  shares: Record<BandKey, number>,
  cv: number | null,
): GoalResult[] {
  const results: GoalResult[] = [];
  for (const g of preset.goals) {
    const value = g.metric === "cv" ? cv : goalTime(g, shares);
    if (value === null) continue;
    results.push({
      metric: g.metric,
      value,
      goal: g.percent,
      comparison: g.comparison,
      met: meetsGoal(g, value),
    });
  }
  return results;
}

/**
 * Consensus priority, most urgent first: the 2019 report puts reducing time below range first, then
 * very high, then high, then raising time in range; variability last.
 */
const PRIORITY: readonly GoalMetric[] = [
  "timeBelow54",
  "timeBelow63",
  "timeBelow70",
  "timeAbove250",
  "timeAbove180",
  "timeAbove140",
  "timeInRange",
  "cv",
];

/** The unmet goals, most urgent first (the overview's headline says the first). */
export function unmetGoals(results: readonly GoalResult[]): GoalResult[] {
  return results
    .filter((r) => !r.met)
    .sort((a, b) => PRIORITY.indexOf(a.metric) - PRIORITY.indexOf(b.metric));
}

/** How far past a goal a value is, as a reader says it: a whole multiple from twice the goal on. */
export function timesTheGoal(result: GoalResult): number | null {
  if (result.comparison === "over" || result.goal <= 0) return null;
  const times = result.value / result.goal;
  return times >= 2 ? Math.floor(times) : null;
}

// ── Rounding for display ────────────────────────────────────────────────────────────────────────

const MAX_DECIMALS = 2;

/**
 * Whole numbers of `10^-decimals` that sum to exactly 100 (largest remainder, Hamilton's method):
 * each share is floored, and the units left over go to the largest remainders, ties to the earlier
 * key, so the parts of a stacked bar always add up.
 */
export function largestRemainder<K extends string>(
  shares: Readonly<Record<K, number>>,
  keys: readonly K[],
  decimals: number,
): Record<K, number> {
  const scale = 10 ** decimals;
  const total = keys.reduce((s, k) => s + shares[k], 0);
  const target = Math.round(total * scale);
  const scaled = keys.map((k) => shares[k] * scale);
  const floors = scaled.map((x) => Math.floor(x + 1e-9));
  let left = target - floors.reduce((s, f) => s + f, 0);
  const order = keys
    .map((_, i) => i)
    .sort((a, b) => scaled[b]! - floors[b]! - (scaled[a]! - floors[a]!) || a - b);
  for (const i of order) {
    if (left <= 0) break;
    floors[i]!++;
    left--;
  }
  const out = {} as Record<K, number>;
  keys.forEach((k, i) => {
    out[k] = floors[i]! / scale;
  });
  return out;
}

export interface RoundedShares {
  /** Decimals every percentage of the panel is shown with (0, 1 or 2). */
  decimals: number;
  /** Each band's share, rounded so that the bands sum to 100. */
  bands: Record<BandKey, number>;
  /** Each band goal's time as the sum of its rounded bands, so a goal and its parts agree. */
  goals: Partial<Record<GoalMetric, number>>;
}

/**
 * The band shares and goal times as a panel shows them. Whole percentages when they tell the truth;
 * otherwise one decimal, then two: a shown number must not say a goal is met when it is not (3.6 %
 * below 70 shown as "4%" against "under 4%"), and time spent must not read as none (0.4 % as "0%").
 * The same decimals for every number, so "2% + 2%" never stands beside "above 180: 3%".
 */
export function roundShares(
  shares: Readonly<Record<BandKey, number>>,
  bands: readonly BandKey[],
  goals: readonly Goal[],
  /** At least these decimals: a page whose other percentages have one decimal (compare) asks 1. */
  minDecimals = 0,
): RoundedShares {
  const bandGoals = goals.filter((g) => g.bands.length > 0);
  for (let decimals = Math.min(minDecimals, MAX_DECIMALS); ; decimals++) {
    const rounded = largestRemainder(shares, bands, decimals);
    const goalTimes: Partial<Record<GoalMetric, number>> = {};
    let truthful = bands.every((b) => shares[b] <= 0 || rounded[b] > 0);
    for (const g of bandGoals) {
      const shown = roundTo(goalTime(g, rounded), decimals);
      const exact = goalTime(g, shares);
      goalTimes[g.metric] = shown;
      if (meetsGoal(g, shown) !== meetsGoal(g, exact) || (exact > 0 && shown <= 0)) truthful = false;
    }
    if (truthful || decimals === MAX_DECIMALS) return { decimals, bands: rounded, goals: goalTimes };
  }
}

/**
 * One value judged against a goal (CV, or a time shown on its own), with the fewest decimals that
 * keep its judgement and do not turn time spent into none.
 */
export function goalValueText(
  value: number,
  goal: Pick<Goal, "comparison" | "percent">,
  minDecimals = 0,
): string {
  for (let decimals = Math.min(minDecimals, MAX_DECIMALS); decimals < MAX_DECIMALS; decimals++) {
    const shown = roundTo(value, decimals);
    if (meetsGoal(goal, shown) === meetsGoal(goal, value) && !(value > 0 && shown <= 0))
      return shown.toFixed(decimals);
  }
  return value.toFixed(MAX_DECIMALS);
}

/** A percentage with the panel's decimals: "4%", "3.6%". */
export function percentText(percent: number, decimals: number): string {
  return `${percent.toFixed(decimals)}%`;
}

const roundTo = (x: number, decimals: number) => Math.round(x * 10 ** decimals) / 10 ** decimals;
