import "server-only";
import type { Viewer } from "@/lib/records/viewer";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { readAlerts, readSource } from "@/lib/sync/source";
import { type AlertsModel, alertsModel } from "./alerts-model";
import { lastDaysOfGroup } from "./period-load";

/**
 * The alerts page's service calls (API v3 only): the alerts of the chosen days, ending on the day
 * of the newest reading (alerts follow the readings; the service gives alerts no data range).
 * Null when the service holds no readings.
 */
export async function loadAlerts(
  connection: ConnectionRef,
  days: number,
  viewer?: Viewer,
): Promise<AlertsModel | null> {
  const source = await readSource(connection);
  const range = source.newest;
  const period = await lastDaysOfGroup(connection, source, "egvs", days);
  if (!range.egvs || !period?.patientDays) return null;
  const { alerts } = await readAlerts(connection, period, source);
  return alertsModel(
    {
      alerts,
      period,
      patientDays: period.patientDays,
      latestDisplayTime: range.egvs.end.displayTime,
    },
    days,
    viewer,
  );
}
