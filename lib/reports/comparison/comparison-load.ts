import "server-only";
import { TARGET_PRESETS, type TargetGroup, timeInBands } from "@/lib/metrics/targets";
import { displayUnit, type Preferences } from "@/lib/preferences";
import { WindowRefused } from "@/lib/service-client/client";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { type ReadSource, readSource } from "@/lib/sync/source";
import { judgeBands } from "@/lib/trace/goal-text";
import { newestRecord, previousPatientDays } from "../period/patient-days";
import { type PeriodRequest, previousPeriod, type ReportPeriod } from "../period/period";
import { patientClock } from "../period/period-load";
import { loadReadings, type Reading } from "../period/readings";
import { attributionSentence, compareReadings } from "./comparison";
import type { ComparisonReport } from "./comparison-report";
import { earlierPeriodProblem } from "./comparison-view";

export type { ComparisonReport };

/**
 * The two periods a request means: the recent one, and as long just before it (the days before,
 * on the receiver's clock, for days; for a systemTime window the same length before it).
 * Null when the request counts days back from the data's end and there is no data.
 */
async function comparisonPeriods(
  connection: ConnectionRef,
  request: PeriodRequest,
  source: ReadSource,
): Promise<{ earlier: ReportPeriod; recent: ReportPeriod } | null> {
  if (request.kind === "dates") return { earlier: previousPeriod(request.period), recent: request.period };
  const clock = patientClock(connection, newestRecord(source.newest), source);
  const days = clock.days(request);
  if (!days) return null;
  const [earlier, recent] = await Promise.all([clock.period(previousPatientDays(days)), clock.period(days)]);
  return { earlier, recent };
}

/** Null when the request needs the end of the data and the service holds no readings at all. */
export async function loadComparison(
  connection: ConnectionRef,
  preferences: Preferences,
  request: PeriodRequest,
  targetGroup: TargetGroup = "standard",
): Promise<ComparisonReport | null> {
  const source = await readSource(connection);
  const periods = await comparisonPeriods(connection, request, source);
  if (!periods) return null;
  // Explicit dates were checked when read; the last days of data are known only now.
  const problem = earlierPeriodProblem(periods.recent);
  if (problem) throw new WindowRefused(`This comparison cannot be made: ${problem}.`);
  // Each period is read on its own, exactly as the summary API reads it, so the numbers agree
  // (finished days held by this process are the service's own, which no longer change).
  const [earlier, recent] = await Promise.all([
    loadReadings(connection, periods.earlier, source),
    loadReadings(connection, periods.recent, source),
  ]);
  const comparison = compareReadings(periods.earlier, earlier.readings, periods.recent, recent.readings);
  const unit = displayUnit(preferences, recent.dataUnit);
  const preset = TARGET_PRESETS[targetGroup];
  // Each period's goals judged as the dashboard judges them (judgeBands on the shares of the
  // group's bands, as lib/dashboard/judged-ranges.ts does); null for a period without readings.
  const judge = (readings: readonly Reading[], cv: number | null) => {
    const shares = timeInBands(
      readings.map((r) => r.mgdl),
      preset.edges,
    );
    // One decimal, as the metrics table beside it shows the same shares.
    return shares === null ? null : judgeBands(preset, shares, cv, unit, 1).goals;
  };
  return {
    unit,
    dataUnit: recent.dataUnit,
    targetGroup,
    ...comparison,
    attribution: comparison.attribution.map((a) => ({ ...a, sentence: attributionSentence(a, unit) })),
    goals: {
      group: preset.id,
      groupLabel: preset.label,
      earlier: judge(earlier.readings, comparison.earlier.cv),
      recent: judge(recent.readings, comparison.recent.cv),
    },
  };
}
