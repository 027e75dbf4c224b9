import { tzOffset } from "@date-fns/tz";
import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE } from "@/lib/cgm/datetime";
import type { SandboxUser } from "../users";

/**
 * The patient's clock: displayMs = systemMs + the UTC offset of the zone in force, where the zone
 * is the home zone, or a trip's destination while travelling (User1).
 *
 * Decisions:
 * - The phone switches zone in one step at a fixed UTC instant (arrival); the trip schedule is
 *   anchored at a fixed epoch, so a record's displayTime never changes.
 * - Offsets come from `tzOffset` of @date-fns/tz (Intl under the hood). Intl is slow, so each
 *   zone's offset is looked up once per UTC day, with the DST transition of that day (there is at
 *   most one) found by bisection to the minute.
 * - Local-time plans (meals at 07:30 local) are turned into system time by `localToSystem`; a
 *   local time that does not exist (skipped by a forward switch, e.g. flying east) is dropped or
 *   kept per the caller, and a local time that exists twice (flying west, DST end) takes the
 *   earlier instant, so no planned event happens twice.
 */

interface ZoneDay {
  startOffsetMs: number;
  /** First ms at which endOffsetMs applies, or +Infinity when the offset is constant all day. */
  switchMs: number;
  endOffsetMs: number;
}

/** Per zone, per UTC day number (a numeric key: no string building on the hot path). */
const zoneTables = new Map<string, Map<number, ZoneDay>>();
const MAX_DAYS_PER_ZONE = 20_000;
const DAY = MS_PER_DAY;
const MINUTE = MS_PER_MINUTE;
const HOUR = MS_PER_HOUR;

function rawOffsetMs(zone: string, ms: number): number {
  return tzOffset(zone, new Date(ms)) * MINUTE;
}

function zoneDay(zone: string, day: number): ZoneDay {
  let table = zoneTables.get(zone);
  if (!table) {
    table = new Map();
    zoneTables.set(zone, table);
  }
  const cached = table.get(day);
  if (cached) return cached;
  const start = day * DAY;
  const startOffsetMs = rawOffsetMs(zone, start);
  const endOffsetMs = rawOffsetMs(zone, start + DAY - 1);
  let switchMs = Number.POSITIVE_INFINITY;
  if (startOffsetMs !== endOffsetMs) {
    // Bisection to the minute: the offset at lo is the start offset, at hi the end offset.
    let lo = start;
    let hi = start + DAY - MINUTE;
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
      if (rawOffsetMs(zone, mid) === startOffsetMs) lo = mid;
      else hi = mid;
    }
    switchMs = hi;
  }
  const entry = { startOffsetMs, switchMs, endOffsetMs };
  if (table.size >= MAX_DAYS_PER_ZONE) table.clear();
  table.set(day, entry);
  return entry;
}

/** UTC offset (ms) of an IANA zone at a UTC instant. */
export function zoneOffsetMs(zone: string, systemMs: number): number {
  const d = zoneDay(zone, Math.floor(systemMs / DAY));
  return systemMs < d.switchMs ? d.startOffsetMs : d.endOffsetMs;
}

/** Index of the trip in progress at a UTC instant, or -1 when at home. */
export function tripIndexAt(user: SandboxUser, systemMs: number): number {
  const t = user.travel;
  if (!t || systemMs < t.anchorMs) return -1;
  const k = Math.floor((systemMs - t.anchorMs) / (t.periodDays * DAY));
  const into = systemMs - t.anchorMs - k * t.periodDays * DAY;
  return into < t.tripDays * DAY ? k : -1;
}

/** The zone whose clock the user's display device shows at a UTC instant. */
export function zoneAt(user: SandboxUser, systemMs: number): string {
  const k = tripIndexAt(user, systemMs);
  const t = user.travel;
  if (k < 0 || !t) return user.homeTimeZone;
  return t.destinations[k % t.destinations.length] ?? user.homeTimeZone;
}

/** displayMs − systemMs at a UTC instant. */
export function displayOffsetMs(user: SandboxUser, systemMs: number): number {
  return zoneOffsetMs(zoneAt(user, systemMs), systemMs);
}

export function displayOf(user: SandboxUser, systemMs: number): number {
  return systemMs + displayOffsetMs(user, systemMs);
}

/** Instants at which the user's clock switches zone (trip departures and returns) in [from, to). */
export function tripSwitchesBetween(user: SandboxUser, fromMs: number, toMs: number): number[] {
  const t = user.travel;
  if (!t) return [];
  const period = t.periodDays * MS_PER_DAY;
  const out: number[] = [];
  const k0 = Math.max(0, Math.floor((fromMs - t.anchorMs) / period) - 1);
  for (let k = k0; t.anchorMs + k * period < toMs; k++) {
    for (const s of [t.anchorMs + k * period, t.anchorMs + k * period + t.tripDays * MS_PER_DAY]) {
      if (s >= fromMs && s < toMs) out.push(s);
    }
  }
  return out;
}

/**
 * The UTC instant at which the user's clock reads `localMs`. When that reading never happens
 * (skipped by a forward switch): null with `skipped: "drop"`, else the instant read with the
 * offset in force before the switch (the thing still happens, shown at a later clock time).
 */
export function localToSystem(user: SandboxUser, localMs: number, skipped: "drop" | "keep"): number | null {
  // Candidate offsets: those in force anywhere the instant could lie (offsets are within −12…+14 h).
  const candidates: number[] = [];
  for (let probe = localMs - 14 * HOUR; probe <= localMs + 12 * HOUR; probe += 2 * HOUR) {
    const o = displayOffsetMs(user, probe);
    if (!candidates.includes(o)) candidates.push(o);
  }
  let best: number | null = null;
  for (const o of candidates) {
    const s = localMs - o;
    if (displayOffsetMs(user, s) === o && (best === null || s < best)) best = s;
  }
  if (best !== null || skipped === "drop") return best;
  // Skipped: read it with the smaller offset, the one in force before the forward jump; the
  // instant then lies just after the jump and is shown at a later clock time.
  return localMs - Math.min(...candidates);
}
