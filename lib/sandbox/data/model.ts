import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE } from "@/lib/cgm/datetime";
import type { SandboxUser } from "../users";
import { NoiseTrack, PURPOSE } from "./random";

/**
 * The glucose model: a stateless superposition, so that the glucose at any instant is a pure
 * function of the instant and of the planned inputs of the day before. That is what lets a day
 * be generated on its own (and cached) and still agree with its neighbours to the reading.
 *
 *   glucose(t) = soft( base + dawn(local time) + drift(t) + Σ effect_i(t − t_i) )
 *
 * Inputs come in groups whose parts add up (all in mg/dL):
 * - carbs: +grams × (ISF / carb ratio) × A(τ), A the Erlang-2 absorption (rate peaks at k min:
 *   45 for meals, 30 for snacks, 12 for glucose tablets);
 * - insulin: −units × ISF × I(τ), I the exponential insulin-action curve of OpenAPS/Loop for
 *   rapid-acting insulin with peak 75 min and duration 300 min;
 * - a meal, its bolus and any later correction form one group. Its net residual (a bolus that did
 *   not match the meal) fades from 4 h after the last part with a 150-min time constant, standing
 *   in for basal adjustment and counter-regulation. Fading the group, not each part, matters: a
 *   missed bolus corrected 2 h later must bring glucose down, not crash it once the meal "fades";
 * - exercise: a smooth fall over the session, then recovery (time constant 90–150 min);
 * - planned lows ("dips"): a smooth fall to a nadir chosen in advance, then a slow recovery, or a
 *   faster one with the treatment (fast carbs) in the same group, whose rebound fades after an
 *   hour. The depth is solved at run time so that the sensor reads the planned nadir whatever
 *   else was going on (day.ts);
 * - bumps: raised plateaus (illness, stress, menstrual cycle) or troughs (alcohol at night).
 * `soft` bends the extremes (below 70 and above 300) the way physiology does, so values reach
 * the sentinels 39 and 401 only in deep lows and after big missed boluses.
 */

const DAY = MS_PER_DAY;
const MINUTE = MS_PER_MINUTE;

export const PART = { carbs: 0, insulin: 1, exercise: 2, dip: 3, bump: 4 } as const;
export type PartKind = (typeof PART)[keyof typeof PART];

/** One input of a group, `offsetMin` after the group's start. */
export interface Part {
  kind: PartKind;
  offsetMin: number;
  /** carbs: grams; insulin: units; exercise: total fall (mg/dL); dip: raw target nadir; bump: amplitude. */
  amount: number;
  /** carbs: absorption constant (min); exercise: duration; dip: descent; bump: ramp (min). */
  p1: number;
  /** exercise and dip: recovery time constant (min); bump: total duration (min). */
  p2: number;
}

/**
 * Inputs that belong together and whose net residual fades together: a meal with its bolus and
 * any correction; a planned low with its treatment; or a single exercise session or bump.
 */
export interface Effect {
  /** systemMs of the group's start (its earliest part). */
  t: number;
  parts: Part[];
  /** Minutes after t from which the net effect fades to zero (Infinity: it does not fade). */
  fadeAfterMin: number;
  fadeTauMin: number;
  fadeSpanMin: number;
  /** Last instant (ms) at which the group is non-zero. */
  endMs: number;
  /** Whether the group holds a planned low, whose depth must be solved before use (day.ts). */
  hasDip: boolean;
  /** Dip groups only: the depth (mg/dL on the raw scale), solved once. */
  depth?: number;
}

/** Exponential decay from 1 at x = 0 to exactly 0 at x = span. */
function taperedDecay(x: number, tau: number, span: number): number {
  if (x <= 0) return 1;
  if (x >= span) return 0;
  const floor = Math.exp(-span / tau);
  return (Math.exp(-x / tau) - floor) / (1 - floor);
}

/** Fraction of the carbohydrate absorbed τ minutes after eating (Erlang-2 with constant k). */
export function carbsAbsorbed(tau: number, k: number): number {
  if (tau <= 0) return 0;
  const x = tau / k;
  return 1 - (1 + x) * Math.exp(-x);
}

// Exponential insulin curve (OpenAPS oref0 / Loop), peak 75 min, duration of action 300 min.
const INSULIN_TD = 300;
const INSULIN_TP = 75;
const INSULIN_TAU = (INSULIN_TP * (1 - INSULIN_TP / INSULIN_TD)) / (1 - (2 * INSULIN_TP) / INSULIN_TD);
const INSULIN_A = (2 * INSULIN_TAU) / INSULIN_TD;
const INSULIN_S = 1 / (1 - INSULIN_A + (1 + INSULIN_A) * Math.exp(-INSULIN_TD / INSULIN_TAU));

/** Fraction of a bolus's glucose-lowering effect delivered τ minutes after it. */
export function insulinActed(tau: number): number {
  if (tau <= 0) return 0;
  if (tau >= INSULIN_TD) return 1;
  const iob =
    1 -
    INSULIN_S *
      (1 - INSULIN_A) *
      (((tau * tau) / (INSULIN_TAU * INSULIN_TD * (1 - INSULIN_A)) - tau / INSULIN_TAU - 1) *
        Math.exp(-tau / INSULIN_TAU) +
        1);
  return 1 - iob;
}

function smoothstep(x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  return x * x * (3 - 2 * x);
}

/** Recovery of exercise and dips reaches zero this long after the fall ends. */
export const RECOVERY_SPAN_MIN = 360;

function partAt(user: SandboxUser, part: Part, tau: number, depth: number): number {
  if (tau <= 0) return 0;
  const p = user.profile;
  switch (part.kind) {
    case PART.carbs:
      return part.amount * (p.isf / p.carbRatio) * carbsAbsorbed(tau, part.p1);
    case PART.insulin:
      return -part.amount * p.isf * insulinActed(tau);
    case PART.exercise:
      if (tau <= part.p1) return -part.amount * smoothstep(tau / part.p1);
      return -part.amount * taperedDecay(tau - part.p1, part.p2, RECOVERY_SPAN_MIN);
    case PART.dip:
      if (tau <= part.p1) return -depth * smoothstep(tau / part.p1);
      return -depth * taperedDecay(tau - part.p1, part.p2, RECOVERY_SPAN_MIN);
    case PART.bump: {
      if (tau >= part.p2) return 0;
      return part.amount * Math.min(smoothstep(tau / part.p1), smoothstep((part.p2 - tau) / part.p1));
    }
  }
  return 0;
}

/** The contribution of a group τ minutes after its start. */
export function effectAt(user: SandboxUser, e: Effect, tau: number): number {
  let sum = 0;
  const depth = e.depth ?? 0;
  for (const part of e.parts) sum += partAt(user, part, tau - part.offsetMin, depth);
  return sum * taperedDecay(tau - e.fadeAfterMin, e.fadeTauMin, e.fadeSpanMin);
}

/** Natural end (minutes after its own start) of a part's effect. */
function partSpanMin(part: Part): number {
  switch (part.kind) {
    case PART.carbs:
      return 12 * part.p1; // 99.9% absorbed
    case PART.insulin:
      return INSULIN_TD;
    case PART.exercise:
    case PART.dip:
      return part.p1 + RECOVERY_SPAN_MIN;
    default:
      return part.p2;
  }
}

/** A group from parts given with absolute times; the group starts at the earliest. */
export function makeEffect(
  parts: Array<Omit<Part, "offsetMin"> & { t: number }>,
  fade: { afterLastPartMin: number; tauMin: number; spanMin: number } | null,
): Effect {
  const t = Math.min(...parts.map((p) => p.t));
  const rel: Part[] = parts.map(({ t: at, ...rest }) => ({ ...rest, offsetMin: (at - t) / MINUTE }));
  const lastOffset = Math.max(...rel.map((p) => p.offsetMin));
  const naturalEnd = Math.max(...rel.map((p) => p.offsetMin + partSpanMin(p)));
  const fadeAfterMin = fade ? lastOffset + fade.afterLastPartMin : Number.POSITIVE_INFINITY;
  const endMin = fade ? Math.min(naturalEnd, fadeAfterMin + fade.spanMin) : naturalEnd;
  return {
    t,
    parts: rel,
    fadeAfterMin,
    fadeTauMin: fade?.tauMin ?? 1,
    fadeSpanMin: fade?.spanMin ?? 1,
    endMs: t + endMin * MINUTE,
    hasDip: rel.some((p) => p.kind === PART.dip),
  };
}

interface Tracks {
  day: NoiseTrack;
  hours: NoiseTrack;
  minutes: NoiseTrack;
  /** The slowly varying part of sensor error. */
  sensor: NoiseTrack;
}
const tracks = new Map<string, Tracks>();

/** The user's smooth-noise tracks (memo of knots only: values are pure functions of time). */
export function tracksOf(user: SandboxUser, seed: number): Tracks {
  let t = tracks.get(user.username);
  if (!t) {
    t = {
      day: new NoiseTrack(seed, PURPOSE.driftDay, DAY),
      hours: new NoiseTrack(seed, PURPOSE.driftHours, 3 * MS_PER_HOUR),
      minutes: new NoiseTrack(seed, PURPOSE.driftMinutes, 40 * MINUTE),
      sensor: new NoiseTrack(seed, PURPOSE.sensorSlow, 25 * MINUTE),
    };
    tracks.set(user.username, t);
  }
  return t;
}

/**
 * Glucose without inputs: base, dawn phenomenon and night trough (by the clock on the wall, so
 * they move with the traveller) and slow drift.
 */
export function backgroundAt(user: SandboxUser, seed: number, t: number, displayMs: number): number {
  const p = user.profile;
  const minuteOfDay = (((displayMs % DAY) + DAY) % DAY) / MINUTE;
  // Dawn: a bell around 06:30 local (σ ≈ 75 min), from about 04:00 to 09:00.
  const z = (minuteOfDay - 390) / 75;
  const dawn = p.dawnMgdl * Math.exp(-0.5 * z * z);
  // Basal excess: a trough around 03:00 local (σ ≈ 100 min), measured across midnight.
  let night = 0;
  if (p.nightDropMgdl !== 0) {
    const d = Math.abs(minuteOfDay - 180);
    const y = Math.min(d, 1440 - d) / 100;
    night = -p.nightDropMgdl * Math.exp(-0.5 * y * y);
  }
  const tr = tracksOf(user, seed);
  const [dayAmp, hourAmp, minuteAmp] = p.driftMgdl;
  const drift = dayAmp * tr.day.at(t) + hourAmp * tr.hours.at(t) + minuteAmp * tr.minutes.at(t);
  return p.baseMgdl + dawn + night + drift;
}

/**
 * Sum of the effects active at t. `effects` is sorted by start; with `withDips` false, dips are
 * left out (used to solve a dip's depth).
 */
export function effectsSumAt(
  user: SandboxUser,
  effects: readonly Effect[],
  t: number,
  withDips: boolean,
): number {
  let sum = 0;
  for (const e of effects) {
    if (e.t > t) break;
    if (t > e.endMs) continue;
    if (!withDips && e.hasDip) continue;
    sum += effectAt(user, e, (t - e.t) / MINUTE);
  }
  return sum;
}

const SOFT_LOW_KNEE = 70;
const SOFT_LOW_SPAN = 45;
const SOFT_HIGH_KNEE = 300;
const SOFT_HIGH_SPAN = 250;

/** Bends the raw sum: below 70 towards a floor of 25, above 300 towards a ceiling of 550. */
export function soft(raw: number): number {
  if (raw < SOFT_LOW_KNEE)
    return SOFT_LOW_KNEE - SOFT_LOW_SPAN * (1 - Math.exp(-(SOFT_LOW_KNEE - raw) / SOFT_LOW_SPAN));
  if (raw > SOFT_HIGH_KNEE)
    return SOFT_HIGH_KNEE + SOFT_HIGH_SPAN * (1 - Math.exp(-(raw - SOFT_HIGH_KNEE) / SOFT_HIGH_SPAN));
  return raw;
}

/** The raw value that `soft` bends to `value` (for value > 25 below the knee). */
export function unsoftLow(value: number): number {
  if (value >= SOFT_LOW_KNEE) return value;
  const v = Math.max(value, SOFT_LOW_KNEE - SOFT_LOW_SPAN + 0.5);
  return SOFT_LOW_KNEE + SOFT_LOW_SPAN * Math.log(1 - (SOFT_LOW_KNEE - v) / SOFT_LOW_SPAN);
}
