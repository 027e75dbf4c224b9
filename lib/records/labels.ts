import type { EventSubType, EventType, EventV2 } from "@/lib/cgm/schemas";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { displayValue } from "@/lib/cgm/values";
import { countText, formatAmount } from "./format";

/**
 * How events and glucose values read, wherever they are shown: the record pages, the daily view,
 * the trace's tooltips and its markers table. No schemas here, so browser code can use it without
 * pulling zod into the chart's bundle.
 */

const TYPE_LABELS: Record<EventType, string> = {
  carbs: "Carbs",
  insulin: "Insulin",
  exercise: "Exercise",
  health: "Health",
};

export function eventTypeLabel(type: EventType): string {
  return TYPE_LABELS[type];
}

const SUBTYPE_LABELS: Record<EventSubType, string> = {
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
export function eventSubTypeLabel(subType: EventSubType | null): string | null {
  return subType === null ? null : SUBTYPE_LABELS[subType];
}

/**
 * The value with its unit: "45 grams", "4.5 units", "1 unit", "30 minutes". Health events have no
 * value (spec 2.3: unit null, value may be null): null. A value without a unit is the bare number.
 */
export function eventValueText(event: Pick<EventV2, "value" | "unit">): string | null {
  const { value, unit } = event;
  if (value === null) return null;
  switch (unit) {
    case "grams":
      return countText(value, "gram", "grams");
    case "units":
      return countText(value, "unit", "units");
    case "minutes":
      return countText(value, "minute", "minutes");
    case null:
      return formatAmount(value);
  }
}

/** "Carbs", "Exercise (Medium)": the type, with its subtype when it has one. */
export function eventTitle(type: EventType, subType: EventSubType | null): string {
  const sub = eventSubTypeLabel(subType);
  return sub ? `${eventTypeLabel(type)} (${sub})` : eventTypeLabel(type);
}

/** "5.6 mmol/L", "101 mg/dL"; values outside 40–400 mg/dL read "LOW"/"HIGH" without a unit. */
export function glucoseText(value: number, unit: GlucoseUnit): string {
  const text = displayValue(value, unit);
  return text === "LOW" || text === "HIGH" ? text : `${text} ${unit}`;
}
