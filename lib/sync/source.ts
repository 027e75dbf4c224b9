import "server-only";
import { and, asc, desc, eq, gte, lte, type SQL, sql } from "drizzle-orm";
import {
  type Calibration,
  type CgmEvent,
  type DataRangeResponse,
  type EgvsV2Response,
  MS_PER_DAY,
  MS_PER_HOUR,
  MS_PER_MINUTE,
  parseDateTime,
  type Window,
  type WindowMs,
  windowOf,
} from "@/lib/cgm";
import { db, schema } from "@/lib/db";
import { env } from "@/lib/platform/env";
import {
  configuredVersion,
  getAlerts,
  getCalibrations,
  getDataRange,
  getEgvs,
  getEvents,
} from "@/lib/service-client/client";
import { type ConnectionRef, connectionIdOf, ReconnectRequired } from "@/lib/service-client/tokens";
import {
  assembleDays,
  byDay,
  type DayOf,
  type DaysGroup,
  type DaysOwner,
  dayIndexOf,
  daySpans,
  FinishedDays,
  finishedBeforeMs,
  planDaysRead,
  recordsOf,
  sameUnitOf,
  withRecords,
} from "./finished-days";
import { type CopyVerdict, copyAnswers, type SyncedCopy, splitAtSynced } from "./freshness";
import type { DataGroup } from "./plan";
import { calibrationOf, egvOf, eventOf } from "./rows";
import { syncedFrom, syncedThrough } from "./store";

/**
 * The one place the dashboard and the reports read a connection's data: from the background
 * sync's copy when it can answer (the rule and its reasons: lib/sync/freshness.ts), with what the
 * service released since the last sync read from the service (with the configured API version,
 * CGM_API_VERSION); else from the service. Either way the answer has the app's own records
 * (lib/cgm/app-records.ts: the v2 shapes, widened for v3), so what is computed downstream does not
 * depend on where it came from. Deleted events come back as the service
 * sends them (eventStatus "deleted"), and the readers leave them out as before.
 */

export type DataSource = "synced" | "service";

/** The copy's state as copyAnswers reads it, with the database's clock. */
interface SyncedState {
  copy: SyncedCopy;
  nowMs: number;
}

/** The connection's own state beside the copy's: whose finished days a load may use. */
interface ConnectionState {
  /** Null when the connection is gone or waits for a reconnect: no days are kept for it. */
  owner: DaysOwner | null;
  synced: SyncedState | null;
}

/** The connection and its copy's state (null: never synced), in one query. */
async function connectionState(connection: ConnectionRef): Promise<ConnectionState> {
  const database = await db();
  const s = schema.syncState;
  const c = schema.cgmConnections;
  const id = connectionIdOf(connection);
  const [row] = await database
    .select({
      state: s,
      status: c.status,
      authorizedAt: c.authorizedAt,
      createdAt: c.createdAt,
      nowMs: sql<string>`(extract(epoch from now()) * 1000)::float8`,
    })
    .from(c)
    .leftJoin(s, eq(s.connectionId, c.id))
    .where(eq(c.id, id));
  if (!row) return { owner: null, synced: null };
  const active = row.status === "active";
  // A connection from before authorized_at was recorded is known by its creation.
  const owner = active
    ? { connectionId: id, generation: String((row.authorizedAt ?? row.createdAt).getTime()) }
    : null;
  const { state } = row;
  if (!state) return { owner, synced: null };
  return {
    owner,
    synced: {
      copy: {
        active,
        backfillDone: state.backfillDone,
        lastSuccessMs: state.lastSuccessAt?.getTime() ?? null,
        lastErrorMs: state.lastErrorAt?.getTime() ?? null,
        range: state.dataRange,
        through: syncedThrough(state),
        from: syncedFrom(state),
      },
      nowMs: Number(row.nowMs),
    },
  };
}

/** The copy's state; null: never synced. */
async function syncedCopyOf(connection: ConnectionRef): Promise<SyncedState | null> {
  return (await connectionState(connection)).synced;
}

/**
 * What one load (a page, a report) reads through, asked once: the service's own dataRange, whose
 * newest records tell what the service released since the last sync, and the synced copy's state.
 * A load that reads several groups or windows passes it to each read, so the source is decided
 * from one sync state (read once per load, not once per read).
 */
export interface ReadSource {
  newest: DataRangeResponse;
  synced: SyncedState | null;
  /** The connection's finished days (of every group kept): whose, and where they end; null for none. */
  days?: { owner: DaysOwner; finishedBefore: number } | null;
}

export async function readSource(connection: ConnectionRef): Promise<ReadSource> {
  const [newest, state] = await Promise.all([readDataRange(connection), connectionState(connection)]).catch(
    (e: unknown) => {
      // Revoked: its days go now rather than when the budget pushes them out.
      if (e instanceof ReconnectRequired) finishedDays.forget(connectionIdOf(connection));
      throw e;
    },
  );
  const newestEgvMs = newest.egvs ? parseDateTime(newest.egvs.end.systemTime) : null;
  if (!state.owner) finishedDays.forget(connectionIdOf(connection));
  const days =
    state.owner && newestEgvMs !== null
      ? { owner: state.owner, finishedBefore: finishedBeforeMs(newestEgvMs, finishedLookbackMs()) }
      : null;
  return { newest, synced: state.synced, days };
}

declare global {
  // On globalThis so that every bundle of the server (and Next's reloading in development) shares one.
  var __finishedDays: FinishedDays | undefined;
}

/** What the finished days of every connection may hold in this process, as FinishedDays estimates it. */
export const FINISHED_DAYS_BUDGET_BYTES = 64 * 1024 * 1024;

globalThis.__finishedDays ??= new FinishedDays(FINISHED_DAYS_BUDGET_BYTES);
const finishedDays = globalThis.__finishedDays;

/**
 * The longest the service may still change a record after the newest reading: the sync's
 * lookbacks, the EGVs' overlap (late smoothed values) and the events' re-read (deletions, edits).
 * A day that ended before it is finished (lib/sync/finished-days.ts). At least a day, so that the
 * whole days read for a window ending at the newest reading are never longer than the window.
 */
function finishedLookbackMs(): number {
  const e = env();
  return Math.max(
    e.SYNC_OVERLAP_MINUTES * MS_PER_MINUTE,
    e.SYNC_EVENTS_RECHECK_HOURS * MS_PER_HOUR,
    MS_PER_DAY,
  );
}

/** Drops a connection's finished days from this process (its disconnection). */
export function forgetFinishedDays(connectionId: string): void {
  finishedDays.forget(connectionId);
}

/** Where a read of `groups` over `window` would be answered from, and why not the copy. */
export async function sourceFor(
  connection: ConnectionRef,
  groups: readonly DataGroup[],
  window: Window | null,
): Promise<CopyVerdict> {
  return (await readPlan(connection, groups, window)).verdict;
}

async function readPlan(
  connection: ConnectionRef,
  groups: readonly DataGroup[],
  window: Window | null,
  source?: ReadSource,
): Promise<{ verdict: CopyVerdict; synced: SyncedCopy | null }> {
  const synced = source ? source.synced : await syncedCopyOf(connection);
  if (!synced) return { verdict: no("the connection is not synced"), synced: null };
  const verdict = copyAnswers(synced.copy, groups, window, synced.nowMs, env().SYNC_INTERVAL_MINUTES);
  return { verdict, synced: synced.copy };
}

const no = (reason: string): CopyVerdict => ({ answers: false, reason });

const windowOfSpan = (span: WindowMs | null): Window | null => span && windowOf(span.startMs, span.endMs);

/**
 * The parts of a read of one group the copy and the service answer (splitAtSynced); null when the
 * copy may not answer at all. The service's newest record comes from the load's `source` (a
 * dataRange just asked of the service), or is asked here when the window reaches past the copy.
 */
async function partsOf(
  connection: ConnectionRef,
  group: DataGroup,
  window: Window,
  source: ReadSource | undefined,
): Promise<{ copy: Window | null; service: Window | null } | null> {
  const { verdict, synced } = await readPlan(connection, [group], window, source);
  if (!verdict.answers || !synced) return null;
  const throughMs = synced.through[group];
  // Ending within what the copy holds, the read needs no word from the service.
  if (throughMs !== null && window.endMs <= throughMs) return { copy: window, service: null };
  const bounds = (source?.newest ?? (await getDataRange(connection)))[group];
  const parts = splitAtSynced(window, throughMs, bounds ? parseDateTime(bounds.end.systemTime) : null);
  return { copy: windowOfSpan(parts.copy), service: windowOfSpan(parts.service) };
}

const inWindow = (
  t: typeof schema.syncedEgvs | typeof schema.syncedEvents | typeof schema.syncedCalibrations,
  id: string,
  w: Window,
) =>
  and(eq(t.connectionId, id), gte(t.systemTime, new Date(w.startMs)), lte(t.systemTime, new Date(w.endMs)));

/**
 * The window's EGVs from the copy, in the unit of the connection's newest synced reading (the
 * account's unit at the last sync). Null when a reading of the window came in another unit (the
 * patient changed unit since): the service answers in the current unit, and its rounding is not
 * ours to repeat. Null too when nothing is synced, as there is then no unit to answer in.
 */
async function syncedEgvs(id: string, w: Window): Promise<EgvsV2Response | null> {
  const database = await db();
  const t = schema.syncedEgvs;
  const [newest] = await database
    .select({ unit: t.unit, rateUnit: t.rateUnit })
    .from(t)
    .where(eq(t.connectionId, id))
    .orderBy(desc(t.systemTime))
    .limit(1);
  if (!newest) return null;
  // v3 answers in mg/dL only: readings synced in v2 in mmol/L are not what the service now sends.
  const version = configuredVersion();
  if (version === "v3" && (newest.unit !== "mg/dL" || newest.rateUnit !== "mg/dL/min")) return null;
  const rows = await database
    .select()
    .from(t)
    .where(inWindow(t, id, w))
    .orderBy(asc(t.systemTime));
  if (rows.some((r) => r.unit !== newest.unit || r.rateUnit !== newest.rateUnit)) return null;
  return { unit: newest.unit, rateUnit: newest.rateUnit, egvs: rows.map((r) => egvOf(r, version)) };
}

/**
 * The window's EGVs: from the copy where it holds them, the newest part (released since the last
 * sync) from the service; `source` is the load's, when it has read one (`readSource`).
 */
export const readEgvs = withFinishedDays("egvs", readEgvsFresh);

/**
 * The window's EGVs with its finished days from `cache` (readByDays). Exported for its tests,
 * which give it a cache of their own.
 */
export function readEgvsByDays(
  connection: ConnectionRef,
  window: Window,
  source: ReadSource,
  days: { owner: DaysOwner; finishedBefore: number },
  cache: FinishedDays,
): Promise<EgvsV2Response> {
  return readByDays("egvs", readEgvsFresh, connection, window, source, days, cache);
}

/** How one group is read as it stands, without finished days. */
type FreshRead<G extends DaysGroup> = (
  connection: ConnectionRef,
  window: Window,
  source?: ReadSource,
) => Promise<DayOf[G]>;

/**
 * The window's records of `group` with its finished days from `cache` (lib/sync/finished-days.ts):
 * the days not held read in one span and kept, the rest of the window read as before (`fresh`),
 * both at once. Parts in different units (the patient changed unit meanwhile) are dropped and the
 * whole window read. Exported for its tests, which give it a cache of their own.
 */
export async function readByDays<G extends DaysGroup>(
  group: G,
  fresh: FreshRead<G>,
  connection: ConnectionRef,
  window: Window,
  source: ReadSource,
  days: { owner: DaysOwner; finishedBefore: number },
  cache: FinishedDays,
): Promise<DayOf[G]> {
  const { owner } = days;
  const plan = planDaysRead(window, days.finishedBefore, (d) => cache.has(owner, d, group));
  if (!plan) return fresh(connection, window, source);
  const read = (span: WindowMs | null) => {
    const w = windowOfSpan(span);
    return w ? fresh(connection, w, source) : Promise.resolve(null);
  };
  // The missing days in reads no longer than the window (its whole days can be two days more).
  const readDays = async (span: WindowMs | null) => {
    if (!span) return null;
    const parts = await Promise.all(
      daySpans(span, window.endMs - window.startMs).map((s) =>
        fresh(connection, windowOf(s.startMs, s.endMs), source),
      ),
    );
    return sameUnitOf(group, parts)
      ? withRecords(
          group,
          parts[0] as DayOf[G],
          parts.flatMap((p) => recordsOf(group, p)),
        )
      : null;
  };
  const [missing, tail] = await Promise.all([readDays(plan.missing), read(plan.tail)]);
  const fetched = missing ? byDay(recordsOf(group, missing)) : null;
  const span = plan.missing;
  const wasRead = (d: number) =>
    span !== null && d >= dayIndexOf(span.startMs) && d <= dayIndexOf(span.endMs);
  const found: DayOf[G][] = [];
  for (let d = plan.firstDay; d <= plan.lastDay; d++) {
    const held = cache.get(owner, d, group);
    if (held) found.push(held);
    // A day read just now; one held when planned but dropped since (another load's days
    // pushed it out) is missing, and the window is then read whole.
    else if (missing && fetched && wasRead(d)) {
      const day = withRecords(group, missing, fetched.get(d) ?? []);
      cache.set(owner, d, day, group);
      found.push(day);
    }
  }
  if (found.length !== plan.lastDay - plan.firstDay + 1) return fresh(connection, window, source);
  if (!sameUnitOf(group, [...found, ...(tail ? [tail] : [])])) {
    // The days kept are in the unit the patient left: none is of use any more.
    cache.forget(owner.connectionId);
    return fresh(connection, window, source);
  }
  return withRecords(
    group,
    tail ?? (found[0] as DayOf[G]),
    assembleDays(
      window,
      found.map((d) => recordsOf(group, d)),
      tail ? recordsOf(group, tail) : [],
    ),
  );
}

/** The window's EGVs read as they stand: from the copy where it holds them, else the service. */
async function readEgvsFresh(
  connection: ConnectionRef,
  window: Window,
  source?: ReadSource,
): Promise<EgvsV2Response> {
  const parts = await partsOf(connection, "egvs", window, source);
  const synced = parts?.copy ? await syncedEgvs(connectionIdOf(connection), parts.copy) : null;
  if (parts && synced) {
    if (!parts.service) return synced;
    const tail = await getEgvs(connection, configuredVersion(), parts.service);
    // A unit changed since the last sync: the service answers the whole window in the new one.
    if (tail.unit === synced.unit && tail.rateUnit === synced.rateUnit)
      return { ...synced, egvs: [...synced.egvs, ...tail.egvs] };
  }
  return getEgvs(connection, configuredVersion(), window);
}

type RecordTable = typeof schema.syncedEvents | typeof schema.syncedCalibrations;

/**
 * How one group of records without a unit of their own (events, calibrations) is read: the copy's
 * table, its rows in the service's order and as the service's records, and the service's answer,
 * which holds them under the group's name.
 */
interface RecordReader<G extends "events" | "calibrations", R, T extends RecordTable> {
  group: G;
  table: T;
  order: SQL[];
  of: (row: T["$inferSelect"]) => R;
  service: (connection: ConnectionRef, window: Window) => Promise<Record<G, R[]>>;
}

/**
 * The window's records of one group: from the copy where it holds them, the newest part
 * (released since the last sync) from the service; `source` is the load's, when it has read one.
 */
async function readRecords<G extends "events" | "calibrations", R, T extends RecordTable>(
  reader: RecordReader<G, R, T>,
  connection: ConnectionRef,
  window: Window,
  source?: ReadSource,
): Promise<Record<G, R[]>> {
  const parts = await partsOf(connection, reader.group, window, source);
  if (!parts) return reader.service(connection, window);
  const copied = async (w: Window): Promise<R[]> => {
    const t: RecordTable = reader.table;
    const rows = await (await db())
      .select()
      .from(t)
      .where(inWindow(t, connectionIdOf(connection), w))
      .orderBy(...reader.order);
    return rows.map((row) => reader.of(row as T["$inferSelect"]));
  };
  const [copy, tail] = await Promise.all([
    parts.copy ? copied(parts.copy) : [],
    parts.service ? reader.service(connection, parts.service) : null,
  ]);
  // A computed key widens to string: the object has exactly the group's key.
  return { [reader.group]: [...copy, ...(tail?.[reader.group] ?? [])] } as Record<G, R[]>;
}

const EVENTS = {
  group: "events",
  table: schema.syncedEvents,
  order: [asc(schema.syncedEvents.systemTime), asc(schema.syncedEvents.eventId)],
  of: (row) => eventOf(row, configuredVersion()),
  service: (connection, w) => getEvents(connection, configuredVersion(), w),
} satisfies RecordReader<"events", CgmEvent, typeof schema.syncedEvents>;

const CALIBRATIONS = {
  group: "calibrations",
  table: schema.syncedCalibrations,
  order: [asc(schema.syncedCalibrations.systemTime)],
  of: calibrationOf,
  service: (connection, w) => getCalibrations(connection, configuredVersion(), w),
} satisfies RecordReader<"calibrations", Calibration, typeof schema.syncedCalibrations>;

const readEventsFresh: FreshRead<"events"> = (connection, window, source) =>
  readRecords(EVENTS, connection, window, source);

const readCalibrationsFresh: FreshRead<"calibrations"> = (connection, window, source) =>
  readRecords(CALIBRATIONS, connection, window, source);

/** Alerts are not synced (v3 only): always the service's. */
const readAlertsFresh: FreshRead<"alerts"> = (connection, window) => getAlerts(connection, window);

/** A group's window with the load's finished days when it has them, else as it stands. */
function withFinishedDays<G extends DaysGroup>(group: G, fresh: FreshRead<G>): FreshRead<G> {
  return (connection, window, source) =>
    source?.days
      ? readByDays(group, fresh, connection, window, source, source.days, finishedDays)
      : fresh(connection, window, source);
}

/** The window's events (deleted ones included, eventStatus "deleted": the readers leave them out). */
export const readEvents = withFinishedDays("events", readEventsFresh);

export const readCalibrations = withFinishedDays("calibrations", readCalibrationsFresh);

/** The window's alerts (API v3 only: service-v3-notes.md §3.5). */
export const readAlerts = withFinishedDays("alerts", readAlertsFresh);

/**
 * The service's own dataRange, always asked of it (one small call): the copy's, as the last sync
 * saw it, can miss readings released since, and a page would then show a latest reading older
 * than the service's while it says readings appear as soon as the service receives them.
 */
export async function readDataRange(connection: ConnectionRef): Promise<DataRangeResponse> {
  return getDataRange(connection);
}
