import "server-only";
import type { StatisticsV1Request, StatisticsV2Request } from "@/lib/cgm/schemas";
import { computeStatisticsV1, computeStatisticsV2, type ServedEgv } from "@/lib/metrics/service-statistics";
import { configuredVersion, getStatistics } from "@/lib/service-client/client";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { mapWithConcurrency } from "@/lib/service-client/windows";
import { type ReadSource, readCalibrations, readSource } from "@/lib/sync/source";
import { newestRecord } from "../period/patient-days";
import type { PeriodRequest, ReportPeriod } from "../period/period";
import { patientClock, resolveReportPeriod } from "../period/period-load";
import { loadReadings, type Reading } from "../period/readings";

export type { LoadedStatisticsByWindow, StatisticsPage } from "./model";

import {
  assembleResults,
  type LoadedStatisticsByWindow,
  planStatistics,
  type StatisticsPage,
  type StatisticsRequestOf,
  type StatisticsResponseOf,
  type StatisticsVersion,
} from "./model";
import { requestFromWindows, type StatisticsWindow } from "./windows";

/** Requests to the service at once: the page asks 1 + 2 per window, each over the whole period. */
const CONCURRENCY = 3;

/**
 * The period's statistics by window (lib/reports/statistics-by-window/model.ts says what is asked and
 * why). The readings come first: they tell the data's unit, which the service compares the bounds
 * in, and they are what the dashboard's per-window summaries are computed from.
 */
export async function loadStatisticsByWindow<V extends StatisticsVersion>(
  connection: ConnectionRef,
  windows: readonly StatisticsWindow[],
  period: ReportPeriod,
  version: V,
  source?: ReadSource,
): Promise<LoadedStatisticsByWindow<V>> {
  const byService = configuredVersion() === "v2";
  const [{ dataUnit, readings }, calibrationCount] = await Promise.all([
    loadReadings(connection, period, source),
    byService ? 0 : readCalibrations(connection, period).then((c) => c.calibrations.length),
  ]);
  // Computed here, the values are the readings' metric values, in mg/dL: so are the bounds then.
  const statisticsUnit = byService ? dataUnit : "mg/dL";
  const body = requestFromWindows(windows, statisticsUnit);
  const plan = planStatistics(version, body);
  const requests = [plan.together, ...plan.perWindow.flat()];
  const answers = (
    byService
      ? await mapWithConcurrency(requests, CONCURRENCY, (r) => getStatistics(connection, version, period, r))
      : requests.map((r) => computedStatistics(version, r, readings, calibrationCount, period))
  ) as Array<StatisticsResponseOf<V>>;
  const [together, ...rest] = answers;
  const perWindow: Array<Array<StatisticsResponseOf<V>>> = [];
  let next = 0;
  for (const rs of plan.perWindow) {
    perWindow.push(rest.slice(next, next + rs.length));
    next += rs.length;
  }
  return {
    dataUnit: statisticsUnit,
    latestDisplayTime: readings.at(-1)?.displayTime ?? null,
    results: assembleResults(
      version,
      body,
      { together: together!, perWindow },
      readings,
      period.endMs - period.startMs,
      byService ? "service" : "dashboard",
    ),
  };
}

/**
 * What the service's statistics would answer `request` over the period (API v3 has none: notes
 * §1.1), by its own method, from the period's readings: their metric values, in mg/dL as the
 * request's bounds are (with v3, whose values are mg/dL, the value served, 39 and 401 included).
 */
function computedStatistics(
  version: "v1" | "v2",
  request: StatisticsRequestOf<"v1"> | StatisticsRequestOf<"v2">,
  readings: readonly Reading[],
  calibrationCount: number,
  period: ReportPeriod,
) {
  const egvs: ServedEgv[] = readings.map((r) => ({ systemMs: r.t, displayMs: r.displayMs, value: r.mgdl }));
  const input = {
    egvs,
    calibrationCount,
    unit: "mg/dL" as const,
    windowStartMs: period.startMs,
    windowEndMs: period.endMs,
  };
  return version === "v1"
    ? computeStatisticsV1({ ...input, request: request as StatisticsV1Request })
    : computeStatisticsV2({ ...input, request: request as StatisticsV2Request });
}

/**
 * The statistics page's data: the period asked (days up to the newest reading on the receiver's
 * clock, or systemTime dates) and the statistics of `windows` over it; null when the service holds
 * no readings.
 */
export async function loadStatisticsPage(
  connection: ConnectionRef,
  windows: readonly StatisticsWindow[],
  asked: PeriodRequest,
  version: StatisticsVersion,
): Promise<StatisticsPage | null> {
  const source = await readSource(connection);
  const period =
    asked.kind === "dates"
      ? asked.period
      : await resolveReportPeriod(patientClock(connection, newestRecord(source.newest), source), asked);
  if (!period) return null;
  return { period, ...(await loadStatisticsByWindow(connection, windows, period, version, source)) };
}
