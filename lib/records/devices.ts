import type { CgmAlertName, CgmAlertSetting, CgmDevice } from "@/lib/cgm/app-records";
import { MS_PER_DAY } from "@/lib/cgm/datetime";
import { glucoseText } from "@/lib/cgm/glucose-text";
import { daysOfWeek, timeOfDayWindow } from "@/lib/cgm/schemas";
import { convertGlucose, GLUCOSE_UNITS, type GlucoseUnit, rateUnitFor } from "@/lib/cgm/units";
import { countText, formatAmount, formatClock, formatDateTimeText } from "./format";

/**
 * The devices page (spec 2.4): device records, their alert schedules (v2) and alert settings
 * (v1 and v2) in words. Glucose thresholds are shown in the patient's display unit; rates in the
 * matching rate unit; minutes as minutes.
 */

/**
 * The devices page lists the devices that uploaded in the last 30 days of readings; the
 * calibrations page asks the same devices whether calibrations are expected at all.
 */
export const DEVICE_DAYS = 30;

/**
 * Where a report looks for the devices of its period: its last DEVICE_DAYS days at most. The device
 * in use at the period's end uploaded in them, and one such window is what the service answers in a
 * single call (v3 takes windows of at most 30 days), however long the report's period.
 */
export function deviceLookupWindow(period: { startMs: number; endMs: number }): {
  startMs: number;
  endMs: number;
} {
  return { startMs: Math.max(period.startMs, period.endMs - DEVICE_DAYS * MS_PER_DAY), endMs: period.endMs };
}

/**
 * The devices newest upload first: the first is the device in use (the last to upload), as the
 * reports' identity line and the FHIR export's Device both name it. DateTimes of one shape sort as
 * text.
 */
export function newestUploadFirst<D extends Pick<CgmDevice, "lastUploadDate">>(devices: readonly D[]): D[] {
  return [...devices].sort((a, b) => b.lastUploadDate.localeCompare(a.lastUploadDate));
}

/** The device in use at the end of a period: the one that uploaded last; null for none. */
export function deviceInUse<D extends Pick<CgmDevice, "lastUploadDate">>(devices: readonly D[]): D | null {
  return newestUploadFirst(devices)[0] ?? null;
}

type Day = (typeof daysOfWeek)[number];
const DAY_NAMES: Record<Day, string> = {
  sunday: "Sunday",
  monday: "Monday",
  tuesday: "Tuesday",
  wednesday: "Wednesday",
  thursday: "Thursday",
  friday: "Friday",
  saturday: "Saturday",
};

/**
 * The days a schedule applies to: "Every day", "Weekdays", "Weekends", a run of three or more
 * days as "Sunday to Thursday" (also across the weekend: "Friday to Monday"), else a list in week
 * order ("Monday, Wednesday, Friday").
 */
export function scheduleDaysText(days: readonly Day[]): string {
  const set = new Set(days);
  const idx = daysOfWeek.map((d, i) => (set.has(d) ? i : -1)).filter((i) => i >= 0);
  const n = idx.length;
  if (n === 0) return "No days";
  if (n === 7) return "Every day";
  const is = (...names: Day[]) => n === names.length && names.every((d) => set.has(d));
  if (is("monday", "tuesday", "wednesday", "thursday", "friday")) return "Weekdays";
  if (is("saturday", "sunday")) return "Weekends";
  // A run: exactly one chosen day whose previous day (cyclically) is not chosen.
  const starts = idx.filter((i) => !set.has(daysOfWeek[(i + 6) % 7]!));
  if (n >= 3 && starts.length === 1) {
    const first = starts[0]!;
    const last = (first + n - 1) % 7;
    return `${DAY_NAMES[daysOfWeek[first]!]} to ${DAY_NAMES[daysOfWeek[last]!]}`;
  }
  return idx.map((i) => DAY_NAMES[daysOfWeek[i]!]).join(", ");
}

/** "All day" (start equal to end), "08:00 to 17:00", "22:00 to 06:00 (overnight)". */
export function scheduleHoursText(startTime: string, endTime: string): string {
  const w = timeOfDayWindow(startTime, endTime);
  if (w.endSecond - w.startSecond >= 86_400) return "All day";
  const text = `${formatClock(startTime)} to ${formatClock(endTime)}`;
  return w.endSecond < w.startSecond ? `${text} (overnight)` : text;
}

export const ALERT_LABELS: Record<CgmAlertName, string> = {
  fixedLow: "Urgent low (fixed)",
  // API v3: the urgent low alert and its forecast, and no readings.
  urgentLow: "Urgent low",
  urgentLowSoon: "Urgent low soon",
  low: "Low",
  high: "High",
  rise: "Rise rate",
  fall: "Fall rate",
  outOfRange: "Signal loss",
  noReadings: "No readings",
  unknown: "Other alert",
};
const ALERT_ORDER = Object.keys(ALERT_LABELS) as CgmAlertName[];

export function alertNameLabel(name: CgmAlertName): string {
  return ALERT_LABELS[name];
}

/**
 * Alerts in the order a person checks them: urgent low, urgent low soon, low, high, rise, fall,
 * signal loss, no readings.
 */
export function orderAlertSettings<T extends { alertName: CgmAlertName }>(settings: readonly T[]): T[] {
  return [...settings].sort((a, b) => ALERT_ORDER.indexOf(a.alertName) - ALERT_ORDER.indexOf(b.alertName));
}

const isGlucoseUnit = (unit: string): unit is GlucoseUnit =>
  (GLUCOSE_UNITS as readonly string[]).includes(unit);

/**
 * The value an alert is set at, in words, or null when the record has none.
 * - Glucose thresholds (mg/dL, mmol/L) are converted to `glucoseUnit` and shown as readings are
 *   ("70 mg/dL", "3.9 mmol/L").
 * - Rates (rise, fall) are converted to the rate unit of `glucoseUnit`: one decimal in mg/dL/min,
 *   two in mmol/L/min (2 mg/dL/min = 0.11 mmol/L/min). A rate is never read as a glucose value.
 * - Minutes (signal loss) stay minutes.
 */
export function alertValueText(
  setting: Pick<CgmAlertSetting, "value" | "unit">,
  glucoseUnit: GlucoseUnit,
): string | null {
  const { value, unit } = setting;
  if (value === null) return null;
  if (isGlucoseUnit(unit ?? ""))
    return glucoseText(convertGlucose(value, unit as GlucoseUnit, glucoseUnit), glucoseUnit);
  if (unit === "minutes") return countText(value, "minute", "minutes");
  // No unit, or one an alert cannot have (v3's enumeration lists grams and units): the bare number.
  if (unit !== "mg/dL/min" && unit !== "mmol/L/min") return formatAmount(value);
  const rate = convertGlucose(value, unit === "mg/dL/min" ? "mg/dL" : "mmol/L", glucoseUnit);
  const shown = glucoseUnit === "mg/dL" ? Math.round(rate * 10) / 10 : Math.round(rate * 100) / 100;
  return `${shown} ${rateUnitFor(glucoseUnit)}`;
}

/** Snooze minutes in words; null (not given, e.g. rate alerts on newer sensors) stays null. */
export function snoozeText(snooze: number | null): string | null {
  return snooze === null ? null : countText(snooze, "minute", "minutes");
}

/** API v3's generation names that are not "g" and a number (service-v3-notes.md §4). */
const GENERATIONS: Record<string, string> = {
  "g6+": "G6+",
  g6pro: "G6 Pro",
  "g6 pro": "G6 Pro",
  dexcompro: "Dexcom Pro",
  g715day: "G7 15-day",
  "d1+": "Dexcom ONE+",
};

/** "g7" → "G7", "g715day" → "G7 15-day"; other names as the service sends them; null stays null. */
export function generationLabel(generation: string | null): string | null {
  if (generation === null || generation.trim() === "") return null;
  const g = generation.trim();
  return /^g\d+$/i.test(g) ? g.toUpperCase() : (GENERATIONS[g.toLowerCase()] ?? g);
}

const DISPLAY_DEVICES: Record<string, string> = {
  ios: "iOS app",
  android: "Android app",
  receiver: "Receiver",
};

/** "iOS" → "iOS app", "android" → "Android app", "receiver" → "Receiver"; others as sent. */
export function displayDeviceLabel(displayDevice: string | null): string | null {
  if (displayDevice === null || displayDevice.trim() === "") return null;
  return DISPLAY_DEVICES[displayDevice.trim().toLowerCase()] ?? displayDevice.trim();
}

/** A heading for a v2 or v3 device: "G7 transmitter · iOS app", "Receiver", "Device". */
export function deviceTitle(device: Pick<CgmDevice, "transmitterGeneration" | "displayDevice">): string {
  const generation = generationLabel(device.transmitterGeneration);
  const display = displayDeviceLabel(device.displayDevice);
  if (generation && display) return `${generation} transmitter · ${display}`;
  if (generation) return `${generation} transmitter`;
  return display ?? "Device";
}

type ScheduleSettings = CgmDevice["alertScheduleList"][number]["alertScheduleSettings"];

/**
 * What a schedule is called on the page: its own name; the default schedule has none (API v3
 * sends "" for it, notes §3.4), so it is "the default schedule", never an empty pair of quotes.
 */
export function scheduleName(s: Pick<ScheduleSettings, "alertScheduleName" | "isDefaultSchedule">): {
  heading: string;
  settingsCaption: string;
} {
  const name = s.alertScheduleName.trim();
  if (name)
    return {
      heading: `Alert schedule “${name}”`,
      settingsCaption: `Alert settings of the “${name}” schedule`,
    };
  return s.isDefaultSchedule
    ? { heading: "Default alert schedule", settingsCaption: "Alert settings of the default schedule" }
    : {
        heading: "Alert schedule without a name",
        settingsCaption: "Alert settings of the schedule without a name",
      };
}

type Override = NonNullable<CgmDevice["alertScheduleList"][number]["alertScheduleSettings"]["override"]>;

const OVERRIDE_MODES: Record<Override["mode"], string> = {
  quiet: "quiet",
  vibrate: "vibrate only",
  unknown: "a mode the dashboard does not know",
};

/**
 * A schedule's manual override (API v3) said plainly: "On: vibrate only, until Tue 3 Mar 2026,
 * 11:30 (receiver's clock)", "Off (when on: vibrate only)". `endOnReceiver` is the override's end
 * on the receiver's clock (the service sends it in UTC); without it the UTC time is given. Null
 * when the schedule reports no override.
 */
export function overrideText(
  override: Override | null | undefined,
  endOnReceiver: string | undefined,
): string | null {
  if (!override) return null;
  const mode = OVERRIDE_MODES[override.mode];
  if (override.isOverrideEnabled !== true) return `Off (when on: ${mode})`;
  if (endOnReceiver) return `On: ${mode}, until ${formatDateTimeText(endOnReceiver)} (receiver's clock)`;
  if (override.endTime) return `On: ${mode}, until ${formatDateTimeText(override.endTime)} UTC`;
  return `On: ${mode}, no end time given`;
}

const SOUND_OUTPUT: Record<NonNullable<CgmAlertSetting["soundOutputMode"]>, string> = {
  sound: "Sound",
  vibrate: "Vibrate",
  match: "Match phone",
  unknown: "Other",
};

/** An alert's sound (API v3, G7 family): "Sound (modern)", "Vibrate", "Match phone"; null when not given. */
export function alertSoundText(
  setting: Pick<CgmAlertSetting, "soundOutputMode" | "soundTheme">,
): string | null {
  const output = setting.soundOutputMode ? SOUND_OUTPUT[setting.soundOutputMode] : null;
  const theme = setting.soundTheme && setting.soundTheme !== "unknown" ? setting.soundTheme : null;
  if (output && theme) return `${output} (${theme})`;
  return output ?? (theme ? `${theme[0]?.toUpperCase()}${theme.slice(1)} sounds` : null);
}
