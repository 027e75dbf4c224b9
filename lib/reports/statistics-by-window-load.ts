import "server-only";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { getStatistics } from "@/lib/service-client/client";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { mapWithConcurrency } from "@/lib/service-client/windows";
import type { ReportPeriod } from "./period";
import { loadReadings } from "./readings";
import {
  assembleResults,
  planStatistics,
  type StatisticsByWindow,
  type StatisticsResponseOf,
  type StatisticsVersion,
} from "./statistics-by-window";
import { requestFromWindows, type StatisticsWindow } from "./statistics-windows";

/** Requests to the service at once: the page asks 1 + 2 per window, each over the whole period. */
const CONCURRENCY = 3;

export interface LoadedStatisticsByWindow<V extends StatisticsVersion> {
  dataUnit: GlucoseUnit;
  /** The newest reading's displayTime in the period (null: none). */
  latestDisplayTime: string | null;
  results: StatisticsByWindow<V>;
}

/**
 * The period's statistics by window (lib/reports/statistics-by-window.ts says what is asked and
 * why). The readings come first: they tell the data's unit, which the service compares the bounds
 * in, and they are what the dashboard's per-window summaries are computed from.
 */
export async function loadStatisticsByWindow<V extends StatisticsVersion>(
  connection: ConnectionRef,
  windows: readonly StatisticsWindow[],
  period: ReportPeriod,
  version: V,
): Promise<LoadedStatisticsByWindow<V>> {
  const { dataUnit, readings } = await loadReadings(connection, period);
  const body = requestFromWindows(windows, dataUnit);
  const plan = planStatistics(version, body);
  const requests = [plan.together, ...plan.perWindow.flat()];
  const answers = (await mapWithConcurrency(requests, CONCURRENCY, (r) =>
    getStatistics(connection, version, period, r),
  )) as Array<StatisticsResponseOf<V>>;
  const [together, ...rest] = answers;
  const perWindow: Array<Array<StatisticsResponseOf<V>>> = [];
  let next = 0;
  for (const rs of plan.perWindow) {
    perWindow.push(rest.slice(next, next + rs.length));
    next += rs.length;
  }
  return {
    dataUnit,
    latestDisplayTime: readings.at(-1)?.displayTime ?? null,
    results: assembleResults(
      version,
      body,
      { together: together!, perWindow },
      readings,
      period.endMs - period.startMs,
    ),
  };
}
