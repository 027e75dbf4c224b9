import "server-only";
import { type SQL, sql } from "drizzle-orm";
import { type Db, schema } from "@/lib/db";
import { PREGNANCY_RANGE_MGDL, TIGHT_RANGE_MAX_MGDL, TIGHT_RANGE_MIN_MGDL } from "@/lib/metrics/constants";
import { dayOf, type EgvForRollup, systemWindowOf } from "./daily";

/**
 * Keeps synced_egv_days in step with synced_egvs. Called by storeGroup inside the transaction
 * that writes the EGVs, so a reader sees both or neither. The days a write touches are recounted
 * from the table (not from the written rows alone: a day holds readings of earlier passes too),
 * in one statement: each stored reading carries its metric value and consensus range, derived in
 * TypeScript when written (lib/sync/rows.ts), so the database only counts and sums them, and no
 * reading travels back to the application. `dayRollups` (lib/sync/daily.ts) is the same rollup
 * over rows in memory; the tests hold the two equal.
 */

type Tx = Pick<Db, "execute">;

const egv = schema.syncedEgvs;
const days = schema.syncedEgvDays;
const col = (c: { name: string }) => sql.identifier(c.name);

/** Recounts and upserts the days of the connection's stored EGVs that `where` selects. */
function recountDays(connectionId: string, where: SQL): SQL {
  const range = (r: string) => sql`count(*) filter (where ${col(egv.consensusRange)} = ${r})::int`;
  const metric = col(egv.metricMgdl);
  // The pregnancy edges compared in the database as isBelow63/isAbove140 (daily.ts) do in memory.
  const below63 = sql`count(*) filter (where ${metric} < ${PREGNANCY_RANGE_MGDL.low})::int`;
  const above140 = sql`count(*) filter (where ${metric} > ${PREGNANCY_RANGE_MGDL.high})::int`;
  const excluded = (c: { name: string }) => sql`${col(c)} = excluded.${col(c)}`;
  // The day's newest reading's displayTime, looked up by its key (systemTime is unique per
  // connection): half the statement's time went to sorting every day's readings for it
  // (array_agg … order by system_time desc).
  const newestDisplayTime = sql`(select newest.${col(egv.displayTime)} from ${egv} as newest
    where newest.${col(egv.connectionId)} = ${connectionId}
      and newest.${col(egv.systemTime)} = max(${egv}.${col(egv.systemTime)}))`;
  return sql`
    insert into ${days} (${col(days.connectionId)}, ${col(days.day)}, ${col(days.n)}, ${col(days.veryLow)},
      ${col(days.low)}, ${col(days.inRange)}, ${col(days.high)}, ${col(days.veryHigh)},
      ${col(days.below63)}, ${col(days.above140)}, ${col(days.tightRange)}, ${col(days.sum)},
      ${col(days.sumOfSquares)}, ${col(days.lastSystemTime)}, ${col(days.lastDisplayTime)})
    select ${connectionId}, left(${col(egv.displayTime)}, 10)::date, count(*)::int,
      ${range("veryLow")}, ${range("low")}, ${range("inRange")}, ${range("high")}, ${range("veryHigh")},
      ${below63}, ${above140},
      count(*) filter (where ${metric} >= ${TIGHT_RANGE_MIN_MGDL} and ${metric} <= ${TIGHT_RANGE_MAX_MGDL})::int,
      sum(${metric}), sum(${metric} * ${metric}), max(${col(egv.systemTime)}), ${newestDisplayTime}
    from ${egv}
    where ${col(egv.connectionId)} = ${connectionId} and ${where}
    group by left(${col(egv.displayTime)}, 10)
    on conflict (${col(days.connectionId)}, ${col(days.day)}) do update set
      ${sql.join(
        [
          days.n,
          days.veryLow,
          days.low,
          days.inRange,
          days.high,
          days.veryHigh,
          days.below63,
          days.above140,
          days.tightRange,
          days.sum,
          days.sumOfSquares,
          days.lastSystemTime,
          days.lastDisplayTime,
        ].map(excluded),
        sql`, `,
      )}, ${col(days.updatedAt)} = now()`;
}

/** Recounts every day of a connection from its synced EGVs. */
export async function rebuildEgvDays(
  tx: Pick<Db, "execute" | "delete">,
  connectionId: string,
): Promise<void> {
  await tx.delete(days).where(sql`${col(days.connectionId)} = ${connectionId}`);
  await tx.execute(recountDays(connectionId, sql`true`));
}

/** Recounts the days of `written` (EGVs just upserted for the connection). */
export async function refreshEgvDays(
  tx: Tx,
  connectionId: string,
  written: readonly EgvForRollup[],
): Promise<void> {
  const window = systemWindowOf(written);
  if (!window) return;
  const touched = [...new Set(written.map((r) => dayOf(r.displayTime)))];
  // The primary key's range bounds the scan; the days filter keeps the neighbours' days out.
  await tx.execute(
    recountDays(
      connectionId,
      sql`${col(egv.systemTime)} between ${window.from.toISOString()}::timestamptz and ${window.to.toISOString()}::timestamptz
        and left(${col(egv.displayTime)}, 10) in (${sql.join(
          touched.map((d) => sql`${d}`),
          sql`, `,
        )})`,
    ),
  );
}
