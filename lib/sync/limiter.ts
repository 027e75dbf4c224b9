import "server-only";
import { setTimeout as delay } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { MS_PER_HOUR } from "@/lib/cgm/datetime";
import { type Db, schema } from "@/lib/db";
import { env } from "@/lib/platform/env";
import type { CallGate } from "@/lib/service-client/call-gate";
import { serviceConfig } from "@/lib/service-client/config";
import { type Pacing, pacing, type RateLimit, RateLimitBusy, waitMs } from "./rate-limit";

/**
 * The database side of the sync's rate limit: one row per app registration, shared by every sync
 * process on this database (PGlite: the one process; PostgreSQL: all of them). Each call reserves
 * its slot with one upsert, which applies `nextTat` (lib/sync/rate-limit.ts) under the row's lock
 * with the database's clock read after the lock is taken, then waits its turn. So the processes
 * agree on one clock and one schedule, and a call never waits holding a lock or a transaction.
 */

/** SYNC_RATE_LIMIT_PER_HOUR as a limit; null when off. */
export function configuredRateLimit(): RateLimit | null {
  const calls = env().SYNC_RATE_LIMIT_PER_HOUR;
  return calls === null ? null : { calls, periodMs: MS_PER_HOUR };
}

const clockMs = sql`(extract(epoch from clock_timestamp()) * 1000)::double precision`;

/**
 * Reserves one call; returns how long to wait before making it. With `maxWaitMs`, a call that
 * would wait longer takes no turn (the schedule stays as it was, so nobody else waits for a call
 * never made) and the answer is `{ refusedMs }`, how long it would have waited.
 */
export async function reserveCall(
  database: Db,
  clientId: string,
  p: Pacing,
  maxWaitMs = Number.POSITIVE_INFINITY,
): Promise<number | { refusedMs: number }> {
  const t = schema.syncRateLimit;
  const tat = sql.identifier(t.tatMs.name);
  // nextTat: max(tat, now) + interval; a first call counts from now and never waits.
  const nextTat = sql`greatest(l.${tat}, ${clockMs}) + ${p.intervalMs}`;
  // waitMs of that tat, compared in the statement so that the refusal and the turn agree.
  const bound = Number.isFinite(maxWaitMs)
    ? sql`where ${nextTat} - ${p.burst * p.intervalMs} - ${clockMs} <= ${maxWaitMs}`
    : sql``;
  const result = await database.execute<{ tat_ms: number; now_ms: number }>(sql`
    insert into ${t} as l (${sql.identifier(t.clientId.name)}, ${tat})
    values (${clientId}, ${clockMs} + ${p.intervalMs})
    on conflict (${sql.identifier(t.clientId.name)}) do update set ${tat} = ${nextTat} ${bound}
    returning l.${tat} as tat_ms, ${clockMs} as now_ms`);
  const row = result.rows[0];
  if (row) return waitMs(Number(row.tat_ms), Number(row.now_ms), p);
  // Refused: the turn it would have had, from the row as it stands.
  const refused = await database.execute<{ tat_ms: number; now_ms: number }>(sql`
    select ${tat} as tat_ms, ${clockMs} as now_ms from ${t} where ${sql.identifier(t.clientId.name)} = ${clientId}`);
  const now = refused.rows[0];
  if (!now) throw new Error("The rate limit row was not written.");
  return {
    refusedMs: waitMs(Math.max(Number(now.tat_ms), Number(now.now_ms)) + p.intervalMs, Number(now.now_ms), p),
  };
}

/**
 * A gate that paces the calls made through it under `limit`; null for no limit. `maxWaitMs`: a
 * call that would wait longer is refused with RateLimitBusy (a person waits for it); `signal`
 * ends a wait when whoever asked has gone.
 */
export function rateLimitGate(
  database: Db,
  limit: RateLimit | null,
  bounds: { maxWaitMs?: number; signal?: AbortSignal } = {},
): CallGate | null {
  if (!limit) return null;
  const p = pacing(limit);
  const { clientId } = serviceConfig();
  return async () => {
    const wait = await reserveCall(database, clientId, p, bounds.maxWaitMs);
    if (typeof wait !== "number") throw new RateLimitBusy(Math.max(1, Math.ceil(wait.refusedMs / 1000)));
    // An abandoned wait ends quietly: the transport sees the signal and stops the call.
    if (wait > 0) await delay(wait, undefined, { signal: bounds.signal }).catch(() => undefined);
  };
}
