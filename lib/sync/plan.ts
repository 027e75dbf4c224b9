import { type DataRangeResponse, MS_PER_DAY, MS_PER_MINUTE, MS_PER_SECOND, parseDateTime } from "@/lib/cgm";
import type { WindowMs } from "@/lib/cgm/window";
import type { CgmApiVersion } from "@/lib/platform/env";
import { splitWindow, splitWindowEndExclusive } from "@/lib/service-client/windows";

/**
 * What one sync of one connection fetches, decided from the sync state and the service's
 * dataRange alone (no I/O here). Decisions:
 * - A data group is fetched only when its dataRange end moved past what was synced: with nothing
 *   new anywhere, a sync is the one dataRange call. So the overlap is re-read with the next new
 *   record of that group; for a live sensor that is every five minutes, well within the window in
 *   which the service fills in smoothed values (the sandbox: 15 minutes). Records that change while
 *   their group gets nothing new (a deletion with no new event after it) are applied at the next
 *   new record of the group, if it comes within the overlap.
 * - The first sync of a group backfills `backfillDays` back from the group's newest record (not
 *   from now: a patient who stopped uploading still gets their last months), never before its
 *   oldest record.
 * - A later sync reads from `overlapMinutes` before the newest synced record to the new end, and
 *   never more than `backfillDays` back, so a patient returning after a long gap costs one
 *   backfill, not their whole absence.
 * - Windows are inclusive at both ends on systemTime (as the service's), so the end is the
 *   newest record itself.
 * - Events are also re-read at a bounded interval (`EventsRecheck`), see `recheckEvents`.
 */

export const DATA_GROUPS = ["egvs", "events", "calibrations"] as const;
export type DataGroup = (typeof DATA_GROUPS)[number];

export interface SyncSettings {
  backfillDays: number;
  overlapMinutes: number;
}

/** The newest record time (ms, systemTime axis) each group was synced up to; null: never synced. */
export type SyncedThrough = Record<DataGroup, number | null>;

export interface GroupFetch {
  group: DataGroup;
  startMs: number;
  endMs: number;
  /** The group's first sync. */
  backfill: boolean;
  /** Events only: this read covers the re-read's lookback (see `EventsRecheck`). */
  recheck?: boolean;
}

/**
 * The events re-read. A v2 event the patient deletes keeps its eventId and systemTime and only
 * turns "deleted", so the events' dataRange end does not move and the rule above would never read
 * it again unless a newer event came soon after. Reading events on every pass would cost a call
 * per patient every few minutes for something rare (the budget: a pass with one new reading makes
 * at most 2 calls), so events are re-read back `lookbackHours` from the newest synced event at
 * most once per `everyMinutes`: for free when events are read anyway (their window just starts
 * earlier), else as one more call in that pass. Deletions are corrections of recent entries, so a
 * day back catches them; an older deletion is applied by a later backfill.
 */
export interface EventsRecheck {
  /** 0: never re-read. */
  everyMinutes: number;
  lookbackHours: number;
  /** When events were last read back over the lookback (ms); null: not since the first sync. */
  lastCheckedMs: number | null;
  nowMs: number;
}

function recheckDue(r: EventsRecheck | undefined): r is EventsRecheck {
  if (!r || r.everyMinutes <= 0) return false;
  return r.lastCheckedMs === null || r.nowMs - r.lastCheckedMs >= r.everyMinutes * MS_PER_MINUTE;
}

/** The events fetch a due re-read adds or widens; null when none is due. */
function recheckEvents(
  planned: GroupFetch | undefined,
  synced: number | null,
  floorMs: number,
  recheck: EventsRecheck | undefined,
): GroupFetch | null {
  if (synced === null || !recheckDue(recheck)) return null;
  const startMs = Math.max(floorMs, synced - recheck.lookbackHours * 60 * MS_PER_MINUTE);
  if (planned) return { ...planned, startMs: Math.min(planned.startMs, startMs), recheck: true };
  return {
    group: "events",
    startMs: Math.min(startMs, synced),
    endMs: synced,
    backfill: false,
    recheck: true,
  };
}

export function planSync(
  through: SyncedThrough,
  range: DataRangeResponse,
  settings: SyncSettings,
  recheck?: EventsRecheck,
  version: CgmApiVersion = "v2",
): GroupFetch[] {
  const fetches: GroupFetch[] = [];
  // v3 windows exclude their end, so the backfill is the `backfillDays` up to and including the
  // newest record, (end − days, end]: exactly 3 windows of 30 days for 90 days, not a fourth of one
  // second for the record exactly 90 days before (v2's windows, inclusive, read it in its 90-day call).
  const backfillMs = settings.backfillDays * MS_PER_DAY - (version === "v3" ? MS_PER_SECOND : 0);
  for (const group of DATA_GROUPS) {
    const bounds = range[group];
    if (!bounds) continue;
    const endMs = parseDateTime(bounds.end.systemTime);
    const firstMs = parseDateTime(bounds.start.systemTime);
    if (endMs === null || firstMs === null) continue;
    const synced = through[group];
    const floor = endMs - backfillMs;
    let planned: GroupFetch | undefined;
    if (synced === null || endMs > synced) {
      const startMs =
        synced === null
          ? Math.max(firstMs, floor)
          : Math.max(floor, synced - settings.overlapMinutes * MS_PER_MINUTE);
      planned = { group, startMs: Math.min(startMs, endMs), endMs, backfill: synced === null };
      // A backfill reads every event it will keep: it is the re-read too.
      if (group === "events" && synced === null) planned.recheck = true;
    }
    const widened = group === "events" ? recheckEvents(planned, synced, floor, recheck) : null;
    const fetch = widened ?? planned;
    if (fetch) fetches.push(fetch);
  }
  return fetches;
}

/**
 * The windows a fetch is read in, each one service call, inclusive at both ends as the plan's:
 * in v2 at most `maxWindowDays` long (one second short of it, the service's resolution, between
 * chunks). v3 excludes a window's end and the client asks up to a second past the app's end
 * (splitWindowEndExclusive), so the windows are cut as v3 windows of at most `maxWindowDays` (30 at
 * most) and each handed over one second short of its excluded end: still one call each.
 */
export function syncWindows(
  startMs: number,
  endMs: number,
  maxWindowDays: number,
  version: CgmApiVersion = "v2",
): WindowMs[] {
  if (version !== "v3") return splitWindow(startMs, endMs, maxWindowDays);
  return splitWindowEndExclusive(startMs, endMs, maxWindowDays).map((w) => ({
    startMs: w.startMs,
    endMs: w.endMs - MS_PER_SECOND,
  }));
}

/** The service calls a fetch makes: one per window of `syncWindows`. */
export function callsFor(fetch: GroupFetch, maxWindowDays: number, version: CgmApiVersion = "v2"): number {
  return syncWindows(fetch.startMs, fetch.endMs, maxWindowDays, version).length;
}

/**
 * What the plan counts as synced when the deployment has changed API version (CGM_API_VERSION)
 * since the last successful sync (`syncedWith`; null: before versions were recorded, v2): nothing,
 * so each group backfills again in the new version. The rows are keyed so that the versions write
 * the same rows (EGVs and calibrations by systemTime, events by eventId = recordId: see
 * lib/db/schema/synced.ts), so this re-read duplicates nothing; what it adds is what the overlap
 * alone would miss: v3's recordIds on the stored readings, the "updated" status of events edited
 * long ago, deletions older than the events re-read, and v3-only events (meter readings, notes)
 * of the whole backfill. Its cost is one backfill per connection, once, within the same budgets.
 */
export function throughFor(
  through: SyncedThrough,
  syncedWith: CgmApiVersion | null,
  version: CgmApiVersion,
): SyncedThrough {
  if ((syncedWith ?? "v2") === version) return through;
  return { egvs: null, events: null, calibrations: null };
}

/**
 * API v3's `lastSyncTime` for the next dataRange call, or null for the plain dataRange (notes §1.2,
 * §3.6, §5 item 9). With it the service answers only the ranges of data newer than it, which is all
 * the plan needs once every group with data has been synced: the group's new end. Sent only
 * - in v3 (v2 has no such parameter);
 * - once every group the last dataRange showed has had its first sync (a group not yet synced needs
 *   its first record, the start of its backfill, which a limited answer does not give);
 * - as the oldest of the groups' synced-through times, so that no group's newer records are left
 *   out of the answer;
 * - when that is under 30 days old: Tidepool found that a lastSyncTime older than about 100 days
 *   gets wrong answers, and sends one only when its last data is under 30 days old; we do as it does.
 */
export const LAST_SYNC_TIME_MAX_AGE_DAYS = 30;

export function lastSyncTimeFor(
  version: CgmApiVersion,
  through: SyncedThrough,
  stored: DataRangeResponse | null,
  nowMs: number,
): number | null {
  if (version !== "v3" || !stored) return null;
  const times: number[] = [];
  for (const group of DATA_GROUPS) {
    if (stored[group] === null) continue;
    const t = through[group];
    if (t === null) return null;
    times.push(t);
  }
  if (times.length === 0) return null;
  const oldest = Math.min(...times);
  return nowMs - oldest < LAST_SYNC_TIME_MAX_AGE_DAYS * MS_PER_DAY ? oldest : null;
}

/**
 * The service's whole dataRange from the one the last sync stored and an answer limited by
 * `lastSyncTime` (groups without newer data are null in it): a group's start stays the stored one,
 * its end is the newer one's where there is one. The whole range is what the sync state keeps
 * (the copy's readers, lib/sync/freshness.ts, and the plan read it).
 */
export function mergeDataRange(
  stored: DataRangeResponse | null,
  newer: DataRangeResponse,
): DataRangeResponse {
  if (!stored) return newer;
  const merged = { ...stored };
  for (const group of DATA_GROUPS) {
    const o = stored[group];
    const n = newer[group];
    if (!n) continue;
    const later = !o || (parseDateTime(n.end.systemTime) ?? 0) >= (parseDateTime(o.end.systemTime) ?? 0);
    merged[group] = { start: o ? o.start : n.start, end: later ? n.end : (o?.end ?? n.end) };
  }
  return merged;
}

/** Synced up to, after the fetches succeed: each fetched group up to the end it was read to. */
export function advanceThrough(through: SyncedThrough, done: readonly GroupFetch[]): SyncedThrough {
  const next = { ...through };
  for (const f of done) next[f.group] = f.endMs;
  return next;
}

/**
 * Where the group's synced records run without a hole after `f` (see `*From` in
 * lib/db/schema/synced.ts): a read that starts at or before what was synced extends the run; a
 * backfill, or a read after a gap longer than the backfill, starts a new one.
 */
export function coverageFrom(from: number | null, through: number | null, f: GroupFetch): number {
  if (f.backfill || from === null || through === null || f.startMs > through) return f.startMs;
  return Math.min(from, f.startMs);
}

/** Every group that has records at the service has had its first sync. */
export function isBackfillDone(through: SyncedThrough, range: DataRangeResponse): boolean {
  return DATA_GROUPS.every((g) => range[g] === null || through[g] !== null);
}

export const RETRY_BASE_MS = MS_PER_MINUTE;
export const RETRY_MAX_MS = 6 * 60 * MS_PER_MINUTE;

/**
 * Wait before the next attempt after `failures` consecutive failed syncs (1 or more): doubling
 * from one minute up to six hours, with "equal jitter" (half fixed, half random) so that patients
 * who failed together in an outage do not all come back in the same second. `random` in [0, 1).
 */
export function retryDelayMs(failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
