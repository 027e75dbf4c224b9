import type { CgmDevice } from "@/lib/cgm/app-records";
import type { Calibration } from "@/lib/cgm/schemas";
import type { Preferences } from "@/lib/preferences/schema";
import { type CalibrationRow, calibrationRows, calibrationsEmptyText } from "@/lib/records/calibrations";
import { deviceTitle } from "@/lib/records/devices";
import type { Choice } from "@/lib/records/query";
import { PATIENT, type Viewer, viewPath, wordsFor } from "@/lib/records/viewer";
import type { PatientDays } from "@/lib/reports/period/patient-days";
import { daysChoices } from "@/lib/reports/period/period-choices";

/**
 * The calibrations page's model: the fingerstick calibrations of the chosen days in the patient's
 * display unit, with the devices of the same days (the calibration record has no device fields).
 */

export const CALIBRATIONS_PATH = "/dashboard/calibrations";

/** What the loader read: nothing to list (with the sensor generation that says why), or the list. */
export type CalibrationsData =
  | { kind: "none"; generation: string | null }
  | {
      kind: "list";
      calibrations: readonly Calibration[];
      devices: readonly CgmDevice[];
      patientDays: PatientDays;
      latestDisplayTime: string;
    };

export type CalibrationsModel =
  | { kind: "none"; emptyText: string }
  | {
      kind: "list";
      patientDays: PatientDays;
      latestDisplayTime: string;
      /** The devices of the period, each named once. */
      deviceNames: string[];
      periodChoices: Choice[];
      rows: CalibrationRow[];
      caption: string;
    };

export function calibrationsModel(
  data: CalibrationsData,
  days: number,
  preferences: Preferences,
  viewer: Viewer = PATIENT,
): CalibrationsModel {
  if (data.kind === "none")
    return { kind: "none", emptyText: calibrationsEmptyText(data.generation, wordsFor(viewer)) };
  const rows = calibrationRows(data.calibrations, preferences);
  return {
    kind: "list",
    patientDays: data.patientDays,
    latestDisplayTime: data.latestDisplayTime,
    deviceNames: [...new Set(data.devices.map(deviceTitle))],
    periodChoices: daysChoices(viewPath(viewer, "/calibrations"), days),
    rows,
    caption: `${rows.length} ${rows.length === 1 ? "calibration" : "calibrations"}, newest first`,
  };
}
