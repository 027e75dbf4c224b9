import type { EventSubType, EventType } from "@/lib/cgm";
import { MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE } from "@/lib/cgm/datetime";
import type { SandboxEvent } from "../records";
import type { ExerciseIntensity, LowPlan, SandboxUser } from "../users";
import { displayOf, localToSystem } from "./clock";
import { HISTORY_START_MS } from "./constants";
import { Lru } from "./lru";
import { type Effect, makeEffect, PART, type Part, unsoftLow } from "./model";
import { mix, PURPOSE, Rng, uuidFromText } from "./random";
import { seedOf } from "./seed";
import { sessionAt } from "./sessions";

/**
 * What a user does on one local (display-clock) day: meals, boluses, exercise, planned lows and
 * their treatment, health events, calibrations. A plan is a pure function of (user, local day):
 * its own PRNG stream, times at local clock readings turned into system time by the clock in
 * force (home zone or a trip's zone).
 *
 * Decisions:
 * - Logged events are what the user typed in: most (per-user share) of what happened. ~3% of
 *   logged events come with a mistaken earlier entry that the user deleted; the deleted entry is
 *   an extra record with status "deleted" from the start (statuses never change over time).
 * - Health events carry no value (value null, unit null).
 * - Insulin events are boluses only (no basal); a missed meal bolus is followed by a correction
 *   bolus 100–160 min later, and sometimes a "highSymptoms" entry.
 * - Users with `everyEventKind` (User1, User2) get each exercise intensity and each health subtype
 *   at least once in every 14-day block of local days (on a block day chosen by hash) and "cycle"
 *   every 28 days; so any 30-day window holds every event type and subtype. These forced inputs are
 *   never dropped by a clock jump: a local time skipped by a forward switch is kept just after it.
 * - Calibrations (G4/G5): about 07:00 and 19:30 local, inside a session and not in its first
 *   30 minutes (the two start-up calibrations are added per session elsewhere).
 */

export interface DayPlan {
  effects: Effect[];
  events: SandboxEvent[];
  calibrationTimes: number[];
}

/** Kinds that `everyEventKind` users get at least once per block. */
const FORCED_KINDS = [
  "light",
  "medium",
  "heavy",
  "illness",
  "stress",
  "highSymptoms",
  "lowSymptoms",
  "alcohol",
] as const;
type ForcedKind = (typeof FORCED_KINDS)[number];
export const FORCED_BLOCK_DAYS = 14;
export const CYCLE_DAYS = 28;
const FIRST_LOCAL_DAY = Math.floor(HISTORY_START_MS / MS_PER_DAY);

// Plans are only read while days are built (days keep their own events): a few per day suffice.
const plans = new Lru<string, DayPlan>(1000);
/** A meal group's net residual fades from 4 h after its last part (model.ts). */
const MEAL_FADE = { afterLastPartMin: 240, tauMin: 150, spanMin: 360 };

/** The local day of block `block` on which `kind` is forced. */
function forcedDay(user: SandboxUser, kindIndex: number, block: number): number {
  return (
    FIRST_LOCAL_DAY +
    block * FORCED_BLOCK_DAYS +
    (mix(seedOf(user), PURPOSE.forced, kindIndex, block) % FORCED_BLOCK_DAYS)
  );
}

function forcedKindsOn(user: SandboxUser, localDay: number): Set<ForcedKind> {
  const out = new Set<ForcedKind>();
  if (!user.profile.everyEventKind) return out;
  const block = Math.floor((localDay - FIRST_LOCAL_DAY) / FORCED_BLOCK_DAYS);
  if (block < 0) return out;
  FORCED_KINDS.forEach((kind, i) => {
    if (forcedDay(user, i, block) === localDay) out.add(kind);
  });
  return out;
}

/** Whether `localDay` is a (logged) cycle day: every 28 days. */
function isCycleDay(user: SandboxUser, localDay: number): boolean {
  if (!user.profile.health.cycle) return false;
  const phase = mix(seedOf(user), PURPOSE.forced, 99) % CYCLE_DAYS;
  return (((localDay - FIRST_LOCAL_DAY - phase) % CYCLE_DAYS) + CYCLE_DAYS) % CYCLE_DAYS === 0;
}

function roundTo(value: number, step: number): number {
  return Math.round(Math.round(value / step) * step * 100) / 100;
}

class PlanBuilder {
  readonly effects: Effect[] = [];
  readonly events: SandboxEvent[] = [];
  readonly calibrationTimes: number[] = [];
  private readonly keys = new Set<string>();

  constructor(
    readonly user: SandboxUser,
    readonly localDay: number,
    readonly rng: Rng,
  ) {}

  /** System time of a local clock reading (minutes after local midnight, may exceed 1440). */
  at(minuteOfDay: number, skipped: "drop" | "keep"): number | null {
    const localMs = this.localDay * MS_PER_DAY + Math.round(minuteOfDay * 60) * 1000;
    return localToSystem(this.user, localMs, skipped);
  }

  group(
    parts: Array<Omit<Part, "offsetMin"> & { t: number }>,
    fade: { afterLastPartMin: number; tauMin: number; spanMin: number } | null = null,
  ): void {
    this.effects.push(makeEffect(parts, fade));
  }

  /** Logs an event (always when `sure`, else with the user's logging probability). */
  log(t: number, type: EventType, subType: EventSubType | null, value: number | null, sure = false): void {
    const logged = this.rng.chance(this.user.profile.loggingProbability);
    const mistake = this.rng.next();
    const mistakeLeadS = this.rng.int(40, 240);
    if (!(logged || sure)) return;
    if (mistake < 0.03) {
      // A mistaken entry just before, deleted by the user.
      const wrong =
        value === null ? null : type === "insulin" ? roundTo(value + 1, 0.5) : Math.round(value * 1.5 + 5);
      this.push(t - mistakeLeadS * 1000, type, subType, wrong, "deleted");
    }
    this.push(t, type, subType, value, "created");
  }

  private push(
    t0: number,
    type: EventType,
    subType: EventSubType | null,
    value: number | null,
    status: "created" | "deleted",
  ): void {
    let t = t0;
    while (this.keys.has(`${t}|${type}|${subType}`)) t += 1000;
    this.keys.add(`${t}|${type}|${subType}`);
    const unit =
      type === "carbs" ? "grams" : type === "insulin" ? "units" : type === "exercise" ? "minutes" : null;
    this.events.push({
      systemMs: t,
      displayMs: displayOf(this.user, t),
      eventType: type,
      eventSubType: subType,
      value,
      unit,
      eventId: uuidFromText(`${this.user.username}|${t}|${type}|${subType ?? ""}`),
      eventStatus: status,
    });
  }
}

function buildPlan(user: SandboxUser, localDay: number): DayPlan {
  const rng = new Rng(mix(seedOf(user), PURPOSE.plan, localDay));
  const b = new PlanBuilder(user, localDay, rng);
  if (!user.hasData) return { effects: [], events: [], calibrationTimes: [] };
  const p = user.profile;
  const weekday = (((localDay + 4) % 7) + 7) % 7;
  const weekend = weekday === 0 || weekday === 6;
  const forced = forcedKindsOn(user, localDay);

  // ---- Meals and boluses ----------------------------------------------------------------------
  // On a forced "highSymptoms" day the bolus of the largest meal is missed.
  const biggest = p.meals.reduce((best, m, i) => (m.carbs > (p.meals[best]?.carbs ?? 0) ? i : best), 0);
  p.meals.forEach((meal, i) => {
    const skip = rng.chance(meal.skipProbability);
    const minute = meal.minuteOfDay + (weekend ? meal.weekendShiftMin : 0) + rng.gauss() * meal.jitterMin;
    const carbs = Math.max(5, Math.round((meal.carbs * rng.between(0.7, 1.3)) / 5) * 5);
    const forceMiss = forced.has("highSymptoms") && i === biggest;
    const missed = rng.chance(p.missedBolusProbability) || forceMiss;
    const doseError = rng.gauss();
    const timing = rng.between(p.bolusTimingMin[0], p.bolusTimingMin[1]);
    const correctionAfter = rng.between(100, 160);
    const symptoms = rng.chance(0.4) || forceMiss;
    if (skip && !forceMiss) return;
    const t = b.at(minute, forceMiss ? "keep" : "drop");
    if (t === null) return;
    const mealPart = { kind: PART.carbs, t, amount: carbs, p1: meal.absorptionMin, p2: 0 };
    b.log(t, "carbs", null, carbs);
    const need = carbs / p.carbRatio;
    if (!missed) {
      const units = Math.max(
        p.insulinIncrement,
        roundTo(need * (p.bolusRatio + p.bolusErrorSd * doseError), p.insulinIncrement),
      );
      const tb = t + Math.round(timing * 60) * 1000;
      b.group([mealPart, { kind: PART.insulin, t: tb, amount: units, p1: 0, p2: 0 }], MEAL_FADE);
      b.log(tb, "insulin", null, units);
      return;
    }
    const tc = t + Math.round(correctionAfter * 60) * 1000;
    const units = Math.max(p.insulinIncrement, roundTo(need * 0.8, p.insulinIncrement));
    b.group([mealPart, { kind: PART.insulin, t: tc, amount: units, p1: 0, p2: 0 }], MEAL_FADE);
    b.log(tc, "insulin", null, units);
    if (symptoms) b.log(tc - 8 * MS_PER_MINUTE, "health", "highSymptoms", null, forceMiss);
  });

  // ---- Exercise -------------------------------------------------------------------------------
  const doneIntensities = new Set<ExerciseIntensity>();
  for (const ex of p.exercise) {
    const scheduled = ex.weekdays.includes(weekday) && rng.chance(ex.probability);
    const minute = ex.minuteOfDay + rng.gauss() * ex.jitterMin;
    const minutes = Math.round(rng.between(ex.minutes[0], ex.minutes[1]) / 5) * 5;
    const drop = rng.between(ex.dropMgdl[0], ex.dropMgdl[1]);
    const recovery = ex.subType === "heavy" ? 150 : ex.subType === "medium" ? 120 : 90;
    const isForced = forced.has(ex.subType) && !doneIntensities.has(ex.subType);
    if (!(scheduled || isForced)) continue;
    const t = b.at(minute, isForced ? "keep" : "drop");
    if (t === null) continue;
    doneIntensities.add(ex.subType);
    b.group([{ kind: PART.exercise, t, amount: drop, p1: minutes, p2: recovery }]);
    b.log(t, "exercise", ex.subType, minutes, isForced);
  }

  // ---- Planned lows and their treatment --------------------------------------------------------
  const planLow = (plan: LowPlan, forceSymptoms: boolean, happen: boolean) => {
    const onset = rng.between(plan.onsetMinute[0], plan.onsetMinute[1]);
    const descent = rng.between(plan.descentMin[0], plan.descentMin[1]);
    const pick = rng.next();
    const within = rng.next();
    const treatedAnyway = rng.chance(0.5);
    const treatDelay = rng.between(plan.treatDelayMin[0], plan.treatDelayMin[1]);
    const treatCarbs = Math.round(rng.between(plan.treatCarbs[0], plan.treatCarbs[1]) / 5) * 5;
    const recovery = rng.between(plan.recoveryMin[0], plan.recoveryMin[1]);
    const symptomsLogged = rng.chance(0.5);
    if (!happen) return false;
    let total = 0;
    for (const [w] of plan.targets) total += w;
    let acc = 0;
    let target = plan.targets[0]?.[1] ?? 60;
    for (const [w, lo, hi] of plan.targets) {
      acc += w / total;
      if (pick < acc) {
        target = lo + (hi - lo) * within;
        break;
      }
    }
    if (forceSymptoms) target = Math.min(target, 52 + 8 * within);
    const t = b.at(onset, forceSymptoms ? "keep" : "drop");
    if (t === null) return false;
    const nadir = t + Math.round(descent * 60) * 1000;
    const dip = { kind: PART.dip, t, amount: unsoftLow(target), p1: descent, p2: recovery };
    if (target < plan.treatBelow || treatedAnyway || forceSymptoms) {
      const tt = nadir + Math.round(treatDelay * 60) * 1000;
      // Treated: the fast carbs do the recovering (the drive behind the low persists), and the
      // net (a small rebound) fades an hour after the treatment.
      b.group(
        [
          { ...dip, p2: 240 },
          { kind: PART.carbs, t: tt, amount: treatCarbs, p1: 12, p2: 0 },
        ],
        { afterLastPartMin: 60, tauMin: 90, spanMin: 300 },
      );
      b.log(tt, "carbs", null, treatCarbs);
      if (forceSymptoms || (target < 60 && symptomsLogged))
        b.log(tt - 2 * MS_PER_MINUTE, "health", "lowSymptoms", null, forceSymptoms);
    } else {
      b.group([dip]);
    }
    return true;
  };
  if (p.nightLows) {
    const happen = rng.chance(p.nightLows.probability);
    planLow(p.nightLows, false, happen);
  }
  if (p.dayLows) {
    const happen = rng.chance(p.dayLows.probability);
    const force = forced.has("lowSymptoms");
    planLow(p.dayLows, force, happen || force);
  }

  // ---- Health ---------------------------------------------------------------------------------
  {
    const stress = rng.chance(p.health.stress) || forced.has("stress");
    const minute = rng.between(9 * 60, 17 * 60);
    const amp = rng.between(15, 30);
    const duration = rng.between(180, 360);
    if (stress) {
      const t = b.at(minute, forced.has("stress") ? "keep" : "drop");
      if (t !== null) {
        b.group([{ kind: PART.bump, t, amount: amp, p1: 45, p2: duration }]);
        b.log(t, "health", "stress", null, forced.has("stress"));
      }
    }
  }
  {
    const ill = rng.chance(p.health.illness) || forced.has("illness");
    const minute = rng.between(7 * 60 + 30, 10 * 60);
    const amp = rng.between(25, 45);
    const duration = rng.between(16 * 60, 24 * 60);
    if (ill) {
      const t = b.at(minute, forced.has("illness") ? "keep" : "drop");
      if (t !== null) {
        b.group([{ kind: PART.bump, t, amount: amp, p1: 180, p2: duration }]);
        b.log(t, "health", "illness", null, forced.has("illness"));
      }
    }
  }
  {
    const friSat = weekday === 5 || weekday === 6;
    const drink = rng.chance(p.health.alcohol * (friSat ? 2.5 : 0.6)) || forced.has("alcohol");
    const minute = rng.between(19 * 60 + 30, 22 * 60 + 30);
    const amp = rng.between(20, 40);
    const duration = rng.between(6 * 60, 9 * 60);
    if (drink) {
      const t = b.at(minute, forced.has("alcohol") ? "keep" : "drop");
      if (t !== null) {
        // Alcohol suppresses hepatic glucose output: glucose sags overnight, 2 h after drinking.
        b.group([{ kind: PART.bump, t: t + 120 * MS_PER_MINUTE, amount: -amp, p1: 120, p2: duration }]);
        b.log(t, "health", "alcohol", null, forced.has("alcohol"));
      }
    }
  }
  {
    const cycle = isCycleDay(user, localDay);
    const minute = rng.between(7 * 60, 9 * 60);
    const amp = rng.between(10, 20);
    if (cycle) {
      const t = b.at(minute, "keep");
      if (t !== null) {
        b.group([{ kind: PART.bump, t, amount: amp, p1: 240, p2: 20 * 60 }]);
        b.log(t, "health", "cycle", null, true);
      }
    }
  }

  // ---- Calibrations ---------------------------------------------------------------------------
  if (p.calibrationsPerDay > 0) {
    for (const [mean, sd] of [
      [7 * 60, 40],
      [19 * 60 + 30, 60],
    ] as const) {
      const minute = mean + rng.gauss() * sd;
      const skip = rng.chance(0.05);
      if (skip) continue;
      const t = b.at(minute, "drop");
      if (t === null) continue;
      const s = sessionAt(user, t);
      if (s && t >= s.firstMs + 30 * MS_PER_MINUTE) b.calibrationTimes.push(t);
    }
  }

  b.effects.sort((x, y) => x.t - y.t);
  b.events.sort((x, y) => x.systemMs - y.systemMs || (x.eventId < y.eventId ? -1 : 1));
  b.calibrationTimes.sort((x, y) => x - y);
  return { effects: b.effects, events: b.events, calibrationTimes: b.calibrationTimes };
}

/** The plan of a local day (cached). */
export function planOf(user: SandboxUser, localDay: number): DayPlan {
  const key = `${user.username}#${localDay}`;
  let plan = plans.get(key);
  if (!plan) {
    plan = buildPlan(user, localDay);
    for (const e of plan.events) Object.freeze(e);
    plans.set(key, plan);
  }
  return plan;
}

/** Local days whose plans may hold inputs with a system time in [fromMs, toMs]. */
export function localDaysFor(fromMs: number, toMs: number): [number, number] {
  // A local clock is 12 h behind to 14 h ahead of UTC.
  return [
    Math.floor((fromMs - 12 * MS_PER_HOUR) / MS_PER_DAY),
    Math.floor((toMs + 14 * MS_PER_HOUR) / MS_PER_DAY),
  ];
}

/** The effects with a start in [fromMs, toMs], sorted by start. */
export function effectsBetween(user: SandboxUser, fromMs: number, toMs: number): Effect[] {
  const [l0, l1] = localDaysFor(fromMs, toMs);
  const out: Effect[] = [];
  for (let l = l0; l <= l1; l++) {
    for (const e of planOf(user, l).effects) if (e.t >= fromMs && e.t <= toMs) out.push(e);
  }
  out.sort((x, y) => x.t - y.t);
  return out;
}

/** The logged events with a system time in [fromMs, toMs], ascending. */
export function eventsBetween(user: SandboxUser, fromMs: number, toMs: number): SandboxEvent[] {
  const [l0, l1] = localDaysFor(fromMs, toMs);
  const out: SandboxEvent[] = [];
  for (let l = l0; l <= l1; l++) {
    for (const e of planOf(user, l).events) if (e.systemMs >= fromMs && e.systemMs <= toMs) out.push(e);
  }
  out.sort((x, y) => x.systemMs - y.systemMs || (x.eventId < y.eventId ? -1 : 1));
  return out;
}

/** Planned calibration instants in [fromMs, toMs], ascending. */
export function calibrationTimesBetween(user: SandboxUser, fromMs: number, toMs: number): number[] {
  const [l0, l1] = localDaysFor(fromMs, toMs);
  const out: number[] = [];
  for (let l = l0; l <= l1; l++) {
    for (const t of planOf(user, l).calibrationTimes) if (t >= fromMs && t <= toMs) out.push(t);
  }
  return out.sort((x, y) => x - y);
}
