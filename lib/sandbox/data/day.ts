import {
  MS_PER_DAY,
  MS_PER_HOUR,
  MS_PER_MINUTE,
  SENTINEL_HIGH_MGDL,
  SENTINEL_LOW_MGDL,
  TRENDS,
  type Trend,
  trendForRate,
} from "@/lib/cgm";
import type { SandboxCalibration, SandboxEvent, SandboxV3OnlyEvent } from "../records";
import type { SandboxUser } from "../users";
import { displayOf, displayOffsetMs, zoneOffsetMs } from "./clock";
import { EFFECT_LOOKBACK_MS, HISTORY_START_MS, READING_INTERVAL_MS, READINGS_PER_DAY } from "./constants";
import { Lru } from "./lru";
import { backgroundAt, type Effect, effectsSumAt, PART, soft, tracksOf } from "./model";
import { calibrationTimesBetween, effectsBetween, eventsBetween } from "./plan";
import { gaussFromHash, mix, PURPOSE, Rng, unit, uuidFromText } from "./random";
import { seedOf } from "./seed";
import { gapsOfDay, sessionsBetween } from "./sessions";

/**
 * One UTC day (of systemTime) of a user's records, generated in one go and cached.
 *
 * A day is a pure function of (user, day): it looks two readings back and one ahead into its
 * neighbours (trend, smoothing) by evaluating them, not by reading other cached days, so a day
 * never depends on what was asked before. The only dependence on "now" (the cut-off and the
 * smoothing lag of spec 2.1 rule 5) is applied when records are read out (see index.ts), so even
 * today's entry is computed in full (its future part is never served) and cached like any other.
 *
 * EGVs are kept compact (typed arrays, ~3.5 KB per day instead of ~40 KB of objects), so the LRU
 * can hold every day of every user (seven users with data, about 5,000 entries, ~18 MB) and objects
 * are only made for what is served.
 *
 * Reading rules:
 * - realtime = round(soft(model) + sensor noise + compression artifact), below 40 → 39 (status
 *   "low"), above 400 → 401 (status "high").
 * - rate = (v[i] − v[i−2]) / 10 min over the last three readings (the least-squares slope of three
 *   equally spaced points); integer values make it exactly one decimal. trend = trendForRate(rate).
 *   notComputable (rate null) when one of the two previous readings is missing (session start,
 *   after a gap) or any of the three is a sentinel; rateOutOfRange (rate null) beyond ±8; G4
 *   shows "none" (rate null) in rare 30-minute stretches.
 * - smoothed = round(mean of v[i−1], v[i], v[i+1]) when all three exist without a gap, within the
 *   session, and none is a sentinel; never for G4/G5.
 * - Compression artifacts (the user lies on the sensor at night, ~1 night in 12–20): readings
 *   drop by up to 55–110 mg/dL (never below ~45) within 10 minutes, stay down 10–30 minutes and
 *   come back; they make the rare rateOutOfRange (|rate| > 8 needs a drop of 80+ in 10 minutes).
 * - Sentinel readings (39/401) get trend "notComputable" with a null rate, and so does any reading
 *   whose rate would involve a sentinel: a clipped value has no meaningful slope.
 */

// Module-local copies: imported bindings are getters in some bundlers, and these sit in hot loops.
const DAY = MS_PER_DAY;
const MINUTE = MS_PER_MINUTE;
const STEP = READING_INTERVAL_MS;
const PER_DAY = READINGS_PER_DAY;
const LOW = SENTINEL_LOW_MGDL;
const HIGH = SENTINEL_HIGH_MGDL;

const rateToTrend = trendForRate;
const offsetAt = displayOffsetMs;
const background = backgroundAt;
const sumOfEffects = effectsSumAt;
const bend = soft;
const normal = gaussFromHash;
const hash = mix;
const uniform = unit;
const TREND_INDEX: Readonly<Record<string, number>> = Object.fromEntries(TRENDS.map((t, i) => [t, i]));

const NULL_SMOOTHED = -1;
const NULL_RATE = -32768;
const NULL_TREND = -1;

export interface EgvDay {
  count: number;
  /** systemMs of each reading. */
  systemMs: Float64Array;
  /** displayMs − systemMs, ms. */
  offsetMs: Float64Array;
  realtime: Int16Array;
  /** NULL_SMOOTHED when there is none (ever). */
  smoothed: Int16Array;
  /** Index into TRENDS, or NULL_TREND. */
  trend: Int8Array;
  /** Rate × 10 (mg/dL/min), or NULL_RATE. */
  rate10: Int16Array;
}

export interface DayEntry {
  egvs?: EgvDay;
  events?: SandboxEvent[];
  calibrations?: SandboxCalibration[];
  v3OnlyEvents?: SandboxV3OnlyEvent[];
}

const DAY_CACHE_CAPACITY = 6000;
const days = new Lru<string, DayEntry>(DAY_CACHE_CAPACITY);

function entryOf(user: SandboxUser, day: number): DayEntry {
  const key = `${user.username}#${day}`;
  let entry = days.get(key);
  if (!entry) {
    entry = {};
    days.set(key, entry);
  }
  return entry;
}

/** The trends by index, as stored in EgvDay.trend. */
export const TREND_BY_INDEX: readonly Trend[] = [...TRENDS];
export { NULL_RATE, NULL_SMOOTHED, NULL_TREND };

interface Artifact {
  startMs: number;
  depth: number;
  plateau: number;
}

function compressionsOfDay(user: SandboxUser, seed: number, day: number): Artifact[] {
  const p = user.profile.compressionPerNight;
  if (p <= 0) return [];
  const rng = new Rng(mix(seed, PURPOSE.compression, day));
  if (!rng.chance(p)) return [];
  // 01:00–05:00 on the home clock of that day.
  const localMidnight = day * DAY - zoneOffsetMs(user.homeTimeZone, day * DAY + 12 * MS_PER_HOUR);
  const start = localMidnight + rng.between(1, 5) * MS_PER_HOUR;
  const grid = user.sensor.gridOffsetSeconds * 1000;
  const startMs = Math.round((start - grid) / READING_INTERVAL_MS) * READING_INTERVAL_MS + grid;
  return [{ startMs, depth: rng.between(55, 110), plateau: rng.int(2, 6) }];
}

/**
 * How far a compression artifact pulls the reading at t down from g: a fraction of its depth, and
 * never below ~45 mg/dL (a pressed sensor reads low, not impossibly low).
 */
function artifactAt(artifacts: readonly Artifact[], t: number, g: number): number {
  for (const a of artifacts) {
    const i = Math.round((t - a.startMs) / STEP);
    if (i < 0 || i > a.plateau + 2) continue;
    const depth = Math.min(a.depth, Math.max(0, g - 45));
    if (i === 0) return -0.45 * depth;
    if (i <= a.plateau + 1) return -depth;
    return -0.5 * depth;
  }
  return 0;
}

/** Solves the depth of every dip in the list (once per plan object), see model.ts. */
export function solveDips(user: SandboxUser, seed: number, effects: readonly Effect[]): void {
  for (const e of effects) {
    if (!e.hasDip || e.depth !== undefined) continue;
    const dip = e.parts.find((part) => part.kind === PART.dip);
    if (!dip) continue;
    const nadir = e.t + Math.round((dip.offsetMin + dip.p1) * MINUTE);
    const around = effectsBetween(user, nadir - EFFECT_LOOKBACK_MS, nadir);
    const raw =
      backgroundAt(user, seed, nadir, displayOf(user, nadir)) + effectsSumAt(user, around, nadir, false);
    e.depth = Math.max(0, raw - dip.amount);
  }
}

/** The physiological glucose (no sensor error) at t, given the effects around it. */
export function trueGlucoseAt(
  user: SandboxUser,
  seed: number,
  effects: readonly Effect[],
  t: number,
): number {
  return soft(backgroundAt(user, seed, t, displayOf(user, t)) + effectsSumAt(user, effects, t, true));
}

function emptyDay(): EgvDay {
  return {
    count: 0,
    systemMs: new Float64Array(0),
    offsetMs: new Float64Array(0),
    realtime: new Int16Array(0),
    smoothed: new Int16Array(0),
    trend: new Int8Array(0),
    rate10: new Int16Array(0),
  };
}

const NOT_COMPUTABLE = TREND_INDEX.notComputable!;
const RATE_OUT_OF_RANGE = TREND_INDEX.rateOutOfRange!;
const NO_ARROW = TREND_INDEX.none!;
const isSentinel = (v: number) => v === LOW || v === HIGH;

function buildEgvDay(user: SandboxUser, day: number): EgvDay {
  const seed = seedOf(user);
  const p = user.profile;
  const grid0 = day * DAY + user.sensor.gridOffsetSeconds * 1000;
  // Slots j = −2 … 288 (index j + 2): two readings of the day before, one of the day after.
  const n = PER_DAY + 3;
  const times = new Float64Array(n);
  for (let k = 0; k < n; k++) times[k] = grid0 + (k - 2) * STEP;
  const firstT = times[0]!;
  const lastT = times[n - 1]!;

  const sessions = sessionsBetween(user, firstT, lastT);
  if (sessions.length === 0) return emptyDay();
  const gaps = [...gapsOfDay(user, day - 1), ...gapsOfDay(user, day), ...gapsOfDay(user, day + 1)];
  const present = new Uint8Array(n);
  let any = false;
  for (let k = 0; k < n; k++) {
    const t = times[k]!;
    if (t < HISTORY_START_MS) continue;
    let inSession = false;
    for (const s of sessions) if (t >= s.firstMs && t <= s.lastMs) inSession = true;
    if (!inSession) continue;
    let inGap = false;
    for (const [a, b] of gaps) if (t >= a && t <= b) inGap = true;
    if (inGap) continue;
    present[k] = 1;
    if (k >= 2 && k < n - 1) any = true;
  }
  if (!any) return emptyDay();

  const candidates = effectsBetween(user, firstT - EFFECT_LOOKBACK_MS, lastT);
  solveDips(user, seed, candidates);
  // Only groups still acting during the day matter to the per-reading sums.
  const effects = candidates.filter((e) => e.endMs >= firstT);
  const artifacts = [
    ...compressionsOfDay(user, seed, day - 1),
    ...compressionsOfDay(user, seed, day),
    ...compressionsOfDay(user, seed, day + 1),
  ];
  const [slowSd, whiteSd] = p.sensorNoiseMgdl;
  const sensorTrack = tracksOf(user, seed).sensor;
  const noisePurpose = PURPOSE.noise;
  const values = new Int16Array(n);
  const offsets = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    if (!present[k]) continue;
    const t = times[k]!;
    const offset = offsetAt(user, t);
    offsets[k] = offset;
    const truth = bend(background(user, seed, t, t + offset) + sumOfEffects(user, effects, t, true));
    const g =
      truth +
      slowSd * sensorTrack.at(t) +
      whiteSd * normal(hash(seed, noisePurpose, Math.round(t / STEP))) +
      artifactAt(artifacts, t, truth);
    const v = Math.round(g);
    values[k] = v < 40 ? LOW : v > 400 ? HIGH : v;
  }

  const smoothing = user.generation === "g6" || user.generation === "g7";
  const noArrowP = p.noArrowProbability;
  const noArrowPurpose = PURPOSE.noArrow;
  const systemMs = new Float64Array(PER_DAY);
  const offsetMs = new Float64Array(PER_DAY);
  const realtime = new Int16Array(PER_DAY);
  const smoothedOut = new Int16Array(PER_DAY);
  const trendOut = new Int8Array(PER_DAY);
  const rateOut = new Int16Array(PER_DAY);
  let c = 0;
  for (let k = 2; k < n - 1; k++) {
    if (!present[k]) continue;
    const t = times[k]!;
    const v = values[k]!;
    systemMs[c] = t;
    offsetMs[c] = offsets[k]!;
    realtime[c] = v;
    // Sessions are separated by at least the warm-up, so "previous slot present" means "same
    // session, no gap".
    const prev = present[k - 1] === 1;
    const prev2 = prev && present[k - 2] === 1;
    const next = present[k + 1] === 1;
    let trend = NOT_COMPUTABLE;
    let rate10 = NULL_RATE;
    if (prev2 && !isSentinel(v) && !isSentinel(values[k - 1]!) && !isSentinel(values[k - 2]!)) {
      const r10 = v - values[k - 2]!; // (v − v₋₂) / 10 min, times 10
      const arrow = rateToTrend(r10 / 10);
      if (arrow === "rateOutOfRange") trend = RATE_OUT_OF_RANGE;
      else if (noArrowP > 0 && uniform(hash(seed, noArrowPurpose, Math.floor(t / (30 * MINUTE)))) < noArrowP)
        trend = NO_ARROW;
      else {
        trend = TREND_INDEX[arrow]!;
        rate10 = r10;
      }
    }
    trendOut[c] = trend;
    rateOut[c] = rate10;
    let smoothed = NULL_SMOOTHED;
    if (smoothing && prev && next) {
      const a = values[k - 1]!;
      const b = values[k + 1]!;
      if (!isSentinel(a) && !isSentinel(v) && !isSentinel(b)) smoothed = Math.round((a + v + b) / 3);
    }
    smoothedOut[c] = smoothed;
    c++;
  }
  return {
    count: c,
    systemMs: systemMs.slice(0, c),
    offsetMs: offsetMs.slice(0, c),
    realtime: realtime.slice(0, c),
    smoothed: smoothedOut.slice(0, c),
    trend: trendOut.slice(0, c),
    rate10: rateOut.slice(0, c),
  };
}

/** The EGVs of UTC day `day` (all of it, future included: the caller cuts at now). */
export function egvDay(user: SandboxUser, day: number): EgvDay {
  const entry = entryOf(user, day);
  if (!entry.egvs) entry.egvs = buildEgvDay(user, day);
  return entry.egvs;
}

/** The logged events of UTC day `day`, ascending. */
export function eventDay(user: SandboxUser, day: number): SandboxEvent[] {
  const entry = entryOf(user, day);
  if (!entry.events) {
    const from = Math.max(day * DAY, HISTORY_START_MS);
    entry.events = user.hasData ? eventsBetween(user, from, day * DAY + DAY - 1) : [];
  }
  return entry.events;
}

/** A fingerstick at t: the true glucose with meter error (SD 5%), whole mg/dL, meter range 20–600. */
function meterReadingAt(user: SandboxUser, seed: number, effects: readonly Effect[], t: number): number {
  const truth = trueGlucoseAt(user, seed, effects, t);
  const meter = truth * (1 + 0.05 * gaussFromHash(mix(seed, PURPOSE.meter, Math.round(t / 1000))));
  return Math.min(600, Math.max(20, Math.round(meter)));
}

/** What people write in an app's notes (v3 notes events). */
const NOTES = [
  "New sensor on the left arm",
  "Pizza night",
  "Forgot to pre-bolus",
  "Stressful day at work",
  "Long walk with the dog",
  "Felt shaky before lunch",
  "Sensor site itchy",
  "Birthday cake",
  "Travelling tomorrow",
  "Changed insulin pen",
] as const;

/**
 * The v3-only events of UTC day `day` (profile `v3OnlyEvents`): a few fingersticks logged as
 * bloodGlucose events (the meter reads the true glucose, as for calibrations) and notes, between
 * 07:00 and 23:00 on the display clock. Their own stream of randomness, so nothing v1 or v2 serves
 * changes because they exist.
 */
export function v3OnlyEventDay(user: SandboxUser, day: number): SandboxV3OnlyEvent[] {
  const entry = entryOf(user, day);
  if (entry.v3OnlyEvents) return entry.v3OnlyEvents;
  const plan = user.profile.v3OnlyEvents;
  const list: SandboxV3OnlyEvent[] = [];
  if (user.hasData && plan) {
    const seed = seedOf(user);
    const rng = new Rng(mix(seed, PURPOSE.v3Events, day));
    const kinds: Array<"bloodGlucose" | "notes"> = [];
    // Up to three of each a day, each with a third of the daily mean.
    for (let i = 0; i < 3; i++) if (rng.chance(plan.meterChecksPerDay / 3)) kinds.push("bloodGlucose");
    for (let i = 0; i < 3; i++) if (rng.chance(plan.notesPerDay / 3)) kinds.push("notes");
    for (const kind of kinds) {
      const t = day * DAY + rng.int(0, 86_399) * 1000;
      const note = NOTES[rng.int(0, NOTES.length - 1)]!;
      const displayMs = displayOf(user, t);
      const hour = Math.floor((((displayMs % DAY) + DAY) % DAY) / MS_PER_HOUR);
      if (t < HISTORY_START_MS || hour < 7 || hour >= 23) continue;
      let value: string = note;
      if (kind === "bloodGlucose") {
        const effects = effectsBetween(user, t - EFFECT_LOOKBACK_MS, t);
        solveDips(user, seed, effects);
        value = String(meterReadingAt(user, seed, effects, t));
      }
      list.push(
        Object.freeze({
          systemMs: t,
          displayMs,
          eventType: kind,
          value,
          unit: kind === "bloodGlucose" ? "mg/dL" : null,
          eventId: uuidFromText(`${user.username}|${t}|${kind}|`),
        }),
      );
    }
    list.sort((a, b) => a.systemMs - b.systemMs || (a.eventId < b.eventId ? -1 : 1));
  }
  entry.v3OnlyEvents = list;
  return list;
}

/**
 * The calibrations of UTC day `day`, ascending: the two start-up calibrations at the end of each
 * warm-up (4 and 2 minutes before the session's first reading) and the planned ones. A fingerstick
 * reads the true glucose with meter error (SD 5%, rounded to whole mg/dL, meter range 20–600).
 */
export function calibrationDay(user: SandboxUser, day: number): SandboxCalibration[] {
  const entry = entryOf(user, day);
  if (entry.calibrations) return entry.calibrations;
  const list: SandboxCalibration[] = [];
  if (user.hasData && user.profile.calibrationsPerDay > 0) {
    const from = Math.max(day * DAY, HISTORY_START_MS);
    const to = day * DAY + DAY - 1;
    const times = calibrationTimesBetween(user, from, to);
    for (const s of sessionsBetween(user, from, to + 10 * MINUTE)) {
      for (const t of [s.firstMs - 4 * MINUTE, s.firstMs - 2 * MINUTE])
        if (t >= from && t <= to) times.push(t);
    }
    times.sort((a, b) => a - b);
    if (times.length > 0) {
      const seed = seedOf(user);
      const effects = effectsBetween(user, from - EFFECT_LOOKBACK_MS, to);
      solveDips(user, seed, effects);
      for (const t of times) {
        list.push(
          Object.freeze({
            systemMs: t,
            displayMs: displayOf(user, t),
            valueMgdl: meterReadingAt(user, seed, effects, t),
          }),
        );
      }
    }
  }
  entry.calibrations = list;
  return list;
}

/** For tests and measurements. */
export function clearDayCache(): void {
  days.clear();
}
export function dayCacheSize(): number {
  return days.size;
}
