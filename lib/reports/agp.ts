import "server-only";
import { EARLIEST_MS } from "@/lib/cgm/window-bounds";
import { type PopulationId, TARGET_PRESETS } from "@/lib/metrics/targets";
import { displayUnit, type Preferences } from "@/lib/preferences";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { type AgpReport, buildAgpReport } from "./agp-model";
import { type PeriodRequest, previousPeriod, resolvePeriod } from "./period";
import { dataEndMs, loadReadings } from "./readings";

/**
 * The AGP report's service calls; null when the service holds no EGVs at all. The period before
 * (same length) is read too, in parallel, for the GRI grid's second point: one window more per
 * report, within the per-user call budget. It is a side note, so its failure leaves it out rather
 * than failing the report.
 */
export async function loadAgpReport(
  connection: ConnectionRef,
  preferences: Preferences,
  request: PeriodRequest,
  population: PopulationId,
): Promise<AgpReport | null> {
  const period = resolvePeriod(request, request.kind === "days" ? await dataEndMs(connection) : null);
  if (period === null) return null;
  const before = previousPeriod(period);
  const [{ dataUnit, readings }, previous] = await Promise.all([
    loadReadings(connection, period),
    before.startMs < EARLIEST_MS
      ? null
      : loadReadings(connection, before).then(
          (r) => ({ period: before, readings: r.readings }),
          () => null,
        ),
  ]);
  return buildAgpReport({
    period,
    readings,
    dataUnit,
    unit: displayUnit(preferences, dataUnit),
    preset: TARGET_PRESETS[population],
    previous,
  });
}
