import "server-only";
import { type ReportMetrics, reportMetrics } from "@/lib/metrics/report";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import type { ReportPeriod } from "./period";
import { loadReadings } from "./readings";

/** The summary API's answer: the period as asked, then the metrics of lib/metrics/report.ts. */
export type ReportSummary = { startDate: string; endDate: string } & ReportMetrics;

export function summaryOf(period: ReportPeriod, valuesMgdl: readonly number[]): ReportSummary {
  return {
    startDate: period.startDate,
    endDate: period.endDate,
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
