import "server-only";
import { and, asc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import { type Db, schema } from "@/lib/db";
import { type DayRollup, dayOf, dayRollups, type EgvForRollup, systemWindowOf } from "./daily";

/**
 * Keeps synced_egv_days in step with synced_egvs. Called by storeGroup inside the transaction
 * that writes the EGVs, so a reader sees both or neither. The days a write touches are recounted
 * from the table (not from the written rows alone: a day holds readings of earlier passes too). A
 * connection with EGVs but no day rows yet (synced before the rollup existed) is recounted whole,
 * once, the first time it is written to.
 */

type Tx = Pick<Db, "select" | "insert" | "delete">;

const egv = schema.syncedEgvs;
const days = schema.syncedEgvDays;
const rollupColumns = {
  systemTime: egv.systemTime,
  displayTime: egv.displayTime,
  value: egv.value,
  unit: egv.unit,
  status: egv.status,
};

async function writeDays(tx: Tx, connectionId: string, rollups: DayRollup[]): Promise<void> {
  const BATCH = 1_000;
  for (let i = 0; i < rollups.length; i += BATCH) {
    await tx
      .insert(days)
      .values(rollups.slice(i, i + BATCH).map((d) => ({ connectionId, ...d })))
      .onConflictDoUpdate({
        target: [days.connectionId, days.day],
        set: {
          n: sql`excluded.n`,
          veryLow: sql`excluded.very_low`,
          low: sql`excluded.low`,
          inRange: sql`excluded.in_range`,
          high: sql`excluded.high`,
          veryHigh: sql`excluded.very_high`,
          sum: sql`excluded.sum`,
          sumOfSquares: sql`excluded.sum_of_squares`,
          lastSystemTime: sql`excluded.last_system_time`,
          lastDisplayTime: sql`excluded.last_display_time`,
          updatedAt: sql`now()`,
        },
      });
  }
}

/** Recounts every day of a connection from its synced EGVs. */
export async function rebuildEgvDays(tx: Tx, connectionId: string): Promise<number> {
  const rows = await tx
    .select(rollupColumns)
    .from(egv)
    .where(eq(egv.connectionId, connectionId))
    .orderBy(asc(egv.systemTime));
  const rollups = dayRollups(rows as EgvForRollup[]);
  await tx.delete(days).where(eq(days.connectionId, connectionId));
  await writeDays(tx, connectionId, rollups);
  return rollups.length;
}

/** Recounts the days of `written` (EGVs just upserted for the connection). */
export async function refreshEgvDays(
  tx: Tx,
  connectionId: string,
  written: readonly EgvForRollup[],
): Promise<void> {
  if (written.length === 0) return;
  const [any] = await tx
    .select({ day: days.day })
    .from(days)
    .where(eq(days.connectionId, connectionId))
    .limit(1);
  if (!any) {
    await rebuildEgvDays(tx, connectionId);
    return;
  }
  const touched = [...new Set(written.map((r) => dayOf(r.displayTime)))];
  const window = systemWindowOf(written);
  if (!window) return;
  const rows = await tx
    .select(rollupColumns)
    .from(egv)
    .where(
      and(
        eq(egv.connectionId, connectionId),
        gte(egv.systemTime, window.from),
        lte(egv.systemTime, window.to),
        inArray(sql`left(${egv.displayTime}, 10)`, touched),
      ),
    );
  await writeDays(tx, connectionId, dayRollups(rows as EgvForRollup[]));
}
