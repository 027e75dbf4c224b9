import { MS_PER_DAY } from "@/lib/cgm/datetime";
import { dayCount, type PatientDays } from "./patient-days";
import type { ReportPeriod } from "./period";

/**
 * The days a report's period names, and on which clock, decided once for the AGP's label, the
 * comparison's lengths, the identity lines and the file names. A period chosen as days ("the last
 * 14 days", days picked) names the receiver's days; a window asked as startDate/endDate is on
 * systemTime, so without readings to read the receiver's clock from, its days are UTC days and are
 * named so (an explicit window is the service's own query, and the summary API answers it as such).
 */

/** "receiver": the patient's receiver clock (displayTime); "utc": the service's systemTime. */
export type DaysClock = "receiver" | "utc";

export interface NamedPeriodDays {
  /** yyyy-mm-dd on `clock`; null: a window on systemTime whose days are not known (none given). */
  firstDay: string | null;
  lastDay: string | null;
  days: number;
  clock: DaysClock;
}

/** Whole days a systemTime window spans, at least 1 (a window ending 23:59:59 counts its last day). */
export const windowDayCount = (startMs: number, endMs: number): number =>
  Math.max(1, Math.round((endMs - startMs) / MS_PER_DAY));

/** How many days a period is long: its receiver days when chosen as days, else its window's length. */
export const periodDayCount = (period: Pick<ReportPeriod, "startMs" | "endMs" | "patientDays">): number =>
  period.patientDays ? dayCount(period.patientDays) : windowDayCount(period.startMs, period.endMs);

/**
 * The days a period names: the receiver days it was chosen as; else `receiverDays` (the days its
 * ends fall on by the readings' own clock, where the caller read them); else the UTC days of its
 * startDate and endDate, named as UTC.
 */
export function namedPeriodDays(
  period: Pick<ReportPeriod, "startMs" | "endMs" | "startDate" | "endDate" | "patientDays">,
  receiverDays?: PatientDays | null,
): NamedPeriodDays {
  const days = period.patientDays ?? receiverDays;
  if (days) return { ...days, days: dayCount(days), clock: "receiver" };
  return {
    firstDay: period.startDate.slice(0, 10),
    lastDay: period.endDate.slice(0, 10),
    days: windowDayCount(period.startMs, period.endMs),
    clock: "utc",
  };
}
