import { type DataRangeResponse, MS_PER_DAY, MS_PER_MINUTE, parseDateTime } from "@/lib/cgm";
import { splitWindow } from "@/lib/service-client/windows";

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
): GroupFetch[] {
  const fetches: GroupFetch[] = [];
  const backfillMs = settings.backfillDays * MS_PER_DAY;
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

/** The service calls a fetch makes: the client splits windows longer than `maxWindowDays`. */
export function callsFor(fetch: GroupFetch, maxWindowDays: number): number {
  return splitWindow(fetch.startMs, fetch.endMs, maxWindowDays).length;
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
