import { glucoseText } from "@/lib/cgm/glucose-text";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { type AlertSounding, soundedAlertLabel, soundingEndText } from "@/lib/records/alerts";
import { eventTitle, eventValueText } from "@/lib/records/labels";
import type { CalibrationMarker, EventMarker } from "./overview-model";

/**
 * The trace's markers as text: every logged event, calibration and alert (API v3) drawn on it,
 * newest first, with its value and unit (a note: its text; a meter reading: in the unit on screen;
 * an alert: how it stopped and after how long). The chart shows them as shapes with a tooltip on hover; this is the same
 * content for a keyboard, a screen reader or anyone who would rather read than point.
 */
export interface MarkerRow {
  key: string;
  t: number;
  displayTime: string;
  /** "Carbs", "Exercise (Medium)", "Calibration", "Low alert". */
  what: string;
  /** "35 grams", "5.6 mmol/L", a note's text, "Acknowledged after 2 min"; null without a value. */
  valueText: string | null;
}

/** An event's value on the trace: a note's text, a meter reading in the unit on screen. */
export function eventMarkerValue(e: EventMarker, unit: GlucoseUnit): string | null {
  return e.text ?? eventValueText(e, unit);
}

/** "Low alert", "Signal loss alert (again)". */
export function alertMarkerTitle(a: Pick<AlertSounding, "alertName" | "repeat">): string {
  return `${soundedAlertLabel(a.alertName)} alert${a.repeat ? " (again)" : ""}`;
}

export function markerRows(
  events: readonly EventMarker[],
  calibrations: readonly CalibrationMarker[],
  unit: GlucoseUnit,
  alerts: readonly AlertSounding[] = [],
): MarkerRow[] {
  const rows: MarkerRow[] = [
    ...events.map((e, i) => ({
      key: `e|${e.t}|${i}`,
      t: e.t,
      displayTime: e.displayTime,
      what: eventTitle(e.type, e.subType),
      valueText: eventMarkerValue(e, unit),
    })),
    ...alerts.map((a, i) => ({
      key: `a|${a.t}|${i}`,
      t: a.t,
      displayTime: a.displayTime,
      what: alertMarkerTitle(a),
      valueText: soundingEndText(a),
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
