import { type DataRangeResponse, MS_PER_MINUTE, parseDateTime, type WindowMs } from "@/lib/cgm";
import type { DataGroup, SyncedThrough } from "./plan";

/**
 * When the synced copy of a connection's data may answer a read instead of the service
 * (lib/sync/source.ts). What a patient expects is the service's answer; the copy may stand in for
 * it only where it is that answer, as of a moment recent enough that nothing is missing but what
 * the service published since (and the newest readings' late smoothed values, which the next
 * sync brings). So the copy answers only when all of these hold, and otherwise the service does:
 * - the connection is active: one that needs reconnecting goes to the service path, which says
 *   so and offers the reconnect, instead of quietly showing ever older data;
 * - the backfill is done and a sync has succeeded since the last failed one: a failing sync
 *   falls further behind with every pass, and a page would not say that its data stopped;
 * - the last success is at most two sync intervals old (the database's clock): the scheduler
 *   waits one interval after a pass ends, so a healthy connection's copy is at most one interval
 *   plus one pass old; twice the interval tolerates a pass as long as the interval itself, and
 *   an older copy means the sync is stopped or cannot keep up;
 * - each data group read was synced up to the end of the service's dataRange that sync saw, and
 *   the window starts where the group's records run without a hole (`*From`), or the group's
 *   records all lie within that run (it reaches the group's first record).
 * A window that ends after the newest synced record is answered by the copy alone only while the
 * service has released nothing newer since (splitAtSynced); else its newest part comes from the
 * service, so a page never shows a latest reading older than the service's.
 */

export interface SyncedCopy {
  active: boolean;
  backfillDone: boolean;
  lastSuccessMs: number | null;
  lastErrorMs: number | null;
  /** The service's dataRange as the last successful sync saw it. */
  range: DataRangeResponse | null;
  through: SyncedThrough;
  from: SyncedThrough;
}

export type CopyVerdict = { answers: true } | { answers: false; reason: string };

const no = (reason: string): CopyVerdict => ({ answers: false, reason });

export function copyAnswers(
  copy: SyncedCopy,
  groups: readonly DataGroup[],
  /** The read's window (systemTime, ms); null for dataRange, which has none. */
  window: WindowMs | null,
  nowMs: number,
  intervalMinutes: number,
): CopyVerdict {
  if (!copy.active) return no("the connection is not active");
  if (!copy.backfillDone || !copy.range) return no("the first sync has not completed");
  if (copy.lastSuccessMs === null) return no("no sync has succeeded");
  if (copy.lastErrorMs !== null && copy.lastErrorMs >= copy.lastSuccessMs) return no("the last sync failed");
  if (nowMs - copy.lastSuccessMs > 2 * intervalMinutes * MS_PER_MINUTE)
    return no("the last sync is older than two sync intervals");
  for (const group of groups) {
    const bounds = copy.range[group];
    if (bounds === null) continue;
    const endMs = parseDateTime(bounds.end.systemTime);
    const firstMs = parseDateTime(bounds.start.systemTime);
    const through = copy.through[group];
    const from = copy.from[group];
    if (endMs === null || firstMs === null || through === null || from === null || through < endMs)
      return no(`${group} are not synced up to the service's newest record`);
    if (window && window.startMs < from && from > firstMs)
      return no(`${group} are synced only from ${new Date(from).toISOString()}`);
  }
  return { answers: true };
}

/**
 * Which part of a read the copy answers and which the service, once copyAnswers has said the copy
 * may stand in. It stands in alone only when it holds the service's newest record of the group
 * (`serviceNewestMs`, from the service's dataRange now) or the window ends before what it holds:
 * a sync a few minutes old can miss readings released since, and a patient's latest glucose must
 * never be older than the service's. Otherwise the copy answers up to its newest synced record and
 * the service the rest; windows are inclusive and records fall on whole seconds, so the service's
 * part starts one second after the copy's ends, and the two neither overlap nor leave a gap.
 */
export function splitAtSynced(
  window: WindowMs,
  throughMs: number | null,
  serviceNewestMs: number | null,
): { copy: WindowMs | null; service: WindowMs | null } {
  const holdsNewest =
    serviceNewestMs === null ||
    (throughMs !== null && (throughMs >= serviceNewestMs || window.endMs <= throughMs));
  if (holdsNewest) return { copy: window, service: null };
  const cut = throughMs === null ? window.startMs : Math.max(window.startMs, throughMs + RECORD_STEP_MS);
  return {
    copy: cut > window.startMs ? { startMs: window.startMs, endMs: cut - RECORD_STEP_MS } : null,
    service: { startMs: cut, endMs: window.endMs },
  };
}

// systemTime has whole seconds: no record lies strictly between t and t + 1 s.
const RECORD_STEP_MS = 1000;
