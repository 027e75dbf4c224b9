import {
  type EgvsV2Response,
  type EgvV2,
  MS_PER_DAY,
  MS_PER_SECOND,
  parseDateTime,
  type WindowMs,
} from "@/lib/cgm";

/**
 * Readings of finished days kept in memory, so that a view that reads a long window again (a range
 * switch, the next navigation) fetches only what is new. A day (UTC, by systemTime) is finished
 * once it ended more than the sync's longest lookback before the service's newest reading: the
 * service may still fill in a smoothed value or change a record within that lookback (which is why
 * the sync re-reads it, lib/sync/plan.ts), never before it. Days are kept per owner: one
 * connection under one authorization (a reconnect, possibly to another account, is a new owner),
 * never shared between connections. An LRU bounded by an estimate of the bytes held, per process.
 */

/** The readings of one finished day, in the unit the service answered them in. */
export type FinishedDay = EgvsV2Response;

/** Whose days: one connection under one authorization. */
export interface DaysOwner {
  connectionId: string;
  /** Changes when the connection is authorized again (its authorizedAt). */
  generation: string;
}

/**
 * An estimate of what one reading holds in memory as a parsed object (eight fields, two
 * 19-character strings, a trend string): what the budget counts, not an exact measure.
 */
export const READING_BYTES = 400;
const DAY_BYTES = 200;

const bytesOf = (day: FinishedDay) => DAY_BYTES + day.egvs.length * READING_BYTES;

interface Entry {
  connectionId: string;
  day: FinishedDay;
  bytes: number;
}

export class FinishedDays {
  /** Least recently used first (a Map keeps insertion order; a use moves an entry to the end). */
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  constructor(readonly budgetBytes: number) {}

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(owner: DaysOwner, dayIndex: number): FinishedDay | undefined {
    const key = keyOf(owner, dayIndex);
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.day;
  }

  has(owner: DaysOwner, dayIndex: number): boolean {
    return this.#entries.has(keyOf(owner, dayIndex));
  }

  /** Keeps a day, dropping the least recently used days beyond the budget (a day over it alone is not kept). */
  set(owner: DaysOwner, dayIndex: number, day: FinishedDay): void {
    const key = keyOf(owner, dayIndex);
    this.#remove(key);
    const bytes = bytesOf(day);
    if (bytes > this.budgetBytes) return;
    this.#entries.set(key, { connectionId: owner.connectionId, day, bytes });
    this.#bytes += bytes;
    for (const [oldest] of this.#entries) {
      if (this.#bytes <= this.budgetBytes) break;
      this.#remove(oldest);
    }
  }

  /** Drops every day of a connection, under any authorization (disconnected, revoked). */
  forget(connectionId: string): void {
    for (const [key, entry] of this.#entries) if (entry.connectionId === connectionId) this.#remove(key);
  }

  #remove(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}

const keyOf = (owner: DaysOwner, dayIndex: number) =>
  `${owner.connectionId}\n${owner.generation}\n${dayIndex}`;

export const dayIndexOf = (ms: number) => Math.floor(ms / MS_PER_DAY);

/** The first instant that is not in a finished day: the start of the day `lookbackMs` before `newestMs`. */
export const finishedBeforeMs = (newestMs: number, lookbackMs: number) =>
  dayIndexOf(newestMs - lookbackMs) * MS_PER_DAY;

/**
 * How a read of `window` goes with finished days: the days it covers before `finishedBefore`
 * (first and last index, both included), the span of whole days among them not held
 * (`missing`, from the first to the last such day), and the part from `finishedBefore` on, read
 * as before (`tail`). Null when the window has no finished day.
 */
export interface DaysPlan {
  firstDay: number;
  lastDay: number;
  missing: WindowMs | null;
  tail: WindowMs | null;
}

export function planDaysRead(
  window: WindowMs,
  finishedBefore: number,
  held: (dayIndex: number) => boolean,
): DaysPlan | null {
  if (window.startMs >= finishedBefore || window.endMs < window.startMs) return null;
  const firstDay = dayIndexOf(window.startMs);
  const lastDay = dayIndexOf(Math.min(window.endMs, finishedBefore - 1));
  let firstMissing: number | null = null;
  let lastMissing: number | null = null;
  for (let d = firstDay; d <= lastDay; d++) {
    if (held(d)) continue;
    firstMissing ??= d;
    lastMissing = d;
  }
  // Whole days (the service's windows include both ends, to the second), so each can be kept:
  // at most the window's two partial days more than it asked (daySpans reads them).
  const missing =
    firstMissing === null || lastMissing === null
      ? null
      : { startMs: firstMissing * MS_PER_DAY, endMs: (lastMissing + 1) * MS_PER_DAY - MS_PER_SECOND };
  return {
    firstDay,
    lastDay,
    missing,
    tail: window.endMs >= finishedBefore ? { startMs: finishedBefore, endMs: window.endMs } : null,
  };
}

/**
 * A span of whole days cut into consecutive reads of whole days, each no longer than `maxMs` (at
 * least one day): the days a window covers can be longer than the window, and longer than the
 * service client lets one read be, while no part is longer than the window itself.
 */
export function daySpans(span: WindowMs, maxMs: number): WindowMs[] {
  const daysPerRead = Math.max(1, Math.floor(maxMs / MS_PER_DAY));
  const spans: WindowMs[] = [];
  for (let start = span.startMs; start <= span.endMs; start += daysPerRead * MS_PER_DAY)
    spans.push({
      startMs: start,
      endMs: Math.min(span.endMs, start + daysPerRead * MS_PER_DAY - MS_PER_SECOND),
    });
  return spans;
}

/** The readings of a read of whole days, by day index (days without readings are absent). */
export function byDay(egvs: readonly EgvV2[]): Map<number, EgvV2[]> {
  const days = new Map<number, EgvV2[]>();
  for (const e of egvs) {
    const ms = parseDateTime(e.systemTime);
    if (ms === null) continue;
    const d = dayIndexOf(ms);
    const day = days.get(d);
    if (day) day.push(e);
    else days.set(d, [e]);
  }
  return days;
}

/**
 * The window's readings from its finished days (in day order, each day as the service ordered it)
 * and its tail; only the first and the last day can reach outside the window, so only theirs are
 * compared with its ends.
 */
export function assembleDays(
  window: WindowMs,
  days: readonly FinishedDay[],
  tail: readonly EgvV2[],
): EgvV2[] {
  const inWindow = (e: EgvV2) => {
    const ms = parseDateTime(e.systemTime);
    return ms !== null && ms >= window.startMs && ms <= window.endMs;
  };
  const out: EgvV2[] = [];
  days.forEach((day, i) => {
    if (i === 0 || i === days.length - 1) {
      for (const e of day.egvs) if (inWindow(e)) out.push(e);
    } else out.push(...day.egvs);
  });
  for (const e of tail) out.push(e);
  return out;
}

/** Whether every part came in one unit (a patient who changed unit makes the service answer in the new one). */
export function sameUnit(parts: readonly Omit<FinishedDay, "egvs">[]): boolean {
  const [first] = parts;
  return parts.every((p) => p.unit === first?.unit && p.rateUnit === first?.rateUnit);
}
