import "server-only";
import { and, desc, eq, isNull } from "drizzle-orm";
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
  nowMs = Date.now(),
): Promise<number> {
  const dataEndMs = range.egvs ? parseDateTime(range.egvs.end.systemTime) : null;
  if (dataEndMs === null) return 0;
  const cp = schema.clinicPatients;
  const [linked] = await database
    .select({ id: cp.id })
    .from(cp)
    .where(and(eq(cp.connectionId, connection.id), isNull(cp.withdrawnAt)))
    .limit(1);
  if (!linked) return 0;
  const st = schema.syncedStatistics;
  const [last] = await database
    .select({ fetchedAt: st.fetchedAt })
    .from(st)
    .where(eq(st.connectionId, connection.id));
  if (!statisticsDue(last?.fetchedAt.getTime() ?? null, nowMs, env().SYNC_STATISTICS_HOURS)) return 0;
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
