/**
 * mg/dL per mmol/L for glucose: 1 mmol/L of glucose (molar mass 180.156 g/mol) is 18.0156 mg/dL;
 * CGM vendors and the consensus reports round to 18.0 or 18.02. We use 18.0182, the factor used by
 * Dexcom's software, so mmol/L values round-trip with the device's own display.
 */
export const MGDL_PER_MMOLL = 18.0182;

export const GLUCOSE_UNITS = ["mg/dL", "mmol/L"] as const;
export type GlucoseUnit = (typeof GLUCOSE_UNITS)[number];
export const RATE_UNITS = ["mg/dL/min", "mmol/L/min"] as const;
export type RateUnit = (typeof RATE_UNITS)[number];

export function rateUnitFor(unit: GlucoseUnit): RateUnit {
  return unit === "mg/dL" ? "mg/dL/min" : "mmol/L/min";
}

export function mgdlToMmoll(mgdl: number): number {
  return mgdl / MGDL_PER_MMOLL;
}

export function mmollToMgdl(mmoll: number): number {
  return mmoll * MGDL_PER_MMOLL;
}

/** Converts a glucose value (or a rate) between units, exactly (no rounding). */
export function convertGlucose(value: number, from: GlucoseUnit, to: GlucoseUnit): number {
  if (from === to) return value;
  return from === "mg/dL" ? mgdlToMmoll(value) : mmollToMgdl(value);
}

/** Rounds as devices display: mg/dL to whole numbers, mmol/L to one decimal. */
export function roundForUnit(value: number, unit: GlucoseUnit): number {
  return unit === "mg/dL" ? Math.round(value) : Math.round(value * 10) / 10;
}

export function toMgdl(value: number, unit: GlucoseUnit): number {
  return convertGlucose(value, unit, "mg/dL");
}

/** A value kept in mg/dL (targets, metrics) as shown in `unit`: converted, then rounded as devices display. */
export function fromMgdlRounded(mgdl: number, unit: GlucoseUnit): number {
  return roundForUnit(convertGlucose(mgdl, "mg/dL", unit), unit);
}
