import "server-only";
import type { TargetGroup } from "@/lib/metrics/targets";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { readSource } from "@/lib/sync/source";
import type { ReportPeriod } from "../period/period";
import { loadReadings } from "../period/readings";
import { type ReportSummary, summaryOf } from "./summary-model";

export type { PeriodSummary, ReportSummary, SummaryGoal } from "./summary-model";
export { summaryOf } from "./summary-model";

export async function loadSummary(
  connection: ConnectionRef,
  period: ReportPeriod,
  targetGroup: TargetGroup,
): Promise<ReportSummary> {
  // Through the load's source: the period's finished days come from those this process keeps.
  const { readings } = await loadReadings(connection, period, await readSource(connection));
  return summaryOf(period, readings, targetGroup);
}
