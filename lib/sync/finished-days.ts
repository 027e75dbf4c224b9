import {
  type Calibration,
  type CgmAlert,
  type CgmEvent,
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

/**
 * The groups whose finished days are kept, each day in the shape of the service's answer for the
 * group (its records under the group's name), so a day and an answer are read the same way.
 */
export interface DayOf {
  egvs: FinishedDay;
  events: { events: CgmEvent[] };
  calibrations: { calibrations: Calibration[] };
  alerts: { alerts: CgmAlert[] };
}
export type DaysGroup = keyof DayOf;
export interface RecordOf {
  egvs: EgvV2;
  events: CgmEvent;
  calibrations: Calibration;
  alerts: CgmAlert;
}

// The casts below hold by DayOf's shape: each group's day has exactly its records under its name.

/** A day's (or an answer's) records of its group. */
export const recordsOf = <G extends DaysGroup>(group: G, day: DayOf[G]): RecordOf[G][] =>
  (day as unknown as Record<G, RecordOf[G][]>)[group];

/** `like` (its unit, for EGVs) with other records. */
export const withRecords = <G extends DaysGroup>(
  group: G,
  like: DayOf[G],
  records: RecordOf[G][],
): DayOf[G] => ({ ...like, [group]: records }) as DayOf[G];

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

// Events, calibrations and alerts are no larger than a reading: one estimate serves every group.
const bytesOf = <G extends DaysGroup>(group: G, day: DayOf[G]) =>
  DAY_BYTES + recordsOf(group, day).length * READING_BYTES;

interface Entry {
  connectionId: string;
  day: DayOf[DaysGroup];
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

  // Every group's days in one LRU under one budget: whichever group a view reads most keeps its days.
  get<G extends DaysGroup = "egvs">(
    owner: DaysOwner,
    dayIndex: number,
    group = "egvs" as G,
  ): DayOf[G] | undefined {
    const key = keyOf(owner, dayIndex, group);
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    // The key holds the group: the entry was set with a day of it.
    return entry.day as DayOf[G];
  }

  has(owner: DaysOwner, dayIndex: number, group: DaysGroup = "egvs"): boolean {
    return this.#entries.has(keyOf(owner, dayIndex, group));
  }

  /** Keeps a day, dropping the least recently used days beyond the budget (a day over it alone is not kept). */
  set<G extends DaysGroup = "egvs">(
    owner: DaysOwner,
    dayIndex: number,
    day: DayOf[G],
    group = "egvs" as G,
  ): void {
    const key = keyOf(owner, dayIndex, group);
    this.#remove(key);
    const bytes = bytesOf(group, day);
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

const keyOf = (owner: DaysOwner, dayIndex: number, group: DaysGroup) =>
  `${owner.connectionId}\n${owner.generation}\n${group}\n${dayIndex}`;

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

/** A record as the service times it, to the second. */
interface Timed {
  systemTime: string;
}

/** The records of a read of whole days, by day index (days without records are absent). */
export function byDay<T extends Timed>(records: readonly T[]): Map<number, T[]> {
  const days = new Map<number, T[]>();
  for (const e of records) {
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
 * The window's records from its finished days (each day's records, in day order, each day as the
 * service ordered it) and its tail; only the first and the last day can reach outside the window,
 * so only theirs are compared with its ends. Days are disjoint to the second and the tail starts
 * where they end, so a record on a boundary is in exactly one of them: none twice, none lost.
 */
export function assembleDays<T extends Timed>(
  window: WindowMs,
  days: readonly (readonly T[])[],
  tail: readonly T[],
): T[] {
  const inWindow = (e: T) => {
    const ms = parseDateTime(e.systemTime);
    return ms !== null && ms >= window.startMs && ms <= window.endMs;
  };
  const out: T[] = [];
  days.forEach((day, i) => {
    if (i === 0 || i === days.length - 1) {
      for (const e of day) if (inWindow(e)) out.push(e);
    } else out.push(...day);
  });
  for (const e of tail) out.push(e);
  return out;
}

/** Whether every part came in one unit (a patient who changed unit makes the service answer in the new one). */
export function sameUnit(parts: readonly Omit<FinishedDay, "egvs">[]): boolean {
  const [first] = parts;
  return parts.every((p) => p.unit === first?.unit && p.rateUnit === first?.rateUnit);
}

/**
 * The same for parts of any group: EGV answers say their unit, each calibration says its own
 * (the service gives them in the account's unit, so they change with it); events keep the unit
 * they were entered in and alerts have none, so theirs never disagree.
 */
export function sameUnitOf<G extends DaysGroup>(group: G, parts: readonly DayOf[G][]): boolean {
  if (group === "egvs") return sameUnit(parts as readonly FinishedDay[]);
  if (group !== "calibrations") return true;
  const units = new Set(
    parts.flatMap((p) => recordsOf("calibrations", p as DayOf["calibrations"]).map((c) => c.unit)),
  );
  return units.size <= 1;
}
