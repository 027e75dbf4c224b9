import { convertGlucose, type GlucoseUnit, roundForUnit } from "./units";
import { classifyValue } from "./values";

/**
 * How a glucose value reads as text, wherever the app shows one: pages, charts, tooltips, reports,
 * PDFs. One place, so every page writes the same value the same way. The rules: whole mg/dL
 * ("180"), mmol/L always to one decimal ("10.0", never a bare "10" beside "3.9"); the sentinels
 * 39 and 401 (spec 2.1) read "LOW" and "HIGH", never as numbers, and without a unit.
 * Free of the app (only lib/cgm), so the server, the browser and every layer can use it.
 */

const LOW_TEXT = "LOW";
const HIGH_TEXT = "HIGH";

/**
 * A glucose number as the unit is read: whole mg/dL ("180"), mmol/L to one decimal always ("10.0",
 * "3.0"), so a chart axis or a caption never mixes "3.9" with a bare "10".
 */
export function formatGlucoseNumber(value: number, unit: GlucoseUnit): string {
  return unit === "mg/dL" ? String(Math.round(value)) : roundForUnit(value, unit).toFixed(1);
}

/** A glucose value given in mg/dL, written in `unit` as `formatGlucoseNumber` writes it (70 → "3.9"). */
export function formatMgdlIn(mgdl: number, unit: GlucoseUnit): string {
  return formatGlucoseNumber(convertGlucose(mgdl, "mg/dL", unit), unit);
}

/**
 * A glucose value given in mg/dL (a bound, an edge, a spread: never a reading, so never LOW or
 * HIGH), written in `unit` with the unit: 70 → "3.9 mmol/L".
 */
export function mgdlText(mgdl: number, unit: GlucoseUnit): string {
  return `${formatMgdlIn(mgdl, unit)} ${unit}`;
}

/** Text for a person: "LOW", "HIGH", or the value rounded for its unit. */
export function displayValue(value: number, unit: GlucoseUnit, status?: string | null): string {
  const c = classifyValue(value, unit, status);
  if (c === "low") return LOW_TEXT;
  if (c === "high") return HIGH_TEXT;
  return formatGlucoseNumber(value, unit);
}

/** A value's text with its unit ("101 mg/dL"); "LOW" and "HIGH" are words and take none. */
export function withGlucoseUnit(text: string, unit: GlucoseUnit): string {
  return text === LOW_TEXT || text === HIGH_TEXT ? text : `${text} ${unit}`;
}

/** "5.6 mmol/L", "101 mg/dL"; values outside 40–400 mg/dL read "LOW"/"HIGH" without a unit. */
export function glucoseText(value: number, unit: GlucoseUnit): string {
  return withGlucoseUnit(displayValue(value, unit), unit);
}

/**
 * A chart point as text: LOW or HIGH by its sentinel, decided in the data's own unit, else its number.
 * Never re-classified in the unit on screen: a real 40 mg/dL is 2.2 mmol/L, the value LOW is drawn at.
 */
export function pointText(p: { value: number; sentinel: "low" | "high" | null }, unit: GlucoseUnit): string {
  if (p.sentinel === "low") return LOW_TEXT;
  if (p.sentinel === "high") return HIGH_TEXT;
  return formatGlucoseNumber(p.value, unit);
}

/** A range of values given in `unit`, as people read it: "70–180 mg/dL", "3.9–10.0 mmol/L". */
export function glucoseRangeText(low: number, high: number, unit: GlucoseUnit): string {
  return `${formatGlucoseNumber(low, unit)}–${formatGlucoseNumber(high, unit)} ${unit}`;
}

/** A range given in mg/dL (targets, consensus bands), written in `unit`: 70, 180 → "3.9–10.0 mmol/L". */
export function mgdlRangeText(lowMgdl: number, highMgdl: number, unit: GlucoseUnit): string {
  return `${formatMgdlIn(lowMgdl, unit)}–${formatMgdlIn(highMgdl, unit)} ${unit}`;
}
