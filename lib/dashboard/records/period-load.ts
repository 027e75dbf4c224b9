import "server-only";
import type { DataRangeResponse } from "@/lib/cgm/schemas";
import { newestOf } from "@/lib/reports/period/patient-days";
import type { ReportPeriod } from "@/lib/reports/period/period";
import { patientClock, resolveReportPeriod } from "@/lib/reports/period/period-load";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import type { ReadSource } from "@/lib/sync/source";

/**
 * The last `days` receiver days of a record page, ending on the day of the group's newest record
 * (the service publishes late, and events come when they are logged: counting back from today
 * could show an empty page). Null when the service holds none of the group. The clock's probes
 * read through the page's source, so a page viewed again takes its finished days from those kept.
 */
export async function lastDaysOfGroup(
  connection: ConnectionRef,
  source: ReadSource,
  group: keyof DataRangeResponse,
  days: number,
): Promise<ReportPeriod | null> {
  return resolveReportPeriod(patientClock(connection, newestOf(source.newest, group), source), {
    kind: "days",
    days,
  });
}
