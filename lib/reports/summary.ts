import "server-only";
import { type ReportMetrics, reportMetrics } from "@/lib/metrics/report";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import type { PatientDays } from "./patient-days";
import type { ReportPeriod } from "./period";
import { loadReadings } from "./readings";

/**
 * The summary API's answer: the period as asked (with its days on the receiver's clock when it
 * was chosen as days), then the metrics of lib/metrics/report.ts.
 */
export type ReportSummary = { startDate: string; endDate: string; patientDays?: PatientDays } & ReportMetrics;

export function summaryOf(period: ReportPeriod, valuesMgdl: readonly number[]): ReportSummary {
  return {
    startDate: period.startDate,
    endDate: period.endDate,
    ...(period.patientDays && { patientDays: period.patientDays }),
    ...reportMetrics(valuesMgdl, period.startMs, period.endMs),
  };
}

export async function loadSummary(connection: ConnectionRef, period: ReportPeriod): Promise<ReportSummary> {
  const { readings } = await loadReadings(connection, period);
  return summaryOf(
    period,
    readings.map((r) => r.mgdl),
  );
}
