import type { CgmAlert } from "@/lib/cgm/app-records";
import { type AlertSounding, alertSoundings, soundingCounts } from "@/lib/records/alerts";
import type { Choice } from "@/lib/records/query";
import { PATIENT, type Viewer, viewPath } from "@/lib/records/viewer";
import type { PatientDays } from "@/lib/reports/period/patient-days";
import type { ReportPeriod } from "@/lib/reports/period/period";
import { daysChoices } from "@/lib/reports/period/period-choices";

/**
 * The alerts page's model (API v3 only): each time an alert started sounding in the chosen days,
 * newest first, with how many times each alert sounded.
 */

export const ALERTS_PATH = "/dashboard/alerts";

/** What the loader read: the period (on systemTime and as days), its alerts, the newest reading's receiver time. */
export interface AlertsData {
  alerts: readonly CgmAlert[];
  /** The period read, on systemTime as the service's query values. */
  period: Pick<ReportPeriod, "startDate" | "endDate">;
  patientDays: PatientDays;
  latestDisplayTime: string;
}

export interface AlertsModel {
  patientDays: PatientDays;
  /** The period's systemTime bounds, "start_end", for the page to carry. */
  window: string;
  latestDisplayTime: string;
  periodChoices: Choice[];
  soundings: AlertSounding[];
  /** How many times each alert sounded, urgent first. */
  counts: { label: string; count: number }[];
  caption: string;
}

export function alertsModel(data: AlertsData, days: number, viewer: Viewer = PATIENT): AlertsModel {
  const soundings = alertSoundings(data.alerts);
  return {
    patientDays: data.patientDays,
    window: `${data.period.startDate}_${data.period.endDate}`,
    latestDisplayTime: data.latestDisplayTime,
    periodChoices: daysChoices(viewPath(viewer, "/alerts"), days),
    soundings,
    counts: soundingCounts(soundings),
    caption: `${soundings.length} alert${soundings.length === 1 ? "" : "s"} sounded, newest first`,
  };
}
