import "server-only";
import type { GlucoseUnit } from "@/lib/cgm/units";
import type { TargetGroup } from "@/lib/metrics/targets";
import { displayUnit, type Preferences } from "@/lib/preferences";
import { WindowRefused } from "@/lib/service-client/client";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { attributionSentence, type BandAttribution, type Comparison, compareReadings } from "./comparison";
import { comparisonPeriods, earlierPeriodProblem } from "./comparison-view";
import type { PeriodRequest } from "./period";
import { dataEndMs, loadReadings } from "./readings";

/**
 * The comparison as the page and GET /api/reports/compare answer it: metrics in mg/dL (as the
 * summary API), the attribution also in words, worded in the unit the patient reads.
 */
export interface ComparisonReport extends Omit<Comparison, "attribution"> {
  /** The unit of the sentences and of the page's values: the patient's choice, else the data's. */
  unit: GlucoseUnit;
  dataUnit: GlucoseUnit;
  attribution: Array<BandAttribution & { sentence: string | null }>;
  /** The target group whose goals judge both periods (lib/preferences/target-group.ts). */
  targetGroup: TargetGroup;
}

/** Null when the request needs the end of the data and the service holds no readings at all. */
export async function loadComparison(
  connection: ConnectionRef,
  preferences: Preferences,
  request: PeriodRequest,
  targetGroup: TargetGroup = "standard",
): Promise<ComparisonReport | null> {
  const end = request.kind === "days" ? await dataEndMs(connection) : null;
  const periods = comparisonPeriods(request, end);
  if (!periods) return null;
  // Explicit dates were checked when read; the last days of data are known only now.
  const problem = earlierPeriodProblem(periods.recent);
  if (problem) throw new WindowRefused(`This comparison cannot be made: ${problem}.`);
  // Each period is read on its own, exactly as the summary API reads it, so the numbers agree.
  const [earlier, recent] = await Promise.all([
    loadReadings(connection, periods.earlier),
    loadReadings(connection, periods.recent),
  ]);
  const comparison = compareReadings(periods.earlier, earlier.readings, periods.recent, recent.readings);
  const unit = displayUnit(preferences, recent.dataUnit);
  return {
    unit,
    dataUnit: recent.dataUnit,
    targetGroup,
    ...comparison,
    attribution: comparison.attribution.map((a) => ({ ...a, sentence: attributionSentence(a, unit) })),
  };
}
