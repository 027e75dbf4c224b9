import "server-only";
import {
  and,
  asc,
  type Column,
  count,
  eq,
  getTableColumns,
  isNull,
  lt,
  lte,
  ne,
  not,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { DataRangeResponse } from "@/lib/cgm";
import { type Db, schema } from "@/lib/db";
import type { CgmApiVersion } from "@/lib/platform/env";
import type { ConnectionRow } from "@/lib/service-client/tokens";
import { refreshEgvDays } from "./daily-store";
import type { DataGroup, SyncedThrough } from "./plan";
import { type GroupRows, splitByStored, systemTimeSpan } from "./rows";
import { insertRows, upsertRows } from "./upsert";
import { holderAlive } from "./workers";

/**
 * The sync's database side. One sync per connection at a time, across processes, is a lease on
 * the connection's sync_state row: a short claim transaction picks a due row with
 * `SELECT … FOR UPDATE SKIP LOCKED` (concurrent claimers skip it instead of waiting) and sets
 * `locked_until`; the row lock ends with that transaction, the lease stays. Why a lease and not a
 * lock held for the whole sync: a sync spends most of its time in HTTP calls, and a transaction
 * open across them would pin a pooled PostgreSQL connection per sync; on PGlite (one connection,
 * one process) it would block every other query, including the embedded sandbox answering those
 * very calls. PostgreSQL advisory locks are per session, which PGlite has only one of, so they
 * would not exclude anything there. A lease names its holder, a pass registered in sync_workers
 * with a heartbeat (lib/sync/workers.ts): a holder that is gone (killed, crashed, the previous run
 * of a restarted server) frees its leases at once, and one that lives but never finishes loses
 * them after LEASE_MS. The sync is idempotent, so a takeover only repeats work. Times come from
 * the database's clock (now()), so several machines agree on them.
 */

export const LEASE_MS = 10 * 60_000;
const lease = sql`now() + make_interval(secs => ${LEASE_MS / 1000})`;

/**
 * The database's now() to the microsecond, as ISO text for comparisons inside the database (a JS
 * Date would round it to the millisecond, before a row written in the same millisecond).
 */
export async function databaseNow(database: Db): Promise<string> {
  const result = await database.execute<{ now: string }>(
    sql`select to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as now`,
  );
  const now = result.rows[0]?.now;
  if (!now) throw new Error("The database did not tell its time.");
  return now;
}

/**
 * The connections of a pass given its list of ids: one JSON parameter, not one per id, since the
 * claim runs once per connection and a list of thousands would be built and planned each time.
 */
const inScope = (ids: readonly string[] | undefined): SQL | undefined =>
  ids
    ? sql`${schema.cgmConnections.id} in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`
    : undefined;

/** Gives every connection in scope its sync_state row (a new connection starts with none). */
export async function ensureStates(database: Db, ids?: readonly string[]): Promise<void> {
  const scope = inScope(ids);
  await database.execute(sql`
    insert into ${schema.syncState} (${sql.identifier(schema.syncState.connectionId.name)})
    select ${schema.cgmConnections.id} from ${schema.cgmConnections} ${scope ? sql`where ${scope}` : sql``}
    on conflict do nothing`);
}

export type SyncStateRow = typeof schema.syncState.$inferSelect;

export interface Claim {
  connection: ConnectionRow;
  state: SyncStateRow;
  /** For the fetch of the service's statistics (lib/sync/statistics.ts), read with the claim. */
  statistics: { clinicPatient: boolean; lastFetchedMs: number | null };
}

/**
 * Leases up to `limit` connections that are due: active, not waiting for a reconnect, not leased
 * (or leased by a holder that is gone, or for longer than LEASE_MS), past their backoff, and with no sync started or ended by any process since `passStarted` (every
 * change of a sync_state row sets `updated_at`). So a pass goes over each connection once, and two
 * passes running together share the work: a sync in progress when the second pass began ends
 * after it, so that pass does not repeat it. One statement (an UPDATE of the rows its subquery
 * locks with SKIP LOCKED), which also returns each connection and what the statistics fetch needs
 * to know. Up to `limit`, because the workers of a pass that wait together share one claim
 * (claim-queue.ts); it is never more than start at once, so a lease always names a running sync
 * and "Sync now" never hears "busy" for a connection only queued. The price: a worker that comes
 * free alone claims alone, so a long pass runs about one claim per connection, each reading the
 * due rows in scope.
 */
export async function claimDue(
  database: Db,
  worker: string,
  passStarted: string,
  limit: number,
  ids?: readonly string[],
  freshForMs = 0,
): Promise<Claim[]> {
  const s = schema.syncState;
  const c = schema.cgmConnections;
  const due = database
    .select({ id: s.connectionId })
    .from(s)
    .innerJoin(c, eq(c.id, s.connectionId))
    .where(
      and(
        eq(c.status, "active"),
        or(isNull(s.reconnectTokenVersion), ne(s.reconnectTokenVersion, c.tokenVersion)),
        or(isNull(s.lockedUntil), lt(s.lockedUntil, sql`now()`), not(holderAlive(s.lockedBy))),
        or(isNull(s.nextAttemptAt), lte(s.nextAttemptAt, sql`now()`)),
        // Never attempted: due whatever its updatedAt, which on PGlite (a clock in milliseconds)
        // can equal the pass's start when the pass itself just created the row (ensureStates).
        or(isNull(s.lastAttemptAt), lt(s.updatedAt, sql`${passStarted}::timestamptz`)),
        freshForMs > 0
          ? or(
              isNull(s.lastSuccessAt),
              lt(s.lastSuccessAt, sql`now() - make_interval(secs => ${freshForMs / 1000})`),
            )
          : undefined,
        inScope(ids),
      ),
    )
    .orderBy(sql`${s.lastAttemptAt} asc nulls first`, asc(s.connectionId))
    .limit(limit)
    .for("update", { of: s, skipLocked: true });
  const cp = schema.clinicPatients;
  const st = schema.syncedStatistics;
  const rows = await database
    .update(s)
    .set({ lockedBy: worker, lockedUntil: lease, lastAttemptAt: sql`now()`, updatedAt: sql`now()` })
    .from(c)
    .where(and(eq(c.id, s.connectionId), sql`${s.connectionId} in (${due})`))
    .returning({
      ...prefixed("s_", getTableColumns(s)),
      ...prefixed("c_", getTableColumns(c)),
      clinicPatient: sql<boolean>`exists (select 1 from ${cp} where ${cp.connectionId} = ${s.connectionId} and ${cp.withdrawnAt} is null)`,
      // As epoch milliseconds: a plain number from either driver.
      statisticsFetchedMs: sql<
        number | null
      >`(select (extract(epoch from ${st.fetchedAt}) * 1000)::double precision from ${st} where ${st.connectionId} = ${s.connectionId})`,
    });
  return rows.map((row) => ({
    state: unprefixed<SyncStateRow>("s_", row),
    connection: unprefixed<ConnectionRow>("c_", row),
    statistics: {
      clinicPatient: Boolean(row.clinicPatient),
      lastFetchedMs: row.statisticsFetchedMs === null ? null : Number(row.statisticsFetchedMs),
    },
  }));
}

/** Columns under prefixed keys, so two tables' columns can share one flat RETURNING list. */
function prefixed<T extends Record<string, Column>>(prefix: string, columns: T): Record<string, Column> {
  return Object.fromEntries(Object.entries(columns).map(([k, v]) => [`${prefix}${k}`, v]));
}

function unprefixed<T>(prefix: string, row: Record<string, unknown>): T {
  return Object.fromEntries(
    Object.entries(row)
      .filter(([k]) => k.startsWith(prefix))
      .map(([k, v]) => [k.slice(prefix.length), v]),
  ) as T;
}

const ownLease = (connectionId: string, worker: string) =>
  and(eq(schema.syncState.connectionId, connectionId), eq(schema.syncState.lockedBy, worker));
const released = { lockedBy: null, lockedUntil: null, updatedAt: sql`now()` };

/**
 * Writes the sync state while `worker` still holds the lease; LeaseLost when the lease has passed
 * to another worker, whose own sync records what it sees.
 */
async function updateHeld(
  database: Db,
  connectionId: string,
  worker: string,
  values: PgUpdateSetSource<typeof schema.syncState>,
): Promise<void> {
  const updated = await database
    .update(schema.syncState)
    .set(values)
    .where(ownLease(connectionId, worker))
    .returning({ lockedBy: schema.syncState.lockedBy });
  if (updated.length === 0) throw new LeaseLost(connectionId, worker);
}

/**
 * A successful sync: releases the lease and records what it saw, for the readers of the synced
 * copy (lib/sync/source.ts): the service's dataRange, the API version it read with, and whether events were re-read over their
 * lookback in this sync. LeaseLost when the lease is another worker's by then: the success is
 * not this worker's to record (the holder's sync records its own).
 */
export async function finishSuccess(
  database: Db,
  connectionId: string,
  worker: string,
  seen: { backfillDone: boolean; range: DataRangeResponse; eventsRechecked: boolean; version: CgmApiVersion },
): Promise<void> {
  await updateHeld(database, connectionId, worker, {
    ...released,
    apiVersion: seen.version,
    backfillDone: seen.backfillDone,
    dataRange: seen.range,
    ...(seen.eventsRechecked ? { eventsCheckedAt: sql`now()` } : {}),
    lastSuccessAt: sql`now()`,
    attempts: 0,
    nextAttemptAt: null,
    reconnectTokenVersion: null,
  });
}

/**
 * The connection is synced in another API version from now on (plan.ts `throughFor`): its groups
 * count as never synced, so each backfills in `version`, and an interrupted backfill resumes in it
 * like a first one; the rows stay, to be overwritten. LeaseLost when the lease is another's.
 */
export async function startVersion(
  database: Db,
  connectionId: string,
  worker: string,
  version: CgmApiVersion,
): Promise<void> {
  await updateHeld(database, connectionId, worker, {
    apiVersion: version,
    egvsThrough: null,
    eventsThrough: null,
    calibrationsThrough: null,
    egvsFrom: null,
    eventsFrom: null,
    calibrationsFrom: null,
    eventsCheckedAt: null,
    backfillDone: false,
    updatedAt: sql`now()`,
  });
}

/** A failed sync: the error, and when to try again (`retryDelayMs` after the database's now). */
export async function finishFailure(
  database: Db,
  connectionId: string,
  worker: string,
  error: string,
  retryDelayMs: (failures: number) => number,
): Promise<void> {
  const [row] = await database
    .select({ attempts: schema.syncState.attempts })
    .from(schema.syncState)
    .where(eq(schema.syncState.connectionId, connectionId));
  const failures = (row?.attempts ?? 0) + 1;
  await database
    .update(schema.syncState)
    .set({
      ...released,
      lastError: error,
      lastErrorAt: sql`now()`,
      attempts: failures,
      nextAttemptAt: sql`now() + make_interval(secs => ${retryDelayMs(failures) / 1000})`,
    })
    .where(ownLease(connectionId, worker));
}

/**
 * A sync its request ended ("Sync now" past its user's budget, or its client gone): the lease is
 * released and nothing is recorded, neither an error nor a backoff, since the connection did not
 * fail; what the sync stored so far stays (each step commits with its through mark).
 */
export async function releaseLease(database: Db, connectionId: string, worker: string): Promise<void> {
  await database.update(schema.syncState).set(released).where(ownLease(connectionId, worker));
}

/** The service refused the authorization: no retries until the connection's tokens change. */
export async function finishReconnectRequired(
  database: Db,
  connectionId: string,
  worker: string,
  error: string,
): Promise<void> {
  const [connection] = await database
    .select({ tokenVersion: schema.cgmConnections.tokenVersion })
    .from(schema.cgmConnections)
    .where(eq(schema.cgmConnections.id, connectionId));
  await database
    .update(schema.syncState)
    .set({
      ...released,
      lastError: error,
      lastErrorAt: sql`now()`,
      attempts: sql`${schema.syncState.attempts} + 1`,
      nextAttemptAt: null,
      reconnectTokenVersion: connection?.tokenVersion ?? 0,
    })
    .where(ownLease(connectionId, worker));
}

export function syncedThrough(state: SyncStateRow): SyncedThrough {
  return {
    egvs: state.egvsThrough?.getTime() ?? null,
    events: state.eventsThrough?.getTime() ?? null,
    calibrations: state.calibrationsThrough?.getTime() ?? null,
  };
}

const throughColumn = {
  egvs: "egvsThrough",
  events: "eventsThrough",
  calibrations: "calibrationsThrough",
} as const satisfies Record<DataGroup, keyof SyncStateRow>;

const fromColumn = {
  egvs: "egvsFrom",
  events: "eventsFrom",
  calibrations: "calibrationsFrom",
} as const satisfies Record<DataGroup, keyof SyncStateRow>;

export function syncedFrom(state: SyncStateRow): SyncedThrough {
  return {
    egvs: state.egvsFrom?.getTime() ?? null,
    events: state.eventsFrom?.getTime() ?? null,
    calibrations: state.calibrationsFrom?.getTime() ?? null,
  };
}

// One array parameter per column a batch (lib/sync/upsert.ts); a batch bounds one statement's size.
const BATCH = 5_000;

const targets = {
  egvs: { table: schema.syncedEgvs, key: ["connectionId", "systemTime"] },
  events: { table: schema.syncedEvents, key: ["connectionId", "eventId"] },
  calibrations: { table: schema.syncedCalibrations, key: ["connectionId", "systemTime"] },
} as const;

/**
 * The most stored keys read back to tell a write's new rows from those it overwrites. A backfill's
 * step finds none or a window's edge; a sync in the overlap of the last one, a few dozen. Past it
 * (a period synced again whole), every row is upserted as it came.
 */
export const STORED_KEYS_MAX = 2_000;

/**
 * The fewest rows worth telling new from stored: below it (an incremental sync's few new readings
 * and its overlap) the read back and a second statement cost more than ON CONFLICT saves, and
 * every row is upserted in one statement as before.
 */
export const SPLIT_FROM_ROWS = 500;

/**
 * The stored systemTimes (epoch ms) of the connection's rows in `table` between the rows' first
 * and last, or null when there are more than STORED_KEYS_MAX.
 */
async function storedTimes(
  tx: Pick<Db, "execute">,
  table: typeof schema.syncedEgvs | typeof schema.syncedCalibrations,
  connectionId: string,
  rows: readonly { systemTime: Date }[],
): Promise<number[] | null> {
  const span = systemTimeSpan(rows);
  if (!span) return [];
  // float8 comes back a number from either driver; to the millisecond, as the rows' Dates are.
  const found = await tx.execute<{ ms: number }>(sql`
    select (extract(epoch from ${table.systemTime}) * 1000)::float8 as ms from ${table}
    where ${table.connectionId} = ${connectionId}
      and ${table.systemTime} between ${new Date(span.from).toISOString()}::timestamptz
        and ${new Date(span.to).toISOString()}::timestamptz
    limit ${STORED_KEYS_MAX + 1}`);
  return found.rows.length > STORED_KEYS_MAX ? null : found.rows.map((r) => Number(r.ms));
}

/**
 * Writes a group's rows: in a write of SPLIT_FROM_ROWS or more, those of EGVs and calibrations
 * whose key is not stored yet as plain inserts (lib/sync/upsert.ts `insertRows`), the rest as
 * upserts; events (keyed by their id, and edited in place) and small writes always as upserts. Safe because only the lease's holder writes a connection's
 * rows, and storeGroup holds its sync_state row locked (FOR UPDATE) from before this read to its
 * commit: no other write of the connection's rows can come in between. Were one to, the primary
 * key would refuse the duplicate and the step fail, to be read again by the next sync.
 */
async function writeRows(tx: Pick<Db, "execute">, connectionId: string, data: GroupRows): Promise<void> {
  const { table, key } = targets[data.group];
  const { fresh, stored } =
    data.group === "events" || data.rows.length < SPLIT_FROM_ROWS
      ? { fresh: [], stored: data.rows }
      : splitByStored<{ systemTime: Date }>(
          data.rows,
          await storedTimes(tx, targets[data.group].table, connectionId, data.rows),
        );
  for (let i = 0; i < fresh.length; i += BATCH) {
    await tx.execute(insertRows(table, fresh.slice(i, i + BATCH)));
  }
  for (let i = 0; i < stored.length; i += BATCH) {
    await tx.execute(upsertRows(table, key, stored.slice(i, i + BATCH)));
  }
}

/** The connection was deleted (disconnected, or its patient removed) while it was being synced. */
export class ConnectionRemoved extends Error {
  constructor(connectionId: string) {
    super(`connection ${connectionId} was removed during its sync; nothing of it was stored`);
    this.name = "ConnectionRemoved";
  }
}

/**
 * This worker no longer holds the connection's lease: it ran out during a slow fetch and another
 * worker took the connection over (or released it). Whatever this worker read is dropped; the
 * holder syncs the connection, and its sync state is the holder's to write.
 */
export class LeaseLost extends Error {
  constructor(connectionId: string, worker: string, holder?: string | null) {
    super(
      `connection ${connectionId}: ${worker} no longer holds its sync lease${holder ? ` (${holder} does)` : ""}; this sync stored nothing more`,
    );
    this.name = "LeaseLost";
  }
}

/**
 * Writes one data group's records and moves the group's `*Through` mark, in one transaction: a
 * sync interrupted before it commits leaves the group as it was, and the next sync reads the
 * same window again. Existing rows are updated in place (a late smoothed value, a deletion). The
 * same update renews the worker's lease (LEASE_MS from now) while a long sync goes on. Only the
 * lease's holder writes: a worker whose lease another has taken over gets LeaseLost and stores
 * nothing, so two workers never write one connection at once and the marks never go back to an
 * older worker's window.
 */
export async function storeGroup(
  database: Db,
  connectionId: string,
  worker: string,
  data: GroupRows,
  throughMs: number,
  /** Where the group's records now run without a hole (plan.ts `coverageFrom`). */
  fromMs?: number,
): Promise<void> {
  await database.transaction(async (tx) => {
    // Stands in for synced_egvs's foreign key (lib/db/schema/synced.ts): a connection deleted
    // meanwhile gets no rows, and its deletion waits for this write and then removes them.
    const [connection] = await tx
      .select({ id: schema.cgmConnections.id })
      .from(schema.cgmConnections)
      .where(eq(schema.cgmConnections.id, connectionId))
      .for("key share");
    if (!connection) throw new ConnectionRemoved(connectionId);
    // The row lock holds off a claim (claimDue locks the row too, skipping it) until this commits.
    // A lease past its time but still naming this worker is renewed below: nobody has claimed
    // it, and nobody can before the renewal commits. Named after another worker, or released,
    // it is no longer ours.
    const [held] = await tx
      .select({ lockedBy: schema.syncState.lockedBy })
      .from(schema.syncState)
      .where(eq(schema.syncState.connectionId, connectionId))
      .for("update");
    if (held?.lockedBy !== worker) throw new LeaseLost(connectionId, worker, held?.lockedBy ?? null);
    await writeRows(tx, connectionId, data);
    // The population view's daily sums, recounted for the days just written (lib/sync/daily-store.ts).
    if (data.group === "egvs") await refreshEgvDays(tx, connectionId, data.rows);
    await tx
      .update(schema.syncState)
      .set({
        [throughColumn[data.group]]: new Date(throughMs),
        ...(fromMs === undefined ? {} : { [fromColumn[data.group]]: new Date(fromMs) }),
        lockedUntil: lease,
        updatedAt: sql`now()`,
      })
      .where(eq(schema.syncState.connectionId, connectionId));
  });
}

/**
 * Why a pass over this one connection synced nothing, in the words of a pass's outcomes, for
 * "Sync now": "busy" only while a holder that runs has its lease; its authorization refused
 * (reconnect_required); a failure's backoff still running (failed); otherwise another process
 * synced it just now (synced).
 */
export async function whyNotClaimed(
  database: Db,
  connectionId: string,
): Promise<"busy" | "reconnect_required" | "failed" | "synced"> {
  const s = schema.syncState;
  const c = schema.cgmConnections;
  const [row] = await database
    .select({
      busy: sql<boolean>`coalesce(${s.lockedUntil} >= now() and ${holderAlive(s.lockedBy)}, false)`,
      reconnect: sql<boolean>`coalesce(${c.status} <> 'active' or ${s.reconnectTokenVersion} = ${c.tokenVersion}, false)`,
      waiting: sql<boolean>`coalesce(${s.nextAttemptAt} > now(), false)`,
    })
    .from(s)
    .innerJoin(c, eq(c.id, s.connectionId))
    .where(eq(s.connectionId, connectionId));
  if (row?.busy) return "busy";
  if (row?.reconnect) return "reconnect_required";
  return row?.waiting ? "failed" : "synced";
}

/** Connections in scope, for the pass's summary (those it did not sync were skipped). */
export async function connectionCount(database: Db, ids?: readonly string[]): Promise<number> {
  const [row] = await database.select({ n: count() }).from(schema.cgmConnections).where(inScope(ids));
  return row?.n ?? 0;
}
