import "server-only";
import { type EgvV2, formatDateTime, type GlucoseUnit, parseDateTime, type RateUnit } from "@/lib/cgm";
import { getDataRange, getEgvs } from "@/lib/service-client/client";

/**
 * The patient's latest reading. The service publishes readings with a delay, so "latest" is the
 * end of its data range, not now: we ask dataRange where the EGVs end and read the last half hour
 * before that point.
 */
const LOOKBACK_MS = 30 * 60_000;

export interface LatestReading {
  egv: EgvV2;
  unit: GlucoseUnit;
  rateUnit: RateUnit;
  /** systemTime in ms (UTC). */
  readAtMs: number;
}

export async function latestReading(connectionId: string): Promise<LatestReading | null> {
  const range = await getDataRange(connectionId);
  const end = range.egvs ? parseDateTime(range.egvs.end.systemTime) : null;
  if (end === null) return null;
  const { unit, rateUnit, egvs } = await getEgvs(connectionId, "v2", {
    startDate: formatDateTime(end - LOOKBACK_MS),
    endDate: formatDateTime(end),
  });
  const egv = egvs.at(-1);
  if (!egv) return null;
  return { egv, unit, rateUnit, readAtMs: parseDateTime(egv.systemTime) ?? end };
}
