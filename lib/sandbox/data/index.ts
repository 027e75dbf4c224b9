import { MS_PER_DAY } from "@/lib/cgm/datetime";
import type { SandboxCalibration, SandboxEgv, SandboxEvent, SandboxV3OnlyEvent } from "../records";
import type { SandboxUser } from "../users";
import { displayOf } from "./clock";
import { HISTORY_START_MS, SMOOTHING_LAG_MS } from "./constants";
import {
  calibrationDay,
  egvDay,
  eventDay,
  NULL_RATE,
  NULL_SMOOTHED,
  NULL_TREND,
  TREND_BY_INDEX,
  v3OnlyEventDay,
} from "./day";

/**
 * The live synthetic data of the sandbox users: pure functions of (user, window, now).
 *
 * Window semantics (all generators): every record with start ≤ systemMs ≤ end and systemMs ≤ now,
 * ascending by systemMs, nothing before HISTORY_START_MS. Records are cut from per-UTC-day
 * generations (see day.ts), so the same record comes out whatever window is asked, in any process.
 * The one thing that changes with `now` is spec 2.1 rule 5: a reading's smoothedMgdl is null while
 * now < systemMs + SMOOTHING_LAG_MS (15 min) and set from then on; realtimeMgdl never changes.
 *
 * Module map: users.ts (who), constants.ts, random.ts (hashes, PRNG, smooth noise), clock.ts
 * (zones, trips, DST), sessions.ts (sensor wear, warm-up, signal loss), model.ts (glucose
 * physiology), plan.ts (what happens on a local day), day.ts (records of a UTC day and the cache),
 * devices.ts (device records and alert settings).
 */

export { generateAlerts } from "./alerts";
export { displayOf } from "./clock";
export { HISTORY_START_MS, READING_INTERVAL_MS, SMOOTHING_LAG_MS, WARMUP_MS } from "./constants";
export { clearDayCache, dayCacheSize } from "./day";
export { devicesV1, devicesV2, devicesV3, rotatingValues, scheduleAt } from "./devices";
export { transmitterAt, transmitterTicks } from "./transmitter";
export { v3Times, v3UtcTime } from "./v3-time";

// Module-local copies for the hot loop (imported bindings can be getters once bundled).
const DAY = MS_PER_DAY;
const LAG = SMOOTHING_LAG_MS;
const NO_SMOOTHED = NULL_SMOOTHED;
const NO_RATE = NULL_RATE;
const NO_TREND = NULL_TREND;
const TREND_OF = TREND_BY_INDEX;

function dayRange(startMs: number, endMs: number, nowMs: number): [number, number] | null {
  const from = Math.max(startMs, HISTORY_START_MS);
  const to = Math.min(endMs, nowMs);
  return to < from ? null : [from, to];
}

export function generateEgvs(user: SandboxUser, startMs: number, endMs: number, nowMs: number): SandboxEgv[] {
  const range = user.hasData ? dayRange(startMs, endMs, nowMs) : null;
  if (!range) return [];
  const [from, to] = range;
  const out: SandboxEgv[] = [];
  const smoothedUntil = nowMs - LAG; // readings at or before this have their smoothed value
  for (let d = Math.floor(from / DAY); d <= Math.floor(to / DAY); d++) {
    const day = egvDay(user, d);
    const { count, systemMs, offsetMs, realtime, smoothed, trend, rate10 } = day;
    let i = 0;
    if (d * DAY < from) {
      // Binary search for the first reading ≥ from.
      let lo = 0;
      let hi = count;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (systemMs[mid]! < from) lo = mid + 1;
        else hi = mid;
      }
      i = lo;
    }
    for (; i < count; i++) {
      const t = systemMs[i]!;
      if (t > to) break;
      const rt = realtime[i]!;
      const sm = smoothed[i]!;
      const r = rate10[i]!;
      const tr = trend[i]!;
      out.push({
        systemMs: t,
        displayMs: t + offsetMs[i]!,
        realtimeMgdl: rt,
        smoothedMgdl: sm === NO_SMOOTHED || t > smoothedUntil ? null : sm,
        status: rt === 39 ? "low" : rt === 401 ? "high" : null,
        trend: tr === NO_TREND ? null : TREND_OF[tr]!,
        trendRateMgdlPerMin: r === NO_RATE ? null : r / 10,
      });
    }
  }
  return out;
}

function collect<T extends { systemMs: number }>(
  user: SandboxUser,
  startMs: number,
  endMs: number,
  nowMs: number,
  ofDay: (user: SandboxUser, day: number) => T[],
): T[] {
  const range = user.hasData ? dayRange(startMs, endMs, nowMs) : null;
  if (!range) return [];
  const [from, to] = range;
  const out: T[] = [];
  for (let d = Math.floor(from / DAY); d <= Math.floor(to / DAY); d++) {
    for (const r of ofDay(user, d)) if (r.systemMs >= from && r.systemMs <= to) out.push(r);
  }
  return out;
}

/** Logged events (deleted ones included, with eventStatus "deleted"). Records are frozen. */
export function generateEvents(
  user: SandboxUser,
  startMs: number,
  endMs: number,
  nowMs: number,
): SandboxEvent[] {
  return collect(user, startMs, endMs, nowMs, eventDay);
}

/** Events only v3 serves (bloodGlucose, notes), ascending. Records are frozen. */
export function generateV3OnlyEvents(
  user: SandboxUser,
  startMs: number,
  endMs: number,
  nowMs: number,
): SandboxV3OnlyEvent[] {
  return collect(user, startMs, endMs, nowMs, v3OnlyEventDay);
}

/** Calibrations (G4/G5 users only; the others have none). Records are frozen. */
export function generateCalibrations(
  user: SandboxUser,
  startMs: number,
  endMs: number,
  nowMs: number,
): SandboxCalibration[] {
  return collect(user, startMs, endMs, nowMs, calibrationDay);
}

export interface RecordBounds {
  startMs: number;
  endMs: number;
  startDisplayMs: number;
  endDisplayMs: number;
}

export interface DataRange {
  egvs: RecordBounds | null;
  events: RecordBounds | null;
  calibrations: RecordBounds | null;
  /** displayMs of a record at this systemMs (the clock in force then). */
  displayOf: (systemMs: number) => number;
}

type TimesOfDay = (day: number) => { count: number; at: (i: number) => number };

/** The first and last systemMs that a day-wise source yields in [fromMs, now] (fromMs ≥ the history start). */
function bounds(
  user: SandboxUser,
  nowMs: number,
  timesOfDay: TimesOfDay,
  fromMs = HISTORY_START_MS,
): RecordBounds | null {
  if (!user.hasData || nowMs < fromMs) return null;
  const firstDay = Math.floor(fromMs / MS_PER_DAY);
  const lastDay = Math.floor(nowMs / MS_PER_DAY);
  let end: number | null = null;
  for (let d = lastDay; d >= firstDay && end === null; d--) {
    const day = timesOfDay(d);
    for (let i = day.count - 1; i >= 0; i--) {
      const t = day.at(i);
      if (t <= nowMs && t >= fromMs) {
        end = t;
        break;
      }
    }
  }
  if (end === null) return null;
  let start: number | null = null;
  for (let d = firstDay; d <= lastDay && start === null; d++) {
    const day = timesOfDay(d);
    for (let i = 0; i < day.count; i++) {
      const t = day.at(i);
      if (t >= fromMs && t <= nowMs) {
        start = t;
        break;
      }
    }
  }
  if (start === null) return null;
  return {
    startMs: start,
    endMs: end,
    startDisplayMs: displayOf(user, start),
    endDisplayMs: displayOf(user, end),
  };
}

/**
 * Spec 2.5: the first and last record of each group, as the generators would return them for
 * [HISTORY_START_MS, now]. Cheap: the last record is found scanning back from now day by day, the
 * first scanning forward from the history start (both through the day cache).
 */
export function dataRange(user: SandboxUser, nowMs: number): DataRange {
  const list = (rows: Array<{ systemMs: number }>) => ({
    count: rows.length,
    at: (i: number) => rows[i]!.systemMs,
  });
  return {
    egvs: bounds(user, nowMs, (d) => {
      const day = egvDay(user, d);
      return { count: day.count, at: (i) => day.systemMs[i]! };
    }),
    events: bounds(user, nowMs, (d) => list(eventDay(user, d))),
    calibrations:
      user.profile.calibrationsPerDay > 0 ? bounds(user, nowMs, (d) => list(calibrationDay(user, d))) : null,
    displayOf: (systemMs) => displayOf(user, systemMs),
  };
}

/**
 * v3 dataRange (service-v3-notes §3.6): as v2's, the events group counting the events only v3
 * serves too, and with `lastSyncTime` only what is newer than it (systemTime after it): a group
 * with nothing newer is null.
 */
export function dataRangeV3(user: SandboxUser, nowMs: number, lastSyncMs: number | null): DataRange {
  const fromMs =
    lastSyncMs === null ? HISTORY_START_MS : Math.max(HISTORY_START_MS, Math.floor(lastSyncMs) + 1);
  const list = (times: number[]) => ({ count: times.length, at: (i: number) => times[i]! });
  const mergedEvents: TimesOfDay = (d) => {
    const times = [...eventDay(user, d), ...v3OnlyEventDay(user, d)].map((e) => e.systemMs);
    return list(times.sort((a, b) => a - b));
  };
  return {
    egvs: bounds(
      user,
      nowMs,
      (d) => {
        const day = egvDay(user, d);
        return { count: day.count, at: (i) => day.systemMs[i]! };
      },
      fromMs,
    ),
    events: bounds(user, nowMs, mergedEvents, fromMs),
    calibrations:
      user.profile.calibrationsPerDay > 0
        ? bounds(user, nowMs, (d) => list(calibrationDay(user, d).map((c) => c.systemMs)), fromMs)
        : null,
    displayOf: (systemMs) => displayOf(user, systemMs),
  };
}
