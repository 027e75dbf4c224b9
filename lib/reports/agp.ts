import "server-only";
import { TARGET_PRESETS, type TargetGroup } from "@/lib/metrics/targets";
import { displayUnit, type Preferences } from "@/lib/preferences";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { readDataRange } from "@/lib/sync/source";
import { type AgpReport, buildAgpReport } from "./agp-model";
import { newestRecord } from "./patient-days";
import type { PeriodRequest } from "./period";
import { patientClock, resolveReportPeriod } from "./period-load";
import { loadReadings } from "./readings";

/** The AGP report's service calls; null when the service holds no EGVs at all. */
export async function loadAgpReport(
  connection: ConnectionRef,
  preferences: Preferences,
  request: PeriodRequest,
  population: TargetGroup,
): Promise<AgpReport | null> {
  const period =
    request.kind === "dates"
      ? request.period
      : await resolveReportPeriod(
          patientClock(connection, newestRecord(await readDataRange(connection))),
          request,
        );
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
