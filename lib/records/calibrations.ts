import { glucoseText } from "@/lib/cgm/glucose-text";
import type { Calibration } from "@/lib/cgm/schemas";
import { convertGlucose } from "@/lib/cgm/units";
import { displayUnit, type Preferences } from "@/lib/preferences/schema";
import { generationLabel } from "./devices";
import { type ViewerWords, wordsFor } from "./viewer";

/**
 * The calibrations page (spec 2.2): each fingerstick value in the patient's display unit. Every
 * record carries its own unit, so each is converted from that unit, not from an assumed one.
 */

export interface CalibrationRow {
  key: string;
  systemTime: string;
  displayTime: string;
  /** In the display unit. */
  valueText: string;
  /** The value as entered, when the display unit is another one; else null. */
  enteredText: string | null;
}

/** Rows newest first (by systemTime), each value converted to `displayUnit(preferences, record unit)`. */
export function calibrationRows(
  calibrations: readonly Calibration[],
  preferences: Preferences,
): CalibrationRow[] {
  return [...calibrations]
    .sort((a, b) => (a.systemTime < b.systemTime ? 1 : a.systemTime > b.systemTime ? -1 : 0))
    .map((c, i) => {
      const unit = displayUnit(preferences, c.unit);
      return {
        key: `${c.systemTime}|${i}`,
        systemTime: c.systemTime,
        displayTime: c.displayTime,
        valueText: glucoseText(convertGlucose(c.value, c.unit, unit), unit),
        enteredText: unit === c.unit ? null : glucoseText(c.value, c.unit),
      };
    });
}

/**
 * Why there is nothing to list. G6 and G7 sensors are calibrated at the factory; with a known
 * generation the page can say that this is expected rather than missing.
 */
/** Factory-calibrated generations, with API v3's names for them (service-v3-notes.md §4). */
const FACTORY_CALIBRATED = new Set(["g6", "g6+", "g6pro", "g6 pro", "g7", "g715day", "d1+"]);

export function calibrationsEmptyText(
  transmitterGeneration: string | null,
  words: Pick<ViewerWords, "Your" | "account"> = wordsFor(),
): string {
  const g = transmitterGeneration?.trim().toLowerCase() ?? "";
  if (FACTORY_CALIBRATED.has(g)) {
    return `${words.Your} ${generationLabel(g)} sensor is calibrated at the factory, so it needs no fingerstick calibrations. None are recorded, and none are needed.`;
  }
  return `No calibrations are recorded in ${words.account}. Sensors calibrated at the factory (such as G6 and G7) need none; older sensors (G4, G5) are calibrated with fingerstick readings, which appear here once uploaded.`;
}
