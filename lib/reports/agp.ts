import "server-only";
import { TARGET_PRESETS, type TargetGroup } from "@/lib/metrics/targets";
import { displayUnit, type Preferences } from "@/lib/preferences";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { type AgpReport, buildAgpReport } from "./agp-model";
import { type PeriodRequest, resolvePeriod } from "./period";
import { dataEndMs, loadReadings } from "./readings";

/** The AGP report's service calls; null when the service holds no EGVs at all. */
export async function loadAgpReport(
  connection: ConnectionRef,
  preferences: Preferences,
  request: PeriodRequest,
  population: TargetGroup,
): Promise<AgpReport | null> {
  const period = resolvePeriod(request, request.kind === "days" ? await dataEndMs(connection) : null);
  if (period === null) return null;
  const { dataUnit, readings } = await loadReadings(connection, period);
  return buildAgpReport({
    period,
    readings,
    dataUnit,
    unit: displayUnit(preferences, dataUnit),
    preset: TARGET_PRESETS[population],
  });
}
