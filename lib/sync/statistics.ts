import "server-only";
import { desc, eq } from "drizzle-orm";
import { parseDateTime } from "@/lib/cgm/datetime";
import type { DataRangeResponse, HypoglycemiaRisk } from "@/lib/cgm/schemas";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { type Window, windowOf } from "@/lib/cgm/window";
import { type Db, schema } from "@/lib/db";
import { consensusStatisticsRequest } from "@/lib/metrics/consensus-statistics-request";
import { hypoglycemiaRiskOf, servedEgvsOf } from "@/lib/metrics/service-statistics";
import { env } from "@/lib/platform/env";
import { configuredVersion, getEgvs, getStatistics } from "@/lib/service-client/client";
import type { ConnectionRow } from "@/lib/service-client/tokens";
import { statisticsDue, statisticsWindow } from "./statistics-plan";

/**
 * The sync's fetch of the service's v2 statistics for clinic patients (synced_statistics; with API
 * v3, the risk computed by the service's method instead, `riskOf`): only
 * for connections linked to a clinic (no one else looks at the population view), at most every
 * SYNC_STATISTICS_HOURS (statistics-plan.ts), after the pass has stored the data. Returns the
 * service calls made (0 or 1), which the pass counts with its own.
 */
export async function refreshServiceStatistics(
  database: Db,
  connection: ConnectionRow,
  range: DataRangeResponse,
  /** Read with the sync's claim (lib/sync/store.ts): whether a clinic shares the patient, and when the statistics were last fetched. */
  known: { clinicPatient: boolean; lastFetchedMs: number | null },
  nowMs = Date.now(),
): Promise<number> {
  const dataEndMs = range.egvs ? parseDateTime(range.egvs.end.systemTime) : null;
  if (dataEndMs === null || !known.clinicPatient) return 0;
  if (!statisticsDue(known.lastFetchedMs, nowMs, env().SYNC_STATISTICS_HOURS)) return 0;
  const st = schema.syncedStatistics;
  // The bounds must be in the data's unit (the statistics body's rule); the newest stored EGV says it.
  const [newest] = await database
    .select({ unit: schema.syncedEgvs.unit })
    .from(schema.syncedEgvs)
    .where(eq(schema.syncedEgvs.connectionId, connection.id))
    .orderBy(desc(schema.syncedEgvs.systemTime))
    .limit(1);
  const { startMs, endMs } = statisticsWindow(dataEndMs);
  const window = windowOf(startMs, endMs);
  const values = {
    windowStart: new Date(window.startMs),
    windowEnd: new Date(window.endMs),
    hypoglycemiaRisk: await riskOf(connection, window, newest?.unit ?? "mg/dL"),
    fetchedAt: new Date(nowMs),
  };
  await database
    .insert(st)
    .values({ connectionId: connection.id, ...values })
    .onConflictDoUpdate({ target: st.connectionId, set: values });
  return 1;
}

/**
 * The window's hypoglycemia risk: the service's (API v2: one statistics call), or, with API v3,
 * which has no statistics (service-v3-notes.md §1.1), computed by its method from the window's EGVs
 * read from the service (one call as well: 14 days is one chunk).
 */
async function riskOf(
  connection: ConnectionRow,
  window: Window,
  unit: GlucoseUnit,
): Promise<HypoglycemiaRisk | null> {
  if (configuredVersion() === "v2")
    return (await getStatistics(connection, "v2", window, consensusStatisticsRequest(unit))).hypoglycemiaRisk;
  const egvs = await getEgvs(connection, "v3", window);
  return hypoglycemiaRiskOf(servedEgvsOf(egvs.egvs), egvs.unit, window.startMs, window.endMs);
}
