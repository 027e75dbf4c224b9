import { offsetMinutesOf } from "./clock-offset";
import { parseDateTime } from "./datetime";
import type { EgvV1, EgvV2 } from "./schemas";
import type { Trend } from "./trend";
import type { GlucoseUnit } from "./units";
import { classifyValue, metricMgdlOfClass } from "./values";

/**
 * One EGV as the app reads it, decided once for every view that uses it (the trace, the overview,
 * the daily view, reports): its instants, its clock, whether it is a sentinel, its value for
 * metrics, its trend. What it looks like on screen (the unit shown, rounding, text) is left to
 * the views, which convert from `value` and `rate` as received so that nothing is converted twice.
 */
export interface Reading {
  /** systemTime as epoch ms: orders readings and defines windows, never repeats or skips. */
  t: number;
  /** displayTime exactly as received: the patient's clock, for labels and days. */
  displayTime: string;
  /** displayTime read on the naive UTC axis (datetime.ts). */
  displayMs: number;
  /** displayTime − systemTime in whole quarter hours (clock-offset.ts). */
  offsetMinutes: number;
  /** `value` as received, in the response's unit. */
  value: number;
  /** Out of the measuring range (values.ts `classifyValue`), decided in the response's unit. */
  sentinel: "low" | "high" | null;
  /** The value for metrics: mg/dL, the sentinels as 39 and 401 (values.ts `metricValueMgdl`). */
  mgdl: number;
  trend: Trend | null;
  /** `trendRate` as received, in the response's rate unit; null when the service gave none. */
  rate: number | null;
}

/**
 * The EGVs (v1 or v2) of a response in `unit` as readings, in the order received (views that
 * need systemTime order sort; metrics keep the service's order, so sums add up as they always did).
 * Records whose value or times cannot be read are left out.
 */
export function toReadings(egvs: ReadonlyArray<EgvV1 | EgvV2>, unit: GlucoseUnit): Reading[] {
  const readings: Reading[] = [];
  for (const egv of egvs) {
    // Spec 2.1 v2 rules 1 and 6: `value` already equals `smoothedValue` whenever there is one, and
    // clients are told to consume `value`. The dashboard re-reads its whole window whenever the
    // service has a newer reading, so a smoothing that arrived late replaces the earlier value.
    // The schema makes `value` non-null, but later versions' fields are not shown, so guard anyway.
    const value: unknown = egv.value;
    if (typeof value !== "number" || !Number.isFinite(value)) continue;
    const t = parseDateTime(egv.systemTime);
    const displayMs = parseDateTime(egv.displayTime);
    if (t === null || displayMs === null) continue;
    const c = classifyValue(value, unit, egv.status);
    readings.push({
      t,
      displayTime: egv.displayTime,
      displayMs,
      offsetMinutes: offsetMinutesOf(t, displayMs),
      value,
      sentinel: c === "inRange" ? null : c,
      mgdl: metricMgdlOfClass(c, value, unit),
      trend: egv.trend,
      rate: egv.trendRate,
    });
  }
  return readings;
}
