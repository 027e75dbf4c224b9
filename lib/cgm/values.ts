import { type GlucoseUnit, mgdlToMmoll, roundForUnit, toMgdl } from "./units";

/**
 * Value rules of spec section 2.1: 39 stands for "below 40" and 401 for "above 400" (mg/dL). Both
 * take part in calculations as they are and are never shown to a person as numbers.
 */
export const SENTINEL_LOW_MGDL = 39;
export const SENTINEL_HIGH_MGDL = 401;
export const MEASURING_RANGE_MGDL = { min: 40, max: 400 } as const;

/**
 * In an mmol/L response the sentinels are the mg/dL sentinels converted and rounded like any
 * other value (39 → 2.2, 401 → 22.3); `status` says which readings they are.
 */
export function sentinelValue(kind: "low" | "high", unit: GlucoseUnit): number {
  const mgdl = kind === "low" ? SENTINEL_LOW_MGDL : SENTINEL_HIGH_MGDL;
  return unit === "mg/dL" ? mgdl : roundForUnit(mgdlToMmoll(mgdl), unit);
}

export type ValueClass = "low" | "high" | "inRange";

/**
 * Whether a reading is out of the measuring range. `status` decides when present (v2 does not
 * promise it). Otherwise mg/dL values are compared with the measuring range, and mmol/L values,
 * as sent to one decimal, with the sentinels as sent: 39 and 40 mg/dL both become 2.2 mmol/L, so a
 * 2.2 without a status is read as LOW, never risking 39 shown as a number.
 */
export function classifyValue(value: number, unit: GlucoseUnit, status?: string | null): ValueClass {
  if (status === "low") return "low";
  if (status === "high") return "high";
  if (unit === "mmol/L") {
    const sent = roundForUnit(value, unit);
    if (sent <= sentinelValue("low", unit)) return "low";
    if (sent >= sentinelValue("high", unit)) return "high";
    return "inRange";
  }
  const mgdl = Math.round(toMgdl(value, unit));
  if (mgdl < MEASURING_RANGE_MGDL.min) return "low";
  if (mgdl > MEASURING_RANGE_MGDL.max) return "high";
  return "inRange";
}

/**
 * A reading's value for metrics, in mg/dL. The sentinels take part as exactly 39 and 401 (spec 2.1,
 * and our metric definitions), even when an mmol/L response carries them as 2.2 or 22.3.
 *
 * Other mmol/L values are converted and rounded to a whole mg/dL. Why round: a sensor measures in
 * whole mg/dL and an mmol/L value is that reading shown to one decimal, so the nearest whole mg/dL
 * is the best estimate of what was measured; unrounded, 10.0 mmol/L became 180.18 mg/dL and
 * counted as high, and 13.9 as very high, against the consensus's own mmol/L bands (3.9–10.0 in
 * range, 10.1–13.9 high) printed beside them and against the service's statistics asked with
 * those bounds. Rounded, every consensus edge (3.0, 3.9, 10.0, 13.9) falls on its band's side.
 * The rounding moves a value by at most 0.5 mg/dL either way, so means are not biased.
 */
export function metricValueMgdl(value: number, unit: GlucoseUnit, status?: string | null): number {
  return metricMgdlOfClass(classifyValue(value, unit, status), value, unit);
}

/** `metricValueMgdl` of a reading already classified (lib/cgm/reading.ts classifies each once). */
export function metricMgdlOfClass(c: ValueClass, value: number, unit: GlucoseUnit): number {
  if (c === "low") return SENTINEL_LOW_MGDL;
  if (c === "high") return SENTINEL_HIGH_MGDL;
  return unit === "mg/dL" ? value : Math.round(toMgdl(value, unit));
}
