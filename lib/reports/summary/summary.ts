import "server-only";
import type { TargetGroup } from "@/lib/metrics/targets";
import type { ConnectionRef } from "@/lib/service-client/tokens";
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
  const { readings } = await loadReadings(connection, period);
  return summaryOf(period, readings, targetGroup);
}
