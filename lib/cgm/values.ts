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
 * Whether a reading is out of the measuring range. `status` decides when present; otherwise the
 * value is compared with the measuring range after conversion to mg/dL.
 */
export function classifyValue(value: number, unit: GlucoseUnit, status?: string | null): ValueClass {
  if (status === "low") return "low";
  if (status === "high") return "high";
  const mgdl = Math.round(toMgdl(value, unit));
  if (mgdl < MEASURING_RANGE_MGDL.min) return "low";
  if (mgdl > MEASURING_RANGE_MGDL.max) return "high";
  return "inRange";
}

/** Text for a person: "LOW", "HIGH", or the value rounded for its unit. */
export function displayValue(value: number, unit: GlucoseUnit, status?: string | null): string {
  const c = classifyValue(value, unit, status);
  if (c === "low") return "LOW";
  if (c === "high") return "HIGH";
  const rounded = roundForUnit(value, unit);
  return unit === "mg/dL" ? String(rounded) : rounded.toFixed(1);
}
