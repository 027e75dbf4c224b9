import "server-only";
import { EARLIEST_MS } from "@/lib/cgm/window-bounds";
import { TARGET_PRESETS, type TargetGroup } from "@/lib/metrics/targets";
import { displayUnit, type Preferences } from "@/lib/preferences";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { readSource } from "@/lib/sync/source";
import { newestRecord, previousPatientDays } from "../period/patient-days";
import { type PeriodRequest, previousPeriod } from "../period/period";
import { patientClock, resolveReportPeriod } from "../period/period-load";
import { loadReadings } from "../period/readings";
import { type AgpReport, buildAgpReport } from "./agp-model";

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
  population: TargetGroup,
): Promise<AgpReport | null> {
  // One source for the load: the period's finished days, and those of the period before, are
  // read from what this process holds (a report viewed again reads only the newest day).
  const source = await readSource(connection);
  const clock =
    request.kind === "dates" ? null : patientClock(connection, newestRecord(source.newest), source);
  const period = clock
    ? await resolveReportPeriod(clock, request)
    : request.kind === "dates"
      ? request.period
      : null;
  if (period === null) return null;
  // The days before, on the receiver's clock, as the comparison takes them; a systemTime window
  // the same length before it otherwise.
  const before =
    clock && period.patientDays
      ? await clock.period(previousPatientDays(period.patientDays))
      : previousPeriod(period);
  const [{ dataUnit, readings }, previous] = await Promise.all([
    loadReadings(connection, period, source),
    before.startMs < EARLIEST_MS
      ? null
      : loadReadings(connection, before, source).then(
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
