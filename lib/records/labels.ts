import type { CgmEvent, CgmEventSubType, CgmEventType } from "@/lib/cgm/app-records";
import { formatGlucoseNumber } from "@/lib/cgm/glucose-text";
import { convertGlucose, type GlucoseUnit } from "@/lib/cgm/units";
import { countText, formatAmount } from "./format";

/**
 * How events read, wherever they are shown: the record pages, the daily view, the trace's tooltips
 * and its markers table; glucose values read as lib/cgm/glucose-text writes them. No schemas here,
 * so browser code can use it without pulling zod into the chart's bundle.
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
      return `${formatGlucoseNumber(convertGlucose(value, unit, displayUnit), displayUnit)} ${displayUnit}`;
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
