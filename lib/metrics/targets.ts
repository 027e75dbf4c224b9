import {
  CV_STABLE_MAX_PERCENT,
  HIGH_MAX_MGDL,
  IN_RANGE_MAX_MGDL,
  LOW_BELOW_MGDL,
  PREGNANCY_RANGE_MGDL,
  VERY_LOW_BELOW_MGDL,
} from "./constants";

/**
 * The consensus's glycemic targets by population: the bands a report shows and the goal for each.
 * Battelino T, Danne T, Bergenstal RM, et al. Clinical Targets for Continuous Glucose Monitoring
 * Data Interpretation: Recommendations From the International Consensus on Time in Range.
 * Diabetes Care 2019;42(8):1593–1603, Table 1 and Figure 3.
 *
 * Goals on the consensus are cumulative: "below 70 < 4 %" includes the time below 54, "above 180
 * < 25 %" includes the time above 250. So a goal names the bands it sums.
 * Pregnancy moves the range itself to 63–140 mg/dL; the other groups keep 70–180 with other goals.
 */

export type BandKey = "veryLow" | "low" | "inRange" | "high" | "veryHigh";

export interface BandEdges {
  /** Below this (mg/dL) is very low. */
  veryLowBelow: number;
  /** Below this is low (or very low); at or above it begins the target range. */
  lowBelow: number;
  /** The target range's upper end, inclusive. */
  inRangeMax: number;
  /** The high band's upper end, inclusive; above it is very high. Null: no very-high band. */
  highMax: number | null;
}

/**
 * What a goal measures, named by its threshold so that an API client reads it without the group:
 * the cumulative time below or above a glucose level, the time in the group's range, or the
 * coefficient of variation.
 */
export const GOAL_METRICS = [
  "timeBelow54",
  "timeBelow63",
  "timeBelow70",
  "timeInRange",
  "timeAbove140",
  "timeAbove180",
  "timeAbove250",
  "cv",
] as const;
export type GoalMetric = (typeof GOAL_METRICS)[number];

/**
 * One goal of the consensus: "under" and "over" are strict (time below 70 mg/dL < 4 %, time in
 * range > 70 %), "atMost" is not (CV ≤ 36 %), as the consensus writes them.
 */
export interface Goal {
  metric: GoalMetric;
  /** The bands whose time the goal sums; empty for CV, which is not a time. */
  bands: readonly BandKey[];
  comparison: "under" | "over" | "atMost";
  percent: number;
}

export interface TargetPreset {
  id: TargetGroup;
  label: string;
  edges: BandEdges;
  /** In the order a report lists them: from the highest glucose down, then variability. */
  goals: readonly Goal[];
}

/**
 * The consensus's target groups. The AGP's query accepted "older" before the group was stored per
 * patient; links that still carry it are read as "olderHighRisk" (`parseTargetGroup`).
 */
export const TARGET_GROUPS = ["standard", "olderHighRisk", "pregnancy"] as const;
export type TargetGroup = (typeof TARGET_GROUPS)[number];

/** The five consensus ranges (constants.ts), which the summary API and the dashboard always use. */
export const CONSENSUS_EDGES: BandEdges = {
  veryLowBelow: VERY_LOW_BELOW_MGDL,
  lowBelow: LOW_BELOW_MGDL,
  inRangeMax: IN_RANGE_MAX_MGDL,
  highMax: HIGH_MAX_MGDL,
};

export const TARGET_PRESETS: Record<TargetGroup, TargetPreset> = {
  standard: {
    id: "standard",
    label: "Type 1 and type 2 diabetes",
    edges: CONSENSUS_EDGES,
    goals: [
      { metric: "timeAbove250", bands: ["veryHigh"], comparison: "under", percent: 5 },
      { metric: "timeAbove180", bands: ["high", "veryHigh"], comparison: "under", percent: 25 },
      { metric: "timeInRange", bands: ["inRange"], comparison: "over", percent: 70 },
      { metric: "timeBelow70", bands: ["low", "veryLow"], comparison: "under", percent: 4 },
      { metric: "timeBelow54", bands: ["veryLow"], comparison: "under", percent: 1 },
      { metric: "cv", bands: [], comparison: "atMost", percent: CV_STABLE_MAX_PERCENT },
    ],
  },
  olderHighRisk: {
    id: "olderHighRisk",
    label: "Older or high-risk, type 1 or type 2",
    edges: CONSENSUS_EDGES,
    goals: [
      { metric: "timeAbove250", bands: ["veryHigh"], comparison: "under", percent: 10 },
      { metric: "timeInRange", bands: ["inRange"], comparison: "over", percent: 50 },
      { metric: "timeBelow70", bands: ["low", "veryLow"], comparison: "under", percent: 1 },
      { metric: "cv", bands: [], comparison: "atMost", percent: CV_STABLE_MAX_PERCENT },
    ],
  },
  // The consensus sets no CV goal for pregnancy.
  pregnancy: {
    id: "pregnancy",
    label: "Pregnancy, type 1 diabetes",
    edges: {
      veryLowBelow: VERY_LOW_BELOW_MGDL,
      lowBelow: PREGNANCY_RANGE_MGDL.low,
      inRangeMax: PREGNANCY_RANGE_MGDL.high,
      highMax: null,
    },
    goals: [
      { metric: "timeAbove140", bands: ["high"], comparison: "under", percent: 25 },
      { metric: "timeInRange", bands: ["inRange"], comparison: "over", percent: 70 },
      { metric: "timeBelow63", bands: ["low", "veryLow"], comparison: "under", percent: 4 },
      { metric: "timeBelow54", bands: ["veryLow"], comparison: "under", percent: 1 },
    ],
  },
};

/** The band of one reading (mg/dL) under `edges`; the same comparisons as time-in-ranges.ts. */
export function bandOf(valueMgdl: number, edges: BandEdges): BandKey {
  if (valueMgdl < edges.veryLowBelow) return "veryLow";
  if (valueMgdl < edges.lowBelow) return "low";
  if (valueMgdl <= edges.inRangeMax) return "inRange";
  if (edges.highMax === null || valueMgdl <= edges.highMax) return "high";
  return "veryHigh";
}

/** The bands that exist under `edges`, from the highest down, as a report lists them. */
export function bandsOf(edges: BandEdges): BandKey[] {
  const keys: BandKey[] = ["veryHigh", "high", "inRange", "low", "veryLow"];
  return edges.highMax === null ? keys.slice(1) : keys;
}

/** Percent of readings in each band under `edges`; null for no readings. */
export function timeInBands(valuesMgdl: readonly number[], edges: BandEdges): Record<BandKey, number> | null {
  if (valuesMgdl.length === 0) return null;
  const counts: Record<BandKey, number> = { veryLow: 0, low: 0, inRange: 0, high: 0, veryHigh: 0 };
  for (const v of valuesMgdl) counts[bandOf(v, edges)]++;
  const pct = (k: BandKey) => (counts[k] / valuesMgdl.length) * 100;
  return {
    veryLow: pct("veryLow"),
    low: pct("low"),
    inRange: pct("inRange"),
    high: pct("high"),
    veryHigh: pct("veryHigh"),
  };
}

/** Whether `value` meets the goal ("under 4 %" is met by 3.9, not by 4.0; "at most 36" by 36). */
export function meetsGoal(goal: Pick<Goal, "comparison" | "percent">, value: number): boolean {
  if (goal.comparison === "over") return value > goal.percent;
  if (goal.comparison === "under") return value < goal.percent;
  return value <= goal.percent;
}

/** The time a band goal sums, from the shares of every band. */
export function goalTime(goal: Goal, percentages: Record<BandKey, number>): number {
  return goal.bands.reduce((s, b) => s + percentages[b], 0);
}

export function isTargetGroup(x: unknown): x is TargetGroup {
  return typeof x === "string" && (TARGET_GROUPS as readonly string[]).includes(x);
}

/** A target group from a query or form, with the AGP's former "older" read as olderHighRisk. */
export function parseTargetGroup(x: unknown): TargetGroup | null {
  if (x === "older") return "olderHighRisk";
  return isTargetGroup(x) ? x : null;
}
