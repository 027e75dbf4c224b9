import {
  GRI_HIGH_WEIGHT_IN_HYPER,
  GRI_HYPER_WEIGHT,
  GRI_HYPO_WEIGHT,
  GRI_LOW_WEIGHT_IN_HYPO,
  GRI_MAX,
  GRI_ZONE_WIDTH,
} from "./constants";
import { type PerConsensusRange, timeInRanges } from "./time-in-ranges";

/**
 * Glycemia Risk Index. Klonoff DC, Wang J, Rodbard D, et al. A Glycemia Risk Index (GRI) of
 * Hypoglycemia and Hyperglycemia for Continuous Glucose Monitoring Validated by Clinician Ratings.
 * J Diabetes Sci Technol 2023;17(5):1226–1242. With the percentages of readings in the consensus
 * ranges (time-in-ranges.ts: VLow < 54, Low 54–<70, High >180–250, VHigh > 250 mg/dL):
 *   hypo component  = VLow + 0.8 × Low
 *   hyper component = VHigh + 0.5 × High
 *   GRI = 3.0 × hypo + 1.6 × hyper = 3.0 VLow + 2.4 Low + 1.6 VHigh + 0.8 High, capped at 100.
 * The components are percentages and are not capped. Zones A (best) to E are the quintiles of
 * 0–100: A ≤ 20 < B ≤ 40 < C ≤ 60 < D ≤ 80 < E.
 */

export type GriZone = "A" | "B" | "C" | "D" | "E";

export interface GlycemiaRiskIndex {
  hypoComponent: number;
  hyperComponent: number;
  gri: number;
  zone: GriZone;
}

/** The GRI zone of a GRI value (quintiles of 0–100, upper edge inclusive). */
export function griZone(gri: number): GriZone {
  const zones: GriZone[] = ["A", "B", "C", "D", "E"];
  const index = Math.max(0, Math.ceil(gri / GRI_ZONE_WIDTH) - 1);
  return zones[Math.min(index, zones.length - 1)]!;
}

/** GRI from the percentages of readings in the four out-of-range consensus ranges. */
export function glycemiaRiskIndex(
  percent: Pick<PerConsensusRange<number>, "veryLow" | "low" | "high" | "veryHigh">,
): GlycemiaRiskIndex {
  const hypoComponent = percent.veryLow + GRI_LOW_WEIGHT_IN_HYPO * percent.low;
  const hyperComponent = percent.veryHigh + GRI_HIGH_WEIGHT_IN_HYPER * percent.high;
  const gri = Math.min(GRI_MAX, GRI_HYPO_WEIGHT * hypoComponent + GRI_HYPER_WEIGHT * hyperComponent);
  return { hypoComponent, hyperComponent, gri, zone: griZone(gri) };
}

/** GRI of a set of readings (mg/dL); null for no readings. */
export function glycemiaRiskIndexOf(valuesMgdl: readonly number[]): GlycemiaRiskIndex | null {
  const { percentages } = timeInRanges(valuesMgdl);
  return percentages === null ? null : glycemiaRiskIndex(percentages);
}
