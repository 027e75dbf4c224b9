import { type Reading, toReadings } from "@/lib/cgm/reading";
import type { EgvV1, EgvV2 } from "@/lib/cgm/schemas";
import type { Trend } from "@/lib/cgm/trend";
import { convertGlucose, type GlucoseUnit, type RateUnit, rateUnitFor, roundForUnit } from "@/lib/cgm/units";
import { sentinelValue } from "@/lib/cgm/values";

export interface TracePoint {
  /** systemTime as epoch ms: the only axis that never repeats or skips across clock changes. */
  t: number;
  /** displayTime exactly as received, for labels in the patient's own wall clock. */
  display: string;
  offsetMinutes: number;
  /** In the target unit, rounded as a device shows it; a sentinel sits at its chart edge. */
  value: number;
  sentinel: "low" | "high" | null;
  trend: Trend | null;
  /** trendRate in the target unit per minute, unrounded. */
  rate: number | null;
}

/** Readings (lib/cgm/reading.ts) of a response in `fromUnit` as chart points in systemTime order. */
export function tracePointsOf(
  readings: readonly Reading[],
  fromUnit: GlucoseUnit,
  toUnit: GlucoseUnit,
  fromRateUnit: RateUnit = rateUnitFor(fromUnit),
): TracePoint[] {
  const rateFrom: GlucoseUnit = fromRateUnit === "mg/dL/min" ? "mg/dL" : "mmol/L";
  const points = readings.map(
    (r): TracePoint => ({
      t: r.t,
      display: r.displayTime,
      offsetMinutes: r.offsetMinutes,
      value:
        r.sentinel === null
          ? roundForUnit(convertGlucose(r.value, fromUnit, toUnit), toUnit)
          : sentinelValue(r.sentinel, toUnit),
      sentinel: r.sentinel,
      trend: r.trend,
      rate: r.rate === null ? null : convertGlucose(r.rate, rateFrom, toUnit),
    }),
  );
  // The service may answer newest first; Array.prototype.sort is stable, so equal times keep input order.
  return points.sort((a, b) => a.t - b.t);
}

/** EGV records (v1 or v2, any order) as chart points in systemTime order. */
export function toTracePoints(
  egvs: ReadonlyArray<EgvV1 | EgvV2>,
  fromUnit: GlucoseUnit,
  toUnit: GlucoseUnit,
  fromRateUnit: RateUnit = rateUnitFor(fromUnit),
): TracePoint[] {
  return tracePointsOf(toReadings(egvs, fromUnit), fromUnit, toUnit, fromRateUnit);
}
