import { HIGH_MAX_MGDL, IN_RANGE_MAX_MGDL, LOW_BELOW_MGDL, VERY_LOW_BELOW_MGDL } from "./constants";

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

export interface BandGoal {
  /** The bands whose time the goal sums. */
  bands: readonly BandKey[];
  label: string;
  comparison: "above" | "below";
  percent: number;
}

export interface TargetPreset {
  id: PopulationId;
  label: string;
  edges: BandEdges;
  goals: readonly BandGoal[];
}

export const POPULATION_IDS = ["standard", "older", "pregnancy"] as const;
export type PopulationId = (typeof POPULATION_IDS)[number];

/** The five consensus ranges (constants.ts), which the summary API and the dashboard always use. */
export const CONSENSUS_EDGES: BandEdges = {
  veryLowBelow: VERY_LOW_BELOW_MGDL,
  lowBelow: LOW_BELOW_MGDL,
  inRangeMax: IN_RANGE_MAX_MGDL,
  highMax: HIGH_MAX_MGDL,
};

export const TARGET_PRESETS: Record<PopulationId, TargetPreset> = {
  standard: {
    id: "standard",
    label: "Type 1 and type 2 diabetes",
    edges: CONSENSUS_EDGES,
    goals: [
      { bands: ["veryHigh"], label: "Above 250 mg/dL", comparison: "below", percent: 5 },
      { bands: ["high", "veryHigh"], label: "Above 180 mg/dL", comparison: "below", percent: 25 },
      { bands: ["inRange"], label: "70–180 mg/dL", comparison: "above", percent: 70 },
      { bands: ["low", "veryLow"], label: "Below 70 mg/dL", comparison: "below", percent: 4 },
      { bands: ["veryLow"], label: "Below 54 mg/dL", comparison: "below", percent: 1 },
    ],
  },
  older: {
    id: "older",
    label: "Older or high-risk, type 1 or type 2",
    edges: CONSENSUS_EDGES,
    goals: [
      { bands: ["veryHigh"], label: "Above 250 mg/dL", comparison: "below", percent: 10 },
      { bands: ["inRange"], label: "70–180 mg/dL", comparison: "above", percent: 50 },
      { bands: ["low", "veryLow"], label: "Below 70 mg/dL", comparison: "below", percent: 1 },
    ],
  },
  pregnancy: {
    id: "pregnancy",
    label: "Pregnancy, type 1 diabetes",
    edges: { veryLowBelow: 54, lowBelow: 63, inRangeMax: 140, highMax: null },
    goals: [
      { bands: ["high"], label: "Above 140 mg/dL", comparison: "below", percent: 25 },
      { bands: ["inRange"], label: "63–140 mg/dL", comparison: "above", percent: 70 },
      { bands: ["low", "veryLow"], label: "Below 63 mg/dL", comparison: "below", percent: 4 },
      { bands: ["veryLow"], label: "Below 54 mg/dL", comparison: "below", percent: 1 },
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

/** Whether the time summed over a goal's bands meets it ("below 4 %" is met by 3.9, not by 4.0). */
export function goalMet(goal: BandGoal, percentages: Record<BandKey, number>): boolean {
  const total = goal.bands.reduce((s, b) => s + percentages[b], 0);
  return goal.comparison === "above" ? total > goal.percent : total < goal.percent;
}

export function isPopulationId(x: unknown): x is PopulationId {
  return typeof x === "string" && (POPULATION_IDS as readonly string[]).includes(x);
}
