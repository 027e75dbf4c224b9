import "server-only";
import { parseDateTime } from "@/lib/cgm/datetime";
import { toReadings } from "@/lib/cgm/reading";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { windowOf } from "@/lib/cgm/window";
import { consensusStatisticsRequest } from "@/lib/metrics/consensus-statistics-request";
import { hypoglycemiaRiskOfReadings } from "@/lib/metrics/service-statistics";
import { TARGET_PRESETS, type TargetGroup } from "@/lib/metrics/targets";
import { env } from "@/lib/platform/env";
import type { Preferences } from "@/lib/preferences";
import { alertSoundings } from "@/lib/records/alerts";
import { PATIENT, type Viewer, wordsFor } from "@/lib/records/viewer";
import { configuredVersion, getStatistics } from "@/lib/service-client/client";
import { type ConnectionRef, connectionIdOf } from "@/lib/service-client/tokens";
import { readAlerts, readCalibrations, readEgvs, readEvents, readSource } from "@/lib/sync/source";
import { buildOverview, type Overview, overviewWindows, type TraceRange } from "./overview-model";

// The unit each connection's data came in (a connection's unit rarely changes). Bounded so a
// long-running process with many patients does not grow it without limit.
const dataUnitSeen = new Map<string, GlucoseUnit>();
const DATA_UNITS_KEPT = 10_000;
function rememberDataUnit(connectionId: string, unit: GlucoseUnit) {
  if (dataUnitSeen.size >= DATA_UNITS_KEPT) dataUnitSeen.clear();
  dataUnitSeen.set(connectionId, unit);
}

/**
 * The overview's service calls. The window ends at the newest EGV the service holds (dataRange),
 * not at "now": the real service releases readings hours late, and a trace ending in an empty
 * stretch would read as a sensor failure. Null when the service holds no EGVs at all. The
 * dataRange is the service's own, never a synced copy's, and the reads are given it, so the
 * latest reading shown is the service's newest even when a clinic's sync is minutes behind.
 */
export async function loadOverview(
  connection: ConnectionRef,
  preferences: Preferences,
  range: TraceRange,
  targetGroup: TargetGroup = "standard",
  viewer: Viewer = PATIENT,
  nowMs = Date.now(),
): Promise<Overview | null> {
  // The service's dataRange and the sync state, once: every read below goes by them.
  const source = await readSource(connection);
  const newest = source.newest.egvs;
  const dataEndMs = newest ? parseDateTime(newest.end.systemTime) : null;
  if (dataEndMs === null) return null;
  const windows = overviewWindows(range, dataEndMs);
  const summaryWindow = windowOf(windows.summary.startMs, windows.summary.endMs);
  const traceWindow = windowOf(windows.trace.startMs, windows.trace.endMs);
  // API v3 has no statistics (service-v3-notes.md §1.1): the hypoglycemia risk the service
  // computed in v2 is then computed here, with its method, from the same window's readings.
  const byService = configuredVersion() === "v2";
  // The statistics' bounds must be in the data's unit, which only the EGV answer tells; asking in
  // the unit this connection's data had last time lets both run at once, and a wrong guess (the
  // first view of an mmol/L account) is simply asked again.
  const guess = dataUnitSeen.get(connectionIdOf(connection)) ?? "mg/dL";
  const statisticsIn = (unit: GlucoseUnit) =>
    getStatistics(connection, "v2", summaryWindow, consensusStatisticsRequest(unit));
  const [egvs, events, calibrations, guessed, alerts] = await Promise.all([
    readEgvs(connection, summaryWindow, source),
    readEvents(connection, traceWindow, source),
    readCalibrations(connection, traceWindow, source),
    byService ? statisticsIn(guess) : null,
    // Alerts exist in API v3 only (service-v3-notes.md §3.5), and are read from the service.
    byService ? null : readAlerts(connection, traceWindow, source),
  ]);
  rememberDataUnit(connectionIdOf(connection), egvs.unit);
  const statistics = !byService ? null : egvs.unit === guess ? guessed : await statisticsIn(egvs.unit);
  // Read once for the risk and the overview: a 90-day window has 26,000 EGVs.
  const readings = toReadings(egvs.egvs, egvs.unit);
  const dashboardRisk = byService
    ? undefined
    : hypoglycemiaRiskOfReadings(readings, egvs.unit, summaryWindow.startMs, summaryWindow.endMs);
  return buildOverview({
    range,
    preferences,
    dataEndMs,
    nowMs,
    expectedDelayMinutes: env().CGM_DATA_DELAY_MINUTES,
    egvs,
    readings,
    events: events.events,
    calibrations: calibrations.calibrations,
    alerts: alerts ? alertSoundings(alerts.alerts) : undefined,
    statistics,
    statisticsBy: byService ? "service" : "dashboard",
    dashboardRisk,
    preset: TARGET_PRESETS[targetGroup],
    your: wordsFor(viewer).your,
  });
}
