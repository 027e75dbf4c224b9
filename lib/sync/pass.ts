import "server-only";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { type DataRangeResponse, V3_MAX_WINDOW_DAYS, windowOf } from "@/lib/cgm";
import { type Db, db } from "@/lib/db";
import { type CgmApiVersion, env } from "@/lib/platform/env";
import { CallBudgetExceeded } from "@/lib/service-client/call-budget";
import {
  type CallContext,
  type CallGate,
  currentCallContext,
  withCallContext,
  withCallGate,
} from "@/lib/service-client/call-gate";
import {
  configuredVersion,
  getCalibrations,
  getDataRange,
  getEgvs,
  getEvents,
  readV3DataRange,
} from "@/lib/service-client/client";
import { dataRangeFromV3 } from "@/lib/service-client/reshape-v3";
import { ReconnectRequired, TokenUnavailable } from "@/lib/service-client/tokens";
import { ServiceError } from "@/lib/service-client/transport";
import { mapWithConcurrency } from "@/lib/service-client/windows";
import { claimQueue } from "./claim-queue";
import { refreshPeriodEpisodes } from "./episodes-store";
import { configuredRateLimit, rateLimitGate } from "./limiter";
import {
  advanceThrough,
  callsFor,
  coverageFrom,
  type EventsRecheck,
  type GroupFetch,
  isBackfillDone,
  lastSyncTimeFor,
  mergeDataRange,
  planSync,
  retryDelayMs,
  type SyncedThrough,
  type SyncSettings,
  syncWindows,
  throughFor,
} from "./plan";
import { type RateLimit, RateLimitBusy } from "./rate-limit";
import { calibrationRows, egvRows, eventRows, type GroupRows, joinGroupRows } from "./rows";
import { refreshServiceStatistics } from "./statistics";
import { fetchInSteps } from "./steps";
import {
  type Claim,
  claimDue,
  connectionCount,
  databaseNow,
  ensureStates,
  finishFailure,
  finishReconnectRequired,
  finishSuccess,
  LeaseLost,
  releaseLease,
  startVersion,
  storeGroup,
  syncedFrom,
  syncedThrough,
  whyNotClaimed,
} from "./store";
import { readCalibrationsV3, readEgvsV3 } from "./v3";
import { endWorker, removeGoneWorkers, startWorker } from "./workers";

/**
 * One sync pass: every due connection once, SYNC_CONCURRENCY at a time in this process, each
 * leased so that other processes running passes at the same moment take other connections.
 * A connection's sync: dataRange, then each data group whose end moved (lib/sync/plan.ts), each
 * written in its own transaction. Data is read with the configured API version (CGM_API_VERSION);
 * how v2 and v3 records share the synced tables is in docs/sync-v3.md. The service client refreshes tokens and retries 429/503 on its own; what
 * still fails is recorded in the sync state with a backoff before the next attempt.
 */

export type ConnectionOutcome =
  | { connectionId: string; result: "synced"; records: number; calls: number; groups: GroupFetch[] }
  | {
      connectionId: string;
      result: "failed" | "reconnect_required";
      error: string;
      /** Written by the groups that completed before the failure (each group commits alone). */
      records: number;
      calls: number;
    };

export interface PassSummary {
  synced: number;
  failed: number;
  /** Connections in scope this pass did not sync: waiting for a reconnect or a retry, or taken by another process. */
  skipped: number;
  records: number;
  calls: number;
  durationMs: number;
  outcomes: ConnectionOutcome[];
}

export interface PassOptions {
  /** Only these connections (default: all). */
  connectionIds?: readonly string[];
  concurrency?: number;
  settings?: Partial<SyncSettings>;
  /** Names this process's leases; a fresh one per pass by default. */
  worker?: string;
  /** The pacing of the pass's service calls (default SYNC_RATE_LIMIT_PER_HOUR); null for none. */
  rateLimit?: RateLimit | null;
  /**
   * Skips connections that any process synced successfully less than this long ago (default 0:
   * sync every connection of the pass). The scheduled passes set it, so that several processes
   * each running a pass per interval sync a patient once per interval between them, not once each.
   */
  freshForMs?: number;
  /**
   * The request a "Sync now" serves: the pass's calls are charged to its user's budget and stop
   * when its client goes (`requestCalls`), and each waits at most `maxRateWaitMs` for the shared
   * rate limit (RateLimitBusy beyond). Background passes have none: no budget, no signal, and
   * they wait as long as the rate limit says.
   */
  request?: CallContext;
  /** With `request`: the longest wait for the shared rate limit (default SYNC_NOW_MAX_RATE_WAIT_MS). */
  maxRateWaitMs?: number;
}

/** A person waits for "Sync now": longer than this for the shared rate limit, and it is refused. */
export const SYNC_NOW_MAX_RATE_WAIT_MS = 10_000;

/** A "Sync now" within this long of a successful sync of its connection answers from that sync. */
export const SYNC_NOW_FRESH_MS = 30_000;

export function syncSettings(): SyncSettings {
  const e = env();
  return { backfillDays: e.SYNC_BACKFILL_DAYS, overlapMinutes: e.SYNC_OVERLAP_MINUTES };
}

/** The events re-read's settings and clock for this sync (now: the claim's, the database's clock). */
function eventsRecheck(state: Claim["state"]): EventsRecheck {
  const e = env();
  return {
    everyMinutes: e.SYNC_EVENTS_RECHECK_MINUTES,
    lookbackHours: e.SYNC_EVENTS_RECHECK_HOURS,
    lastCheckedMs: state.eventsCheckedAt?.getTime() ?? null,
    nowMs: state.lastAttemptAt?.getTime() ?? Date.now(),
  };
}

const workerName = () => `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

/** What the sync state says when a sync fails: never a token, never a stack. */
export function describeError(e: unknown): string {
  if (e instanceof ReconnectRequired)
    return "reconnect_required: the service no longer accepts this authorization";
  if (e instanceof TokenUnavailable) return `token_unavailable: ${e.reason.message}`;
  if (e instanceof ServiceError) return `${e.code} (${e.status}): ${e.message}`;
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

async function fetchGroup(
  connection: Claim["connection"],
  f: GroupFetch,
  version: CgmApiVersion,
): Promise<GroupRows> {
  const window = windowOf(f.startMs, f.endMs);
  switch (f.group) {
    case "egvs":
      return {
        group: "egvs",
        rows: egvRows(
          connection.id,
          version === "v3"
            ? await readEgvsV3(connection, window)
            : await getEgvs(connection, version, window),
        ),
      };
    case "events":
      // v3 events come with eventId = recordId, and "updated" and "deleted" replace the stored row.
      return {
        group: "events",
        rows: eventRows(connection.id, (await getEvents(connection, version, window)).events),
      };
    case "calibrations":
      return {
        group: "calibrations",
        rows: calibrationRows(
          connection.id,
          version === "v3"
            ? await readCalibrationsV3(connection, window)
            : (await getCalibrations(connection, version, window)).calibrations,
        ),
      };
  }
}

/**
 * The service's dataRange for this sync: in v3, asked with `lastSyncTime` where that is safe
 * (plan.ts `lastSyncTimeFor`) and merged with the stored one, so the plan and the sync state see
 * the whole range; else the plain dataRange.
 */
async function serviceRange(
  connection: Claim["connection"],
  state: Claim["state"],
  through: SyncedThrough,
  version: CgmApiVersion,
): Promise<DataRangeResponse> {
  const nowMs = state.lastAttemptAt?.getTime() ?? Date.now();
  const lastSyncTimeMs = lastSyncTimeFor(version, through, state.dataRange, nowMs);
  if (lastSyncTimeMs === null) return getDataRange(connection, version);
  const newer = dataRangeFromV3(await readV3DataRange(connection, { lastSyncTimeMs }));
  return mergeDataRange(state.dataRange, newer);
}

/** The longest window the sync reads in one call: v3 allows 30 days (notes §1.2). */
export function syncWindowDays(version: CgmApiVersion): number {
  const configured = env().CGM_MAX_WINDOW_DAYS;
  return version === "v3" ? Math.min(configured, V3_MAX_WINDOW_DAYS) : configured;
}

/** As many windows in flight as the service client reads a long window with. */
const WINDOWS_AHEAD = 3;

/**
 * A fetch longer than the service's window (a backfill; a patient back after weeks away) is read
 * one service window at a time, oldest first, with the next windows on their way while one is
 * written, and stored in steps of whole windows (lib/sync/steps.ts, STEP_ROWS), each in its own
 * transaction that moves the group's through mark to the step's end. A failed read stores the
 * windows read before it first, so an interrupted backfill resumes after the last window read
 * (the next plan starts there, less the overlap) instead of reading the whole period again. Each
 * window is one service call, so the calls are those of `callsFor`.
 */
function windowsOf(f: GroupFetch, maxWindowDays: number, version: CgmApiVersion): GroupFetch[] {
  return syncWindows(f.startMs, f.endMs, maxWindowDays, version).map((w) => ({ ...f, ...w }));
}

/**
 * The most rows one step stores (about 100 days of 5-minute readings). A transaction per service
 * window made a year's backfill 39 transactions, each with its lease check, its daily recount and
 * its commit; a step gathers windows up to this size, so a year of EGVs takes four and the events
 * and calibrations one each. Bounded, because on PGlite a transaction holds the process's one
 * connection (the embedded sandbox answering the sync's own calls included) until it commits.
 */
export const STEP_ROWS = 30_000;

export async function syncConnection(
  database: Db,
  claim: Claim,
  worker: string,
  settings: SyncSettings,
): Promise<ConnectionOutcome> {
  const { connection, state } = claim;
  const version = configuredVersion();
  const maxWindowDays = syncWindowDays(version);
  let calls = 0;
  let records = 0;
  let egvsWritten = false;
  try {
    calls += 1;
    // Synced in another API version (or never): backfilled in this one (plan.ts `throughFor`),
    // recorded before anything is read so that an interrupted backfill resumes in this version.
    const synced = syncedThrough(state);
    let through = throughFor(synced, state.apiVersion, version);
    const switched = through !== synced;
    if (switched) await startVersion(database, connection.id, worker, version);
    const from = switched ? { ...through } : syncedFrom(state);
    const range = await serviceRange(
      connection,
      switched ? { ...state, dataRange: null } : state,
      through,
      version,
    );
    const fetches = planSync(through, range, settings, eventsRecheck(state), version);
    for (const f of fetches) {
      calls += callsFor(f, maxWindowDays, version);
      // Where the group's records run without a hole once all of f is stored; each step
      // stored extends that run up to its end.
      const fromMs = coverageFrom(from[f.group], through[f.group], f);
      await fetchInSteps(
        windowsOf(f, maxWindowDays, version),
        { ahead: WINDOWS_AHEAD, maxRows: STEP_ROWS },
        (w) => fetchGroup(connection, w, version),
        joinGroupRows,
        async (data, throughMs) => {
          await storeGroup(database, connection.id, worker, data, throughMs, fromMs);
          records += data.rows.length;
          if (data.group === "egvs" && data.rows.length > 0) egvsWritten = true;
        },
      );
      from[f.group] = fromMs;
      through = advanceThrough(through, [f]);
    }
    // The population view's episodes, clinic patients only, from what is now stored: episodes run
    // across midnight, so they are counted over the view's period, not summed from days.
    await refreshPeriodEpisodes(database, connection.id, {
      clinicPatient: claim.statistics.clinicPatient,
      egvsWritten,
    });
    // Clinic patients only, at most every SYNC_STATISTICS_HOURS (lib/sync/statistics.ts).
    calls += await refreshServiceStatistics(database, connection, range, claim.statistics);
    await finishSuccess(database, connection.id, worker, {
      backfillDone: isBackfillDone(through, range),
      range,
      version,
      eventsRechecked: fetches.some((f) => f.recheck),
    });
    return { connectionId: connection.id, result: "synced", records, calls, groups: fetches };
  } catch (e) {
    // The request that asked for this sync ended it (its budget, its client gone, the rate limit
    // too busy to wait for): nothing failed for the connection, so its lease is released without
    // an error or a backoff, and the request gets the reason.
    if (endedByRequest(e)) {
      await releaseLease(database, connection.id, worker);
      throw e;
    }
    const error = describeError(e);
    // A failure of this sync, but the connection's state is the new holder's: recording the
    // error or a backoff there would overwrite its sync's, so nothing is written.
    if (e instanceof LeaseLost)
      return { connectionId: connection.id, result: "failed", error, records, calls };
    if (e instanceof ReconnectRequired) {
      await finishReconnectRequired(database, connection.id, worker, error);
      return { connectionId: connection.id, result: "reconnect_required", error, records, calls };
    }
    await finishFailure(database, connection.id, worker, error, (n) => retryDelayMs(n));
    return { connectionId: connection.id, result: "failed", error, records, calls };
  }
}

function endedByRequest(e: unknown): boolean {
  return (
    e instanceof CallBudgetExceeded ||
    e instanceof RateLimitBusy ||
    currentCallContext().signal?.aborted === true
  );
}

export async function runSyncPass(options: PassOptions = {}): Promise<PassSummary> {
  const started = performance.now();
  const database = await db();
  const settings = { ...syncSettings(), ...options.settings };
  const worker = options.worker ?? workerName();
  // The leases of holders that are gone become free before this pass claims any.
  await removeGoneWorkers(database);
  await startWorker(database, worker);
  try {
    return await runPass(database, worker, settings, options, started);
  } finally {
    await endWorker(database, worker);
  }
}

async function runPass(
  database: Db,
  worker: string,
  settings: SyncSettings,
  options: PassOptions,
  started: number,
): Promise<PassSummary> {
  const ids = options.connectionIds;
  await ensureStates(database, ids);
  const passStarted = await databaseNow(database);
  const outcomes: ConnectionOutcome[] = [];
  const concurrency = options.concurrency ?? env().SYNC_CONCURRENCY;
  // Every service call of the pass, retries included, waits its turn under the app's rate limit.
  // Leased as workers come free, only as many as start at once (claim-queue.ts), so a lease
  // always names a sync that is running.
  const nextClaim = claimQueue((count) =>
    claimDue(database, worker, passStarted, count, ids, options.freshForMs ?? 0),
  );
  const limit = options.rateLimit === undefined ? configuredRateLimit() : options.rateLimit;
  const work = () =>
    mapWithConcurrency(Array.from({ length: concurrency }), concurrency, async () => {
      for (;;) {
        const claim = await nextClaim();
        if (!claim) return;
        outcomes.push(await syncConnection(database, claim, worker, settings));
      }
    });
  const { request } = options;
  if (request) {
    const paced = rateLimitGate(database, limit, {
      maxWaitMs: options.maxRateWaitMs ?? SYNC_NOW_MAX_RATE_WAIT_MS,
      signal: request.signal,
    });
    await withCallContext({ signal: request.signal, gate: chargeThenPace(request.gate, paced) }, work);
  } else {
    await withCallGate(rateLimitGate(database, limit), work);
  }
  const synced = outcomes.filter((o) => o.result === "synced").length;
  const total = await connectionCount(database, ids);
  return {
    synced,
    failed: outcomes.length - synced,
    skipped: Math.max(0, total - outcomes.length),
    records: outcomes.reduce((n, o) => n + o.records, 0),
    calls: outcomes.reduce((n, o) => n + o.calls, 0),
    durationMs: performance.now() - started,
    outcomes,
  };
}

/**
 * A request's call: first its user's budget (refused at once when spent, so a refused call never
 * takes a turn of the shared rate limit), then its turn under the rate limit.
 */
function chargeThenPace(budget: CallGate | undefined, paced: CallGate | null): CallGate {
  return async () => {
    await budget?.();
    await paced?.();
  };
}

/**
 * One pass over one connection at once ("Sync now") for a request (`requestCalls`: its user's
 * budget and its client's signal), and how it went. A sync that succeeded within
 * SYNC_NOW_FRESH_MS is the answer itself: repeated clicks, or several clinicians of one patient,
 * do not spend the shared rate limit again for data a few seconds old. When the pass could not
 * claim the connection, the store says why: "busy" only while a holder that still runs has its
 * lease. Throws CallBudgetExceeded, RateLimitBusy or CallsAbandoned when the request ended it.
 */
export async function syncNow(
  connectionId: string,
  request: CallContext,
): Promise<ConnectionOutcome["result"] | "busy"> {
  const summary = await runSyncPass({
    connectionIds: [connectionId],
    concurrency: 1,
    freshForMs: SYNC_NOW_FRESH_MS,
    request,
  });
  return summary.outcomes[0]?.result ?? whyNotClaimed(await db(), connectionId);
}

/** The pass's one line in the log. */
export function summaryLine(s: PassSummary): string {
  return (
    `sync pass: ${s.synced} synced, ${s.skipped} skipped, ${s.failed} failed, ` +
    `${s.records} records written, ${s.calls} service calls, ${(s.durationMs / 1000).toFixed(1)} s`
  );
}
