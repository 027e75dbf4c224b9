import "server-only";
import { and, between, desc, eq, sql } from "drizzle-orm";
import { MS_PER_DAY, parseDateTime } from "@/lib/cgm/datetime";
import { type Db, schema } from "@/lib/db";
import { PERIOD_DAYS, type PeriodEpisodes, periodEpisodes, periodOf } from "./period-episodes";

/**
 * The population view's level 2 hypoglycaemia episodes (synced_episodes), counted by the sync once
 * it has stored a connection's data: over the view's period (period-episodes.ts `periodOf`, the
 * patient's today from the newest day of synced_egv_days, as lib/clinic/views/population.ts finds it),
 * from the synced EGVs of those days. Clinic patients only, like the service's statistics: nobody
 * else has a population view. Counted again when this sync wrote EGVs, when the period has moved
 * on (a new day on the patient's clock) or when the stored count is of another number of readings
 * than the period's daily sums hold; otherwise left as it is, so a sync that brings nothing reads
 * no readings.
 */

const egv = schema.syncedEgvs;
const days = schema.syncedEgvDays;
const stored = schema.syncedEpisodes;

/**
 * Around the period's days in systemTime, from the patient's clock offset now: two days either
 * side hold any time zone and daylight-saving change. A clock set wrong by more is caught by the
 * count of readings (they would be missing) and read without the bound.
 */
const MARGIN_MS = 2 * MS_PER_DAY;

export async function refreshPeriodEpisodes(
  database: Db,
  connectionId: string,
  /** Whether a clinic shares the patient (read with the sync's claim), and whether this sync wrote EGVs. */
  known: { clinicPatient: boolean; egvsWritten: boolean },
  nowMs = Date.now(),
): Promise<PeriodEpisodes | null> {
  if (!known.clinicPatient) return null;
  const [newest] = await database
    .select({ lastSystemTime: days.lastSystemTime, lastDisplayTime: days.lastDisplayTime })
    .from(days)
    .where(eq(days.connectionId, connectionId))
    .orderBy(desc(days.day))
    .limit(1);
  const newestDisplayMs = newest ? parseDateTime(newest.lastDisplayTime) : null;
  if (!newest || newestDisplayMs === null) {
    // No readings: the view shows none, and a count of earlier readings would be of nothing now.
    await database.delete(stored).where(eq(stored.connectionId, connectionId));
    return null;
  }
  const offsetMs = newestDisplayMs - newest.lastSystemTime.getTime();
  const period = periodOf(nowMs, offsetMs);
  // A reading's day as the daily sums take it (lib/sync/daily-store.ts).
  const inPeriod = sql`left(${egv.displayTime}, 10) between ${period.firstDay} and ${period.lastDay}`;
  const [sums] = await database
    .select({ n: sql<number>`coalesce(sum(${days.n}), 0)::int` })
    .from(days)
    .where(and(eq(days.connectionId, connectionId), between(days.day, period.firstDay, period.lastDay)));
  const n = Number(sums?.n ?? 0);
  if (!known.egvsWritten) {
    const [last] = await database.select().from(stored).where(eq(stored.connectionId, connectionId));
    if (last?.firstDay === period.firstDay && last.lastDay === period.lastDay && last.nValues === n) {
      return null;
    }
  }
  const read = (bounded: boolean) =>
    database
      .select({ displayTime: egv.displayTime, metricMgdl: egv.metricMgdl })
      .from(egv)
      .where(
        and(
          eq(egv.connectionId, connectionId),
          bounded
            ? between(
                egv.systemTime,
                new Date(period.sensorWindow.startMs - offsetMs - MARGIN_MS),
                new Date(period.sensorWindow.startMs + PERIOD_DAYS * MS_PER_DAY - offsetMs + MARGIN_MS),
              )
            : undefined,
          inPeriod,
        ),
      )
      // The order the summary API reads them in (lib/reports/period/readings.ts): readings of one
      // displayTime keep the last, as iglu does.
      .orderBy(egv.systemTime);
  let rows = await read(true);
  if (rows.length !== n) rows = await read(false);
  const episodes = periodEpisodes(rows, period);
  const values = { ...episodes, computedAt: new Date(nowMs) };
  await database
    .insert(stored)
    .values({ connectionId, ...values })
    .onConflictDoUpdate({ target: stored.connectionId, set: values });
  return episodes;
}
