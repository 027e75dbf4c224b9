import type { GlucoseUnit } from "@/lib/cgm/units";
import { eventTitle, eventValueText, glucoseText } from "@/lib/records/labels";
import type { CalibrationMarker, EventMarker } from "./overview-model";

/**
 * The trace's markers as text: every logged event and calibration drawn on it, newest first, with
 * its value and unit. The chart shows them as shapes with a tooltip on hover; this is the same
 * content for a keyboard, a screen reader or anyone who would rather read than point.
 */
export interface MarkerRow {
  key: string;
  t: number;
  displayTime: string;
  /** "Carbs", "Exercise (Medium)", "Calibration". */
  what: string;
  /** "35 grams", "5.6 mmol/L"; null when the entry has no value (health events may have none). */
  valueText: string | null;
}

export function markerRows(
  events: readonly EventMarker[],
  calibrations: readonly CalibrationMarker[],
  unit: GlucoseUnit,
): MarkerRow[] {
  const rows: MarkerRow[] = [
    ...events.map((e, i) => ({
      key: `e|${e.t}|${i}`,
      t: e.t,
      displayTime: e.displayTime,
      what: eventTitle(e.type, e.subType),
      valueText: eventValueText(e),
    })),
    ...calibrations.map((c, i) => ({
      key: `c|${c.t}|${i}`,
      t: c.t,
      displayTime: c.displayTime,
      what: "Calibration",
      valueText: glucoseText(c.value, unit),
    })),
  ];
  // Newest first by systemTime: displayTime can run backwards when the receiver's clock changes.
  return rows.sort((a, b) => b.t - a.t || a.key.localeCompare(b.key));
}
