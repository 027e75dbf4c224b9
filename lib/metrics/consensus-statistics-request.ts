import type { StatisticsV2Request } from "@/lib/cgm/schemas";
import { fromMgdlRounded, type GlucoseUnit } from "@/lib/cgm/units";

/**
 * What the dashboard asks the service's statistics endpoint (v2) for: the whole day counted by the
 * consensus bounds. The overview asks it for the service's numbers it shows beside ours, the sync
 * for the hypoglycemia risk. The request's shape is the service's, defined with its other resources
 * (lib/cgm/schemas.ts `statisticsV2RequestSchema`).
 */

/** The consensus thresholds (mg/dL) that the statistics request asks the service to count by. */
export const SERVICE_STATISTICS_BOUNDS_MGDL = { urgentLow: 54, low: 70, high: 180 } as const;

/** The v2 statistics body for the whole day with the consensus bounds, in the data's unit. */
export function consensusStatisticsRequest(dataUnit: GlucoseUnit) {
  const b = SERVICE_STATISTICS_BOUNDS_MGDL;
  return {
    targetRanges: [
      {
        name: "Whole day",
        startTime: "00:00:00",
        endTime: "00:00:00",
        egvRanges: [
          { name: "urgentLow" as const, bound: fromMgdlRounded(b.urgentLow, dataUnit) },
          { name: "low" as const, bound: fromMgdlRounded(b.low, dataUnit) },
          { name: "high" as const, bound: fromMgdlRounded(b.high, dataUnit) },
        ],
      },
    ],
  } satisfies StatisticsV2Request;
}
