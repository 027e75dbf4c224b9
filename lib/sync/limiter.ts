import "server-only";
import { sql } from "drizzle-orm";
import { type Db, schema } from "@/lib/db";
import { env } from "@/lib/env";
import type { CallGate } from "@/lib/service-client/call-gate";
import { serviceConfig } from "@/lib/service-client/config";
import { HOUR_MS, type Pacing, pacing, type RateLimit, waitMs } from "./rate-limit";

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
  return calls === null ? null : { calls, periodMs: HOUR_MS };
}

const clockMs = sql`(extract(epoch from clock_timestamp()) * 1000)::double precision`;

/** Reserves one call; returns how long to wait before making it. */
export async function reserveCall(database: Db, clientId: string, p: Pacing): Promise<number> {
  const t = schema.syncRateLimit;
  // nextTat: max(tat, now) + interval; a first call counts from now.
  const result = await database.execute<{ tat_ms: number; now_ms: number }>(sql`
    insert into ${t} as l (${sql.identifier(t.clientId.name)}, ${sql.identifier(t.tatMs.name)})
    values (${clientId}, ${clockMs} + ${p.intervalMs})
    on conflict (${sql.identifier(t.clientId.name)}) do update
      set ${sql.identifier(t.tatMs.name)} = greatest(l.tat_ms, ${clockMs}) + ${p.intervalMs}
    returning l.tat_ms as tat_ms, ${clockMs} as now_ms`);
  const row = result.rows[0];
  if (!row) throw new Error("The rate limit row was not written.");
  return waitMs(Number(row.tat_ms), Number(row.now_ms), p);
}

/** A gate that paces the calls made through it under `limit`; null for no limit. */
export function rateLimitGate(database: Db, limit: RateLimit | null): CallGate | null {
  if (!limit) return null;
  const p = pacing(limit);
  const { clientId } = serviceConfig();
  return async () => {
    const wait = await reserveCall(database, clientId, p);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  };
}
