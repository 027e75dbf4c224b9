import { ALERT_NAMES_V3, type AlertNameV3, MS_PER_DAY, MS_PER_MINUTE } from "@/lib/cgm";
import type { SandboxAlert } from "../records";
import type { SandboxUser } from "../users";
import { displayOf } from "./clock";
import { HISTORY_START_MS, READING_INTERVAL_MS, SMOOTHING_LAG_MS } from "./constants";
import { egvDay, NULL_RATE, NULL_SMOOTHED } from "./day";
import { NO_READINGS_MINUTES, type ScheduleInForce, scheduleAt, URGENT_LOW_MGDL } from "./devices";
import { Lru } from "./lru";
import { mix, PURPOSE, unit } from "./random";
import { seedOf } from "./seed";
import { type Session, sessionsBetween } from "./sessions";

/**
 * The alerts of API v3 (service-v3-notes §3.5), generated from the glucose crossing the user's
 * alert settings (devices.ts `scheduleAt`: the schedule in force at each reading). A record is one
 * change of an alert's state: activeAlarming when it sounds, activeSnoozed when the user
 * acknowledges it, inactive when its condition has cleared.
 *
 * Rules (deterministic: a function of the user's data, never of what was asked before):
 * - Readings are judged by their v3 `value` (the smoothed value where one exists), so an alert
 *   always agrees with the trace a client draws. A reading is judged once its value is final: the
 *   alerts run SMOOTHING_LAG_MS (15 minutes) behind the readings.
 * - Glucose alerts, per reading v and rate r (mg/dL/min) with the settings in force then:
 *   urgentLow (fixedLow on G4/G5): v < 55, always on; low: v < low; high: v > high;
 *   urgentLowSoon: v ≥ 55 and v + 20·r < 55 (below 55 within 20 minutes at this rate), always on;
 *   rise: r ≥ rise; fall: r ≤ −fall. Only alerts the device has (users.ts `device.alertNames`),
 *   only when enabled. Sentinels take part as 39 and 401; they have no rate.
 * - An episode starts at a reading that meets the condition and sounds then (high: after its
 *   `delay`, at the first reading past it that still meets it). The user acknowledges 40 s to
 *   10 minutes later (activeSnoozed); while the condition lasts, it sounds again at the first
 *   reading meeting it once `snooze` minutes have passed since (no repeat when snooze is 0 or
 *   null). It ends (inactive) at the second consecutive reading that no longer meets it, or when
 *   readings stop (a gap or the session's end: at the time the next reading was due). An episode
 *   that ends before it sounded leaves no record; one that ends before the acknowledgement none
 *   for it.
 * - Readings missing within a session (signal loss): outOfRange sounds when none has come for its
 *   value in minutes (if enabled); on G6/G7 and ONE+ about a third of the gaps are the sensor's
 *   instead (noReadings, after 20 minutes). Acknowledged and repeated as above; inactive when the
 *   next reading arrives. A session's end (the 2-hour warm-up) sounds nothing: the device knows.
 * - Overrides (quiet, vibrate) change how an alert sounds, not its states: not reflected here.
 */

const STEP = READING_INTERVAL_MS;
/** Share of within-session gaps the sensor reports (noReadings) rather than signal loss. */
const SENSOR_GAP_SHARE = 0.35;
const URGENT_LOW_SOON_HORIZON_MIN = 20;

type Condition = (v: number, r: number | null, s: ScheduleInForce) => boolean;

const CONDITIONS: Partial<Record<AlertNameV3, Condition>> = {
  urgentLow: (v) => v < URGENT_LOW_MGDL,
  fixedLow: (v) => v < URGENT_LOW_MGDL,
  urgentLowSoon: (v, r) =>
    r !== null && v >= URGENT_LOW_MGDL && v + URGENT_LOW_SOON_HORIZON_MIN * r < URGENT_LOW_MGDL,
  low: (v, _r, s) => s.values.enabled.low && v < s.values.low,
  high: (v, _r, s) => s.values.enabled.high && v > s.values.high,
  rise: (_v, r, s) => s.values.enabled.rise && r !== null && r >= s.values.rise,
  fall: (_v, r, s) => s.values.enabled.fall && r !== null && r <= -s.values.fall,
};

/** Minutes before an alert sounds again after it was acknowledged (0 or null: it does not). */
function snoozeOf(name: AlertNameV3, s: ScheduleInForce, generation: SandboxUser["generation"]): number {
  const v = s.values.snooze;
  switch (name) {
    case "high":
    case "low":
    case "outOfRange":
      return v[name];
    case "rise":
    case "fall":
      // G6/G7 have no snooze for these (v2 null): they do not repeat.
      return generation === "g6" || generation === "g7" ? 0 : v[name];
    case "noReadings":
      return 0;
    default:
      return v.fixedLow;
  }
}

/** Seconds from sounding to the user's acknowledgement: 40 s to 10 min, by hash. */
function ackDelayMs(user: SandboxUser, name: AlertNameV3, alarmMs: number): number {
  const h = mix(seedOf(user), PURPOSE.alertAck, Math.round(alarmMs / 1000), ALERT_NAMES_V3.indexOf(name));
  return (40 + Math.floor(unit(h) * 561)) * 1000;
}

interface Readings {
  times: number[];
  values: number[];
  /** mg/dL/min, or null. */
  rates: Array<number | null>;
}

/** The session's readings with their final v3 values. */
function sessionReadings(user: SandboxUser, s: Session): Readings {
  const out: Readings = { times: [], values: [], rates: [] };
  for (let d = Math.floor(s.firstMs / MS_PER_DAY); d <= Math.floor(s.lastMs / MS_PER_DAY); d++) {
    const day = egvDay(user, d);
    for (let i = 0; i < day.count; i++) {
      const t = day.systemMs[i]!;
      if (t < s.firstMs || t > s.lastMs) continue;
      const sm = day.smoothed[i]!;
      const r = day.rate10[i]!;
      out.times.push(t);
      out.values.push(sm === NULL_SMOOTHED ? day.realtime[i]! : sm);
      out.rates.push(r === NULL_RATE ? null : r / 10);
    }
  }
  return out;
}

class Recorder {
  readonly records: SandboxAlert[] = [];
  constructor(private readonly user: SandboxUser) {}
  add(systemMs: number, alertName: AlertNameV3, alertState: SandboxAlert["alertState"]): void {
    this.records.push({ systemMs, displayMs: displayOf(this.user, systemMs), alertName, alertState });
  }
}

interface Episode {
  startMs: number;
  falseRun: number;
  alarmed: boolean;
  /** When the sounding alert will be acknowledged, or null when it is not sounding. */
  ackAt: number | null;
  /** When it may sound again (after the snooze), or null when it may not. */
  repeatFrom: number | null;
}

/** One glucose alert over a session's readings. */
function glucoseAlert(
  user: SandboxUser,
  name: AlertNameV3,
  r: Readings,
  schedules: ScheduleInForce[],
  rec: Recorder,
) {
  const condition = CONDITIONS[name]!;
  let ep: Episode | null = null;
  const acknowledgeBefore = (e: Episode, beforeMs: number) => {
    if (e.ackAt === null || e.ackAt >= beforeMs) return;
    rec.add(e.ackAt, name, "activeSnoozed");
    const snooze = snoozeOf(name, scheduleAt(user, e.ackAt), user.generation);
    e.repeatFrom = snooze > 0 ? e.ackAt + snooze * MS_PER_MINUTE : null;
    e.ackAt = null;
  };
  const end = (e: Episode, atMs: number) => {
    acknowledgeBefore(e, atMs);
    if (e.alarmed) rec.add(atMs, name, "inactive");
  };
  const sound = (e: Episode, atMs: number) => {
    rec.add(atMs, name, "activeAlarming");
    e.alarmed = true;
    e.ackAt = atMs + ackDelayMs(user, name, atMs);
    e.repeatFrom = null;
  };
  for (let i = 0; i < r.times.length; i++) {
    const t = r.times[i]!;
    if (ep && i > 0 && t - r.times[i - 1]! > STEP) {
      end(ep, r.times[i - 1]! + STEP);
      ep = null;
    }
    if (ep) acknowledgeBefore(ep, t);
    const s = schedules[i]!;
    const met = condition(r.values[i]!, r.rates[i]!, s);
    if (!ep) {
      if (!met) continue;
      ep = { startMs: t, falseRun: 0, alarmed: false, ackAt: null, repeatFrom: null };
    }
    if (!met) {
      ep.falseRun++;
      if (ep.falseRun >= 2) {
        end(ep, t);
        ep = null;
      }
      continue;
    }
    ep.falseRun = 0;
    if (!ep.alarmed) {
      const delayMs = name === "high" ? s.highDelay * MS_PER_MINUTE : 0;
      if (t >= ep.startMs + delayMs) sound(ep, t);
    } else if (ep.ackAt === null && ep.repeatFrom !== null && t >= ep.repeatFrom) {
      sound(ep, t);
    }
  }
  if (ep) end(ep, r.times[r.times.length - 1]! + STEP);
}

/** outOfRange / noReadings over the gaps between a session's readings. */
function gapAlerts(user: SandboxUser, r: Readings, rec: Recorder) {
  const has = (n: AlertNameV3) => user.device.alertNames.includes(n);
  for (let i = 1; i < r.times.length; i++) {
    const a = r.times[i - 1]!;
    const b = r.times[i]!;
    if (b - a <= STEP) continue;
    const s = scheduleAt(user, a);
    const sensor =
      has("noReadings") && unit(mix(seedOf(user), PURPOSE.gapAlert, Math.round(a / 1000))) < SENSOR_GAP_SHARE;
    const name: AlertNameV3 = sensor || !has("outOfRange") ? "noReadings" : "outOfRange";
    if (!has(name) || (name === "outOfRange" && !s.values.enabled.outOfRange)) continue;
    const afterMin = name === "noReadings" ? NO_READINGS_MINUTES : s.values.outOfRange;
    let alarm = a + afterMin * MS_PER_MINUTE;
    if (alarm >= b) continue;
    while (alarm < b) {
      rec.add(alarm, name, "activeAlarming");
      const ack = alarm + ackDelayMs(user, name, alarm);
      if (ack >= b) break;
      rec.add(ack, name, "activeSnoozed");
      const snooze = snoozeOf(name, scheduleAt(user, ack), user.generation);
      if (snooze <= 0) break;
      alarm = ack + snooze * MS_PER_MINUTE;
    }
    rec.add(b, name, "inactive");
  }
}

const STATE_ORDER: Record<SandboxAlert["alertState"], number> = {
  activeAlarming: 0,
  activeSnoozed: 1,
  inactive: 2,
};

function bySystemTime(a: SandboxAlert, b: SandboxAlert): number {
  return (
    a.systemMs - b.systemMs ||
    ALERT_NAMES_V3.indexOf(a.alertName) - ALERT_NAMES_V3.indexOf(b.alertName) ||
    STATE_ORDER[a.alertState] - STATE_ORDER[b.alertState]
  );
}

const sessionCache = new Lru<string, SandboxAlert[]>(800);

/** Every alert record of a session (its readings and up to one reading interval after them). */
function sessionAlerts(user: SandboxUser, s: Session): SandboxAlert[] {
  const key = `${user.username}#${s.insertedMs}`;
  const cached = sessionCache.get(key);
  if (cached) return cached;
  const readings = sessionReadings(user, s);
  const rec = new Recorder(user);
  if (readings.times.length > 0) {
    const schedules = readings.times.map((t) => scheduleAt(user, t));
    for (const name of user.device.alertNames) {
      if (CONDITIONS[name]) glucoseAlert(user, name, readings, schedules, rec);
    }
    gapAlerts(user, readings, rec);
  }
  const list = rec.records.sort(bySystemTime).map((a) => Object.freeze(a));
  sessionCache.set(key, list);
  return list;
}

/**
 * The alert records with startMs ≤ systemTime ≤ endMs, ascending, as known at `nowMs`: those at
 * most SMOOTHING_LAG_MS before now (the readings that decide them are final by then).
 */
export function generateAlerts(
  user: SandboxUser,
  startMs: number,
  endMs: number,
  nowMs: number,
): SandboxAlert[] {
  if (!user.hasData) return [];
  const from = Math.max(startMs, HISTORY_START_MS);
  const to = Math.min(endMs, nowMs - SMOOTHING_LAG_MS);
  if (to < from) return [];
  const out: SandboxAlert[] = [];
  for (const s of sessionsBetween(user, from - STEP, to)) {
    for (const a of sessionAlerts(user, s)) if (a.systemMs >= from && a.systemMs <= to) out.push(a);
  }
  return out.sort(bySystemTime);
}
