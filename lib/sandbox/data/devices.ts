import {
  type AlertNameV3,
  type AlertScheduleV3,
  type AlertSettingV1,
  type AlertSettingV2,
  type AlertSettingV3,
  type DeviceV1,
  type DeviceV2,
  type DeviceV3,
  daysOfWeek,
  formatDateTime,
  inTimeOfDayWindow,
  MS_PER_DAY,
  MS_PER_MINUTE,
  parseTime,
  secondsOfDay,
  timeOfDayWindow,
} from "@/lib/cgm";
import type { AlertPlan, AlertValues, SandboxUser } from "../users";
import { displayOf } from "./clock";
import { HISTORY_START_MS } from "./constants";
import { egvDay } from "./day";
import { mix, PURPOSE, unit } from "./random";
import { seedOf } from "./seed";
import { transmitterAt } from "./transmitter";
import { v3Times, v3UtcTime } from "./v3-time";

/**
 * Device records (spec 2.4). Decisions where the spec is silent:
 * - One display device per user, one record: it appears when it contributed an EGV in the window
 *   (whole days, per spec 4). For G6/G7 a new transmitter per sensor is not modelled.
 * - Uploads: phones and the Share receiver upload every reading as it comes, 3–40 s after its
 *   systemTime. lastUploadDate is the upload of the last EGV in the window (so it may lie after the
 *   window end); an upload not yet done at `now` counts as done now (never after now).
 * - Alert settings are those in force at lastUploadDate. Fixed users set them once, right after
 *   their first sensor insertion (each alert a few seconds apart). User4's settings are changed
 *   every day at the same time: day p (counted from that setup) uses
 *   high 120 + 10·(7p mod 29), low 60 + 5·(4p mod 9), rise 2 + (p mod 2), fall 3 − (p mod 2),
 *   outOfRange 20 + 5·(11p mod 45) minutes: the multipliers are coprime to the number of allowed
 *   values, so 29, 9, 2 and 45 consecutive days serve every allowed value. fixedLow is 55 mg/dL and
 *   enabled always.
 * - Alert values are in mg/dL (mg/dL/min, minutes) for every user: the spec's ranges are in mg/dL.
 * - v2: a Default schedule (00:00:00–00:00:00, every day) for everyone; User1 and User2 add an
 *   enabled "Night" schedule 22:00:00–06:00:00. v2 settings have no delay; rise and fall have no
 *   snooze on G6/G7 (null).
 * - v3 (service-v3-notes §3.4): one device record whatever the window (the device of the last
 *   upload), `alertSchedules` with the same values. The default schedule is named "" and runs
 *   00:00–00:00 (the doc sample; Tidepool requires both); `isEnabled` is read as the doc says,
 *   "refers to a timed schedule; false if the user has none", so the default schedule's is true
 *   only for users with a timed schedule; `isActive` marks the schedule in force at the upload.
 *   The alerts are the device's (users.ts `device.alertNames`): G4/G5 keep fixedLow, G6/G7 call
 *   the 55 mg/dL alarm urgentLow (the newer swagger has no fixedLow) and add urgentLowSoon (no
 *   threshold of its own: value null) and noReadings (20 minutes); ONE+ lacks urgentLow,
 *   urgentLowSoon, rise and fall. `delay` is the v1 delay (high only, User4); soundTheme and
 *   soundOutputMode only on the G7 family.
 * - A timed schedule applies on its days: the part past midnight belongs to the day it started
 *   (Sunday's 22:00–06:00 covers Monday 03:00).
 */

const UPLOAD_DELAY_S = [3, 40] as const;

/** systemMs of the last EGV with start ≤ t ≤ end (and ≤ now), or null. */
export function lastEgvIn(user: SandboxUser, startMs: number, endMs: number, nowMs: number): number | null {
  if (!user.hasData) return null;
  const from = Math.max(startMs, HISTORY_START_MS);
  const to = Math.min(endMs, nowMs);
  if (to < from) return null;
  for (let d = Math.floor(to / MS_PER_DAY); d >= Math.floor(from / MS_PER_DAY); d--) {
    const day = egvDay(user, d);
    for (let i = day.count - 1; i >= 0; i--) {
      const t = day.systemMs[i]!;
      if (t > to) continue;
      if (t < from) return null;
      return t;
    }
  }
  return null;
}

function uploadOf(user: SandboxUser, readingMs: number, nowMs: number): number {
  const [lo, hi] = UPLOAD_DELAY_S;
  const delayS =
    lo + Math.floor(unit(mix(seedOf(user), PURPOSE.upload, Math.round(readingMs / 1000))) * (hi - lo + 1));
  return Math.min(nowMs, readingMs + delayS * 1000);
}

interface AlertState {
  values: AlertValues;
  /** When the settings were last adjusted (systemMs). */
  adjustedMs: number;
  /** v1 delay of the high alert (minutes). */
  highDelay: number;
}

function setupMs(user: SandboxUser): number {
  return HISTORY_START_MS + (user.sensor.firstInsertionMin + 10) * MS_PER_MINUTE;
}

/** User4's settings on day p of the rotation. */
export function rotatingValues(p: number): AlertValues & { highDelay: number } {
  const m = (a: number, n: number) => ((a % n) + n) % n;
  return {
    high: 120 + 10 * m(7 * p, 29),
    low: 60 + 5 * m(4 * p, 9),
    rise: 2 + m(p, 2),
    fall: 3 - m(p, 2),
    outOfRange: 20 + 5 * m(11 * p, 45),
    enabled: {
      high: m(p, 6) !== 5,
      low: true,
      rise: m(p, 3) !== 0,
      fall: m(p, 4) !== 1,
      outOfRange: m(p, 5) !== 2,
    },
    snooze: {
      high: [0, 30, 60, 120, 240][m(p, 5)] ?? 0,
      low: [15, 30][m(p, 2)] ?? 30,
      rise: 0,
      fall: 0,
      outOfRange: [0, 30][m(p, 2)] ?? 0,
      fixedLow: 30,
    },
    highDelay: [0, 15, 30][m(p, 3)] ?? 0,
  };
}

function alertStateAt(user: SandboxUser, atMs: number): AlertState {
  const setup = setupMs(user);
  if (user.alerts.mode === "fixed") return { values: user.alerts.defaults, adjustedMs: setup, highDelay: 0 };
  const p = Math.max(0, Math.floor((atMs - setup) / MS_PER_DAY));
  const { highDelay, ...values } = rotatingValues(p);
  return { values, adjustedMs: setup + p * MS_PER_DAY, highDelay };
}

type Name = "high" | "low" | "rise" | "fall" | "outOfRange" | "fixedLow";
const NAMES: readonly Name[] = ["high", "low", "rise", "fall", "outOfRange", "fixedLow"];

function settingParts(v: AlertValues, name: Name) {
  switch (name) {
    case "high":
    case "low":
      return { value: v[name], unit: "mg/dL" as const, snooze: v.snooze[name], enabled: v.enabled[name] };
    case "rise":
    case "fall":
      return { value: v[name], unit: "mg/dL/min" as const, snooze: v.snooze[name], enabled: v.enabled[name] };
    case "outOfRange":
      return {
        value: v.outOfRange,
        unit: "minutes" as const,
        snooze: v.snooze.outOfRange,
        enabled: v.enabled.outOfRange,
      };
    case "fixedLow":
      return { value: 55, unit: "mg/dL" as const, snooze: v.snooze.fixedLow, enabled: true };
  }
}

/** Each alert was adjusted a few seconds apart, the last one at `adjustedMs`. */
function stamp(user: SandboxUser, adjustedMs: number, i: number) {
  const t = adjustedMs - (NAMES.length - 1 - i) * 37_000;
  return { systemTime: formatDateTime(t), displayTime: formatDateTime(displayOf(user, t)) };
}

function v1Settings(user: SandboxUser, state: AlertState): AlertSettingV1[] {
  return NAMES.map((name, i) => ({
    ...stamp(user, state.adjustedMs, i),
    alertName: name,
    ...settingParts(state.values, name),
    delay: name === "high" ? state.highDelay : 0,
  }));
}

function v2Settings(user: SandboxUser, values: AlertValues, adjustedMs: number): AlertSettingV2[] {
  const rateNoSnooze = user.generation === "g6" || user.generation === "g7";
  return NAMES.map((name, i) => {
    const parts = settingParts(values, name);
    const snooze = rateNoSnooze && (name === "rise" || name === "fall") ? null : parts.snooze;
    return { ...stamp(user, adjustedMs, i), alertName: name, ...parts, snooze };
  });
}

export function devicesV1(user: SandboxUser, startMs: number, endMs: number, nowMs: number): DeviceV1[] {
  const last = lastEgvIn(user, startMs, endMs, nowMs);
  if (last === null) return [];
  const upload = uploadOf(user, last, nowMs);
  return [
    {
      model: user.model,
      lastUploadDate: formatDateTime(upload),
      alertSettings: v1Settings(user, alertStateAt(user, upload)),
    },
  ];
}

export function devicesV2(user: SandboxUser, startMs: number, endMs: number, nowMs: number): DeviceV2[] {
  const last = lastEgvIn(user, startMs, endMs, nowMs);
  if (last === null) return [];
  const upload = uploadOf(user, last, nowMs);
  const state = alertStateAt(user, upload);
  const schedules: DeviceV2["alertScheduleList"] = [
    {
      alertScheduleSettings: {
        alertScheduleName: "Default",
        isEnabled: true,
        isDefaultSchedule: true,
        startTime: "00:00:00",
        endTime: "00:00:00",
        daysOfWeek: [...daysOfWeek],
      },
      alertSettings: v2Settings(user, state.values, state.adjustedMs),
    },
  ];
  const night = user.alerts.night;
  if (night && upload >= nightSetupMs(user)) {
    schedules.push({
      alertScheduleSettings: {
        alertScheduleName: "Night",
        isEnabled: true,
        isDefaultSchedule: false,
        startTime: night.startTime,
        endTime: night.endTime,
        daysOfWeek: [...night.daysOfWeek],
      },
      // The night schedule was set up a day after the default one (and is absent before that).
      alertSettings: v2Settings(user, night.values, nightSetupMs(user)),
    });
  }
  return [
    {
      transmitterGeneration: user.generation,
      displayDevice: user.displayDevice,
      lastUploadDate: formatDateTime(upload),
      alertScheduleList: schedules,
    },
  ];
}

// ---- API v3 --------------------------------------------------------------------------------------

export interface ScheduleInForce {
  name: "default" | "night";
  values: AlertValues;
  /** When its settings were last adjusted (systemMs). */
  adjustedMs: number;
  /** Minutes the high alert waits (User4's rotation; 0 otherwise). */
  highDelay: number;
}

function nightSetupMs(user: SandboxUser): number {
  return setupMs(user) + MS_PER_DAY;
}

/** Whether a timed schedule (display clock) covers the display instant `displayMs`. */
function timedScheduleCovers(
  schedule: { startTime: string; endTime: string; weekdays: readonly number[] },
  displayMs: number,
): boolean {
  const w = timeOfDayWindow(schedule.startTime, schedule.endTime);
  const second = secondsOfDay(displayMs);
  if (!inTimeOfDayWindow(w, second)) return false;
  // Past midnight, the schedule that covers the hour started the day before.
  const startedDayBefore = w.startSecond > w.endSecond % 86_400 && second < w.startSecond;
  const day = Math.floor(displayMs / MS_PER_DAY) - (startedDayBefore ? 1 : 0);
  return schedule.weekdays.includes((((day + 4) % 7) + 7) % 7);
}

const dayIndex = (d: string) => (daysOfWeek as readonly string[]).indexOf(d);

function nightCovers(night: NonNullable<AlertPlan["night"]>, displayMs: number): boolean {
  return timedScheduleCovers({ ...night, weekdays: night.daysOfWeek.map(dayIndex) }, displayMs);
}

/** The alert settings in force at a UTC instant: the night schedule's on its days and hours. */
export function scheduleAt(user: SandboxUser, systemMs: number): ScheduleInForce {
  const state = alertStateAt(user, systemMs);
  const night = user.alerts.night;
  if (night && systemMs >= nightSetupMs(user) && nightCovers(night, displayOf(user, systemMs))) {
    return { name: "night", values: night.values, adjustedMs: nightSetupMs(user), highDelay: 0 };
  }
  return { name: "default", ...state };
}

/** The noReadings alert of G6/G7 sounds after this many minutes without readings (not adjustable). */
export const NO_READINGS_MINUTES = 20;
/** urgentLow (fixedLow on G4/G5) sounds below this, mg/dL (spec 2.4: not user-editable). */
export const URGENT_LOW_MGDL = 55;

/** What the settings in force say of one alert: value, unit, snooze, enabled, delay. */
function v3SettingParts(user: SandboxUser, schedule: ScheduleInForce, name: AlertNameV3) {
  const v = schedule.values;
  switch (name) {
    case "high":
    case "low":
    case "rise":
    case "fall":
    case "outOfRange": {
      const parts = settingParts(v, name);
      const rateNoSnooze =
        (name === "rise" || name === "fall") && (user.generation === "g6" || user.generation === "g7");
      return {
        ...parts,
        snooze: rateNoSnooze ? null : parts.snooze,
        delay: name === "high" ? schedule.highDelay : 0,
      };
    }
    case "noReadings":
      return { value: NO_READINGS_MINUTES, unit: "minutes" as const, snooze: 0, enabled: true, delay: 0 };
    case "urgentLowSoon":
      return { value: null, unit: null, snooze: v.snooze.fixedLow, enabled: true, delay: 0 };
    default:
      // urgentLow, fixedLow: always on, at 55 mg/dL.
      return { ...settingParts(v, "fixedLow"), delay: 0 };
  }
}

function v3Setting(
  user: SandboxUser,
  schedule: ScheduleInForce,
  name: AlertNameV3,
  i: number,
): AlertSettingV3 {
  const { value, unit, snooze, enabled, delay } = v3SettingParts(user, schedule, name);
  // Set up one after the other, a few seconds apart, the last at adjustedMs (as for v1/v2).
  const t = schedule.adjustedMs - (user.device.alertNames.length - 1 - i) * 37_000;
  return {
    alertName: name,
    value,
    unit,
    snooze,
    enabled,
    ...v3Times(user, t),
    delay,
    secondaryTriggerCondition: null,
    soundTheme: user.device.sound?.theme ?? null,
    soundOutputMode: user.device.sound?.outputMode ?? null,
  };
}

function v3Settings(user: SandboxUser, schedule: ScheduleInForce): AlertSettingV3[] {
  return user.device.alertNames.map((name, i) => v3Setting(user, schedule, name, i));
}

const hhmm = (time: string) => time.slice(0, 5);

/** The override state at the upload: on (with its end) inside its hours, else off. */
function overrideAt(user: SandboxUser, atMs: number): AlertScheduleV3["alertScheduleSettings"]["override"] {
  const o = user.alerts.override;
  if (!o) return null;
  const displayMs = displayOf(user, atMs);
  if (!timedScheduleCovers(o, displayMs)) return { isOverrideEnabled: false, mode: o.mode, endTime: null };
  // The end on the display clock of the same (or, past midnight, the next) day, as a UTC instant.
  const endSecond = parseTime(o.endTime) ?? 0;
  let endDisplay = Math.floor(displayMs / MS_PER_DAY) * MS_PER_DAY + endSecond * 1000;
  if (endDisplay <= displayMs) endDisplay += MS_PER_DAY;
  const endMs = atMs + (endDisplay - displayMs);
  return { isOverrideEnabled: true, mode: o.mode, endTime: v3Times(user, endMs).systemTime };
}

/**
 * GET /v3/users/self/devices: the user's display device as of its last upload (none for a user
 * who never uploaded), with every alert schedule.
 */
export function devicesV3(user: SandboxUser, nowMs: number): DeviceV3[] {
  const last = lastEgvIn(user, HISTORY_START_MS, nowMs, nowMs);
  if (last === null) return [];
  const upload = uploadOf(user, last, nowMs);
  const inForce = scheduleAt(user, upload);
  const defaults: ScheduleInForce = { name: "default", ...alertStateAt(user, upload) };
  const night = user.alerts.night && upload >= nightSetupMs(user) ? user.alerts.night : null;
  const schedules: AlertScheduleV3[] = [
    {
      alertScheduleSettings: {
        alertScheduleName: "",
        isEnabled: night !== null,
        isDefaultSchedule: true,
        startTime: "00:00",
        endTime: "00:00",
        daysOfWeek: [...daysOfWeek],
        isActive: inForce.name === "default",
        override: inForce.name === "default" ? overrideAt(user, upload) : null,
      },
      alertSettings: v3Settings(user, defaults),
    },
  ];
  if (night) {
    schedules.push({
      alertScheduleSettings: {
        alertScheduleName: "Night",
        isEnabled: true,
        isDefaultSchedule: false,
        startTime: hhmm(night.startTime),
        endTime: hhmm(night.endTime),
        daysOfWeek: [...night.daysOfWeek],
        isActive: inForce.name === "night",
        override: inForce.name === "night" ? overrideAt(user, upload) : null,
      },
      alertSettings: v3Settings(user, {
        name: "night",
        values: night.values,
        adjustedMs: nightSetupMs(user),
        highDelay: 0,
      }),
    });
  }
  const transmitter = transmitterAt(user, upload);
  return [
    {
      lastUploadDate: v3UtcTime(user, upload),
      transmitterId: transmitter.id,
      transmitterGeneration: user.device.transmitterGeneration,
      transmitterGenerationVariant: user.device.variant,
      displayDevice: user.displayDevice,
      displayApp: user.device.displayApp,
      alertSchedules: schedules,
    },
  ];
}
