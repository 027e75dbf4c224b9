import { parseDateTime } from "@/lib/cgm/datetime";
import type { EgvV1, EgvV2 } from "@/lib/cgm/schemas";
import type { Trend } from "@/lib/cgm/trend";
import { convertGlucose, type GlucoseUnit, type RateUnit, rateUnitFor, roundForUnit } from "@/lib/cgm/units";
import { classifyValue, sentinelValue } from "@/lib/cgm/values";
import { clockOffsetMinutes } from "./clock";

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

/** EGV records (v1 or v2, any order) as chart points in systemTime order. */
export function toTracePoints(
  egvs: ReadonlyArray<EgvV1 | EgvV2>,
  fromUnit: GlucoseUnit,
  toUnit: GlucoseUnit,
  fromRateUnit: RateUnit = rateUnitFor(fromUnit),
): TracePoint[] {
  const rateFrom: GlucoseUnit = fromRateUnit === "mg/dL/min" ? "mg/dL" : "mmol/L";
  const points: TracePoint[] = [];
  for (const egv of egvs) {
    // Spec 2.1 v2 rules 1 and 6: `value` already equals `smoothedValue` whenever there is one, and
    // clients are told to consume `value`. The dashboard re-reads its whole window whenever the
    // service has a newer reading, so a smoothing that arrived late replaces the earlier value.
    // The schema makes `value` non-null, but later versions' fields are not shown, so guard anyway.
    const value: unknown = egv.value;
    if (typeof value !== "number" || !Number.isFinite(value)) continue;
    const t = parseDateTime(egv.systemTime);
    const offsetMinutes = clockOffsetMinutes(egv.systemTime, egv.displayTime);
    if (t === null || offsetMinutes === null) continue;
    const c = classifyValue(value, fromUnit, egv.status);
    const sentinel = c === "inRange" ? null : c;
    points.push({
      t,
      display: egv.displayTime,
      offsetMinutes,
      value:
        sentinel === null
          ? roundForUnit(convertGlucose(value, fromUnit, toUnit), toUnit)
          : sentinelValue(sentinel, toUnit),
      sentinel,
      trend: egv.trend,
      rate: egv.trendRate === null ? null : convertGlucose(egv.trendRate, rateFrom, toUnit),
    });
  }
  // The service may answer newest first; Array.prototype.sort is stable, so equal times keep input order.
  return points.sort((a, b) => a.t - b.t);
}
