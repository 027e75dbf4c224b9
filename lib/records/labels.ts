import type { CgmEvent, CgmEventSubType, CgmEventType } from "@/lib/cgm/app-records";
import { convertGlucose, type GlucoseUnit, roundForUnit } from "@/lib/cgm/units";
import { displayValue } from "@/lib/cgm/values";
import { countText, formatAmount } from "./format";

/**
 * How events and glucose values read, wherever they are shown: the record pages, the daily view,
 * the trace's tooltips and its markers table. No schemas here, so browser code can use it without
 * pulling zod into the chart's bundle.
 */

const TYPE_LABELS: Record<CgmEventType, string> = {
  carbs: "Carbs",
  insulin: "Insulin",
  exercise: "Exercise",
  health: "Health",
  // API v3 only.
  bloodGlucose: "Blood glucose",
  notes: "Note",
  unknown: "Other",
};

export function eventTypeLabel(type: CgmEventType): string {
  return TYPE_LABELS[type];
}

const SUBTYPE_LABELS: Record<CgmEventSubType, string> = {
  // API v3 only: insulin's subtypes, and a subtype the app does not know.
  fastActing: "Fast-acting",
  longActing: "Long-acting",
  unknown: "Unknown",
  light: "Light",
  medium: "Medium",
  heavy: "Heavy",
  illness: "Illness",
  stress: "Stress",
  highSymptoms: "High symptoms",
  lowSymptoms: "Low symptoms",
  cycle: "Cycle",
  alcohol: "Alcohol",
};

/** The subtype in words, or null when the event has none (carbs and insulin never do). */
export function eventSubTypeLabel(subType: CgmEventSubType | null): string | null {
  return subType === null ? null : SUBTYPE_LABELS[subType];
}

/**
 * The value with its unit: "45 grams", "4.5 units", "1 unit", "30 minutes", a meter reading in
 * the patient's display unit when one is given ("112 mg/dL" → "6.2 mmol/L"), else as logged.
 * A meter reading is a number even below 40 or above 400 mg/dL: the LOW/HIGH words are the CGM's
 * sentinels, not a meter's. Health and notes events have no value (spec 2.3: unit null, value may
 * be null): null. A value without a unit, or in a unit the app does not know, is the bare number.
 */
export function eventValueText(
  event: Pick<CgmEvent, "value" | "unit">,
  displayUnit: GlucoseUnit | null = null,
): string | null {
  const { value, unit } = event;
  if (value === null) return null;
  switch (unit) {
    case "grams":
      return countText(value, "gram", "grams");
    case "units":
      return countText(value, "unit", "units");
    case "minutes":
      return countText(value, "minute", "minutes");
    case "mg/dL":
    case "mmol/L": {
      if (displayUnit === null || displayUnit === unit) return `${formatAmount(value)} ${unit}`;
      const shown = roundForUnit(convertGlucose(value, unit, displayUnit), displayUnit);
      return `${displayUnit === "mmol/L" ? shown.toFixed(1) : shown} ${displayUnit}`;
    }
    case "unknown":
    case null:
      return formatAmount(value);
  }
}

/** "Carbs", "Exercise (Medium)": the type, with its subtype when it has one. */
export function eventTitle(type: CgmEventType, subType: CgmEventSubType | null): string {
  const sub = eventSubTypeLabel(subType);
  return sub ? `${eventTypeLabel(type)} (${sub})` : eventTypeLabel(type);
}

/** "5.6 mmol/L", "101 mg/dL"; values outside 40–400 mg/dL read "LOW"/"HIGH" without a unit. */
export function glucoseText(value: number, unit: GlucoseUnit): string {
  const text = displayValue(value, unit);
  return text === "LOW" || text === "HIGH" ? text : `${text} ${unit}`;
}
