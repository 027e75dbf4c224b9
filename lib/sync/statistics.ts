import "server-only";
import { desc, eq } from "drizzle-orm";
import { formatDateTime, parseDateTime } from "@/lib/cgm/datetime";
import type { DataRangeResponse } from "@/lib/cgm/schemas";
import { consensusStatisticsRequest } from "@/lib/dashboard/overview-model";
import { type Db, schema } from "@/lib/db";
import { env } from "@/lib/env";
import { getStatistics } from "@/lib/service-client/client";
import type { ConnectionRow } from "@/lib/service-client/tokens";
import { statisticsDue, statisticsWindow } from "./statistics-plan";

/**
 * The sync's fetch of the service's v2 statistics for clinic patients (synced_statistics): only
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
  const window = statisticsWindow(dataEndMs);
  const statistics = await getStatistics(
    connection,
    "v2",
    { startDate: formatDateTime(window.startMs), endDate: formatDateTime(window.endMs) },
    consensusStatisticsRequest(newest?.unit ?? "mg/dL"),
  );
  const values = {
    windowStart: new Date(window.startMs),
    windowEnd: new Date(window.endMs),
    hypoglycemiaRisk: statistics.hypoglycemiaRisk,
    fetchedAt: new Date(nowMs),
  };
  await database
    .insert(st)
    .values({ connectionId: connection.id, ...values })
    .onConflictDoUpdate({ target: st.connectionId, set: values });
  return 1;
}
