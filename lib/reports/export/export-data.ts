import "server-only";
import { configuredVersion } from "@/lib/service-client/client";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { type ReadSource, readCalibrations, readEgvs, readEvents } from "@/lib/sync/source";
import type { ReportPeriod } from "../period/period";
import type { ExportData } from "./export";

/**
 * The period's records of the three groups, as the app's (v2-shaped) records, read with the
 * configured API version. Periods longer than the service's window are split
 * by the client into chunks that meet a second apart and merged without duplicates (by systemTime
 * for readings and calibrations, by eventId for events), so each record comes once. With the
 * load's `source`, finished days come from those this process keeps.
 */
export async function loadExportData(
  connection: ConnectionRef,
  period: ReportPeriod,
  source?: ReadSource,
): Promise<ExportData> {
  const [egvs, events, calibrations] = await Promise.all([
    readEgvs(connection, period, source),
    readEvents(connection, period, source),
    readCalibrations(connection, period, source),
  ]);
  return {
    apiVersion: configuredVersion(),
    egvs,
    events: events.events,
    calibrations: calibrations.calibrations,
  };
}
