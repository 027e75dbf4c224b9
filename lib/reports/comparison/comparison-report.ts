import type { GlucoseUnit } from "@/lib/cgm/units";
import type { TargetGroup } from "@/lib/metrics/targets";
import type { JudgedGoal } from "@/lib/trace/goal-text";
import type { BandAttribution, Comparison } from "./comparison";

// Declared apart from comparison-load.ts, a server module, so the page's components can name it.

/**
 * The comparison as the page and GET /api/reports/compare answer it: metrics in mg/dL (as the
 * summary API), the attribution also in words, worded in the unit the patient reads.
 */
export interface ComparisonReport extends Omit<Comparison, "attribution"> {
  /** The unit of the sentences and of the page's values: the patient's choice, else the data's. */
  unit: GlucoseUnit;
  dataUnit: GlucoseUnit;
  attribution: Array<BandAttribution & { sentence: string | null }>;
  /** Each period judged against the patient's target group; null for a period without readings. */
  goals: {
    group: TargetGroup;
    groupLabel: string;
    earlier: JudgedGoal[] | null;
    recent: JudgedGoal[] | null;
  };
  /** The target group whose goals judge both periods (lib/preferences/target-group.ts). */
  targetGroup: TargetGroup;
}
