import { z } from "zod";
import { parseServiceTime, serviceTimeUtcMs } from "./datetime";
import { ARROW_TRENDS } from "./trend";

/**
 * API v3 of the glucose data service (shared/spec/service-v3-notes.md), as zod schemas of what the
 * service sends: the sandbox builds its answers to these, and tests hold its answers to them with
 * `.strict()`. A client reads v3 with the lenient parsers of v3-read.ts instead, which accept
 * everything real responses have been seen to send (notes §4 and §5) and repair it.
 *
 * The enumerations list every value any revision of the notes' sources names (notes §4), so the
 * readers can tell a known value from a new one; what the sandbox sends is a subset.
 */

export const V3_RECORD_VERSION = "3.0";

/**
 * `recordType` per endpoint. The doc samples write three of them in the plural; Tidepool's strict
 * checks accept only the singular, which suggests production sends the singular (notes §2): the
 * sandbox sends the singular, readers accept either.
 */
export const V3_RECORD_TYPES = {
  egvs: "egv",
  calibrations: "calibration",
  events: "event",
  devices: "device",
  alerts: "alert",
  dataRange: "dataRange",
} as const;

// ---- Enumerations (notes §4: older HTML docs ∪ newer swagger ∪ values seen in production) --------

export const TRANSMITTER_GENERATIONS_V3 = [
  "unknown",
  "g4",
  "g5",
  "g6",
  "g6+",
  "g6Pro",
  "g6 pro",
  "dexcomPro",
  "g7",
  "g715day",
] as const;
export const TRANSMITTER_VARIANTS_V3 = ["d1+", "g6", "g7", "g715day"] as const;
export const DISPLAY_DEVICES_V3 = [
  "unknown",
  "receiver",
  "iOS",
  "android",
  "shareReceiver",
  "touchscreenReceiver",
] as const;
export const EGV_STATUSES_V3 = ["unknown", "high", "low", "ok"] as const;
export const TRENDS_V3 = ["none", "unknown", ...ARROW_TRENDS, "notComputable", "rateOutOfRange"] as const;
export const GLUCOSE_UNITS_V3 = ["unknown", "mg/dL", "mmol/L"] as const;
export const RATE_UNITS_V3 = ["unknown", "mg/dL/min", "mmol/L/min"] as const;
export const EVENT_TYPES_V3 = [
  "unknown",
  "insulin",
  "carbs",
  "exercise",
  "health",
  "bloodGlucose",
  "notes",
] as const;
export const EVENT_SUB_TYPES_V3 = [
  "unknown",
  "fastActing",
  "longActing",
  "light",
  "medium",
  "heavy",
  "illness",
  "stress",
  "highSymptoms",
  "lowSymptoms",
  "cycle",
  "alcohol",
] as const;
export const EVENT_UNITS_V3 = ["unknown", "grams", "mg/dL", "mmol/L", "minutes", "units"] as const;
export const EVENT_STATUSES_V3 = ["created", "updated", "deleted"] as const;
export const ALERT_NAMES_V3 = [
  "unknown",
  "high",
  "low",
  "rise",
  "fall",
  "outOfRange",
  "urgentLow",
  "urgentLowSoon",
  "noReadings",
  "fixedLow",
] as const;
export const ALERT_STATES_V3 = ["unknown", "inactive", "activeSnoozed", "activeAlarming"] as const;
export const ALERT_SETTING_UNITS_V3 = [
  "unknown",
  "mg/dL",
  "mmol/L",
  "mg/dL/min",
  "mmol/L/min",
  "minutes",
  "grams",
  "units",
] as const;
export const OVERRIDE_MODES_V3 = ["unknown", "quiet", "vibrate"] as const;
export const SOUND_THEMES_V3 = ["unknown", "modern", "classic"] as const;
export const SOUND_OUTPUT_MODES_V3 = ["unknown", "sound", "vibrate", "match"] as const;
export const DAYS_OF_WEEK_V3 = [
  "sunday",
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
] as const;

export type TransmitterGenerationV3 = (typeof TRANSMITTER_GENERATIONS_V3)[number];
export type TransmitterVariantV3 = (typeof TRANSMITTER_VARIANTS_V3)[number];
export type DisplayDeviceV3 = (typeof DISPLAY_DEVICES_V3)[number];
export type EgvStatusV3 = (typeof EGV_STATUSES_V3)[number];
export type TrendV3 = (typeof TRENDS_V3)[number];
export type EventTypeV3 = (typeof EVENT_TYPES_V3)[number];
export type EventSubTypeV3 = (typeof EVENT_SUB_TYPES_V3)[number];
export type EventUnitV3 = (typeof EVENT_UNITS_V3)[number];
export type EventStatusV3 = (typeof EVENT_STATUSES_V3)[number];
export type AlertNameV3 = (typeof ALERT_NAMES_V3)[number];
export type AlertStateV3 = (typeof ALERT_STATES_V3)[number];
export type AlertSettingUnitV3 = (typeof ALERT_SETTING_UNITS_V3)[number];
export type OverrideModeV3 = (typeof OVERRIDE_MODES_V3)[number];
export type SoundThemeV3 = (typeof SOUND_THEMES_V3)[number];
export type SoundOutputModeV3 = (typeof SOUND_OUTPUT_MODES_V3)[number];
export type DayOfWeekV3 = (typeof DAYS_OF_WEEK_V3)[number];

// ---- What the service sends ----------------------------------------------------------------------

/**
 * A time as the sandbox writes it: `YYYY-MM-DDThh:mm:ss`, then `Z` (a phone's systemTime), an
 * offset `±hh:mm` (a phone's displayTime) or nothing (a receiver's times). Notes §3.
 */
export const v3DateTimeSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})?$/, {
    message: "must be YYYY-MM-DDThh:mm:ss, then Z, ±hh:mm or nothing",
  })
  .refine((t) => parseServiceTime(t) !== null, { message: "must be a real calendar date and time" });

/** A time of day of an alert schedule, `HH:mm` (notes §3.4). */
export const v3TimeOfDaySchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: "must be HH:mm" });

const uuidSchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, { message: "must be a UUID" });

/** Notes §5 item 3: an opaque 64-character hash (empty for a few new accounts). */
export const transmitterIdSchema = z.string().regex(/^([0-9a-z]{64})?$/, {
  message: "must be a 64-character hash (or empty)",
});

const timestamps = { systemTime: v3DateTimeSchema, displayTime: v3DateTimeSchema };
const transmitter = {
  transmitterGeneration: z.enum(TRANSMITTER_GENERATIONS_V3),
  transmitterGenerationVariant: z.enum(TRANSMITTER_VARIANTS_V3).nullable(),
  displayDevice: z.enum(DISPLAY_DEVICES_V3),
};

/** Notes §3.1. `value` is mg/dL whatever the user's display unit; 39 and 401 carry status low/high. */
export const egvV3Schema = z.object({
  recordId: uuidSchema,
  ...timestamps,
  transmitterId: transmitterIdSchema.nullable(),
  transmitterTicks: z.number().int().nonnegative(),
  value: z.number().int().nullable(),
  status: z.enum(["high", "low"]).nullable(),
  trend: z.enum(TRENDS_V3).nullable(),
  trendRate: z.number().nullable(),
  unit: z.enum(GLUCOSE_UNITS_V3),
  rateUnit: z.enum(RATE_UNITS_V3),
  ...transmitter,
  displayApp: z.string().nullable(),
});

/** Notes §3.2. */
export const calibrationV3Schema = z.object({
  recordId: uuidSchema,
  ...timestamps,
  unit: z.enum(GLUCOSE_UNITS_V3).nullable(),
  value: z.number().int(),
  transmitterId: transmitterIdSchema,
  transmitterTicks: z.number().int().nonnegative(),
  ...transmitter,
});

/** Notes §3.3. `value` is a string in v3; a health event has neither value nor unit (null). */
export const eventV3Schema = z.object({
  recordId: uuidSchema,
  ...timestamps,
  eventStatus: z.enum(EVENT_STATUSES_V3),
  eventType: z.enum(EVENT_TYPES_V3),
  eventSubType: z.enum(EVENT_SUB_TYPES_V3).nullable(),
  value: z.string().nullable(),
  unit: z.enum(EVENT_UNITS_V3).nullable(),
  transmitterId: transmitterIdSchema,
  ...transmitter,
});

/** Notes §3.4, `alertSettings[]`. */
export const alertSettingV3Schema = z.object({
  alertName: z.enum(ALERT_NAMES_V3),
  value: z.number().int().nullable(),
  unit: z.enum(ALERT_SETTING_UNITS_V3).nullable(),
  snooze: z.number().int().nullable(),
  enabled: z.boolean(),
  systemTime: v3DateTimeSchema.nullable(),
  displayTime: v3DateTimeSchema.nullable(),
  delay: z.number().int().nullable(),
  secondaryTriggerCondition: z.number().int().nullable(),
  soundTheme: z.enum(SOUND_THEMES_V3).nullable(),
  soundOutputMode: z.enum(SOUND_OUTPUT_MODES_V3).nullable(),
});

export const alertOverrideV3Schema = z.object({
  isOverrideEnabled: z.boolean().nullable(),
  mode: z.enum(OVERRIDE_MODES_V3),
  endTime: v3DateTimeSchema.nullable(),
});

export const alertScheduleSettingsV3Schema = z.object({
  alertScheduleName: z.string(),
  isEnabled: z.boolean(),
  isDefaultSchedule: z.boolean(),
  startTime: v3TimeOfDaySchema,
  endTime: v3TimeOfDaySchema,
  daysOfWeek: z.array(z.enum(DAYS_OF_WEEK_V3)).min(1),
  isActive: z.boolean().nullable(),
  override: alertOverrideV3Schema.nullable(),
});

export const alertScheduleV3Schema = z.object({
  alertScheduleSettings: alertScheduleSettingsV3Schema,
  alertSettings: z.array(alertSettingV3Schema),
});

/** Notes §3.4. No query parameters; the settings are those as of lastUploadDate. */
export const deviceV3Schema = z.object({
  lastUploadDate: v3DateTimeSchema,
  transmitterId: transmitterIdSchema.nullable(),
  ...transmitter,
  displayApp: z.string().nullable(),
  alertSchedules: z.array(alertScheduleV3Schema),
});

/** Notes §3.5: one change of an alert's state. */
export const alertV3Schema = z.object({
  recordId: uuidSchema,
  ...timestamps,
  alertName: z.enum(ALERT_NAMES_V3),
  alertState: z.enum(ALERT_STATES_V3),
  transmitterId: transmitterIdSchema,
  ...transmitter,
  displayApp: z.string(),
});

function envelope<const T extends string, R extends z.ZodType>(recordType: T, record: R) {
  return z.object({
    recordType: z.literal(recordType),
    recordVersion: z.literal(V3_RECORD_VERSION),
    userId: z.string().min(1),
    records: z.array(record),
  });
}

export const egvsV3ResponseSchema = envelope(V3_RECORD_TYPES.egvs, egvV3Schema);
export const calibrationsV3ResponseSchema = envelope(V3_RECORD_TYPES.calibrations, calibrationV3Schema);
export const eventsV3ResponseSchema = envelope(V3_RECORD_TYPES.events, eventV3Schema);
export const devicesV3ResponseSchema = envelope(V3_RECORD_TYPES.devices, deviceV3Schema);
export const alertsV3ResponseSchema = envelope(V3_RECORD_TYPES.alerts, alertV3Schema);

const momentV3Schema = z.object(timestamps);
const rangeV3Schema = z.object({ start: momentV3Schema, end: momentV3Schema }).nullable();

/** Notes §3.6: the envelope without records, and one range per group (null when it is empty). */
export const dataRangeV3ResponseSchema = z.object({
  recordType: z.literal(V3_RECORD_TYPES.dataRange),
  recordVersion: z.literal(V3_RECORD_VERSION),
  userId: z.string().min(1),
  calibrations: rangeV3Schema,
  egvs: rangeV3Schema,
  events: rangeV3Schema,
});

export type EgvV3 = z.infer<typeof egvV3Schema>;
export type CalibrationV3 = z.infer<typeof calibrationV3Schema>;
export type EventV3 = z.infer<typeof eventV3Schema>;
export type AlertSettingV3 = z.infer<typeof alertSettingV3Schema>;
export type AlertScheduleV3 = z.infer<typeof alertScheduleV3Schema>;
export type AlertOverrideV3 = z.infer<typeof alertOverrideV3Schema>;
export type DeviceV3 = z.infer<typeof deviceV3Schema>;
export type AlertV3 = z.infer<typeof alertV3Schema>;
export type DataRangeV3Response = z.infer<typeof dataRangeV3ResponseSchema>;
export interface V3Envelope<R> {
  recordType: string;
  recordVersion: typeof V3_RECORD_VERSION;
  userId: string;
  records: R[];
}

// ---- Requests -----------------------------------------------------------------------------------

/** v3 windows: at most 30 days (notes §1.2, "Maximum window"; v2 allowed 90). */
export const V3_MAX_WINDOW_DAYS = 30;

/**
 * A `startDate`/`endDate`/`lastSyncTime` as v3 reads it: `YYYY-MM-DDThh:mm:ss`, optionally with a
 * fraction of a second and a zone (`Z` or `±hh:mm`). The type is `date-time` while the doc examples
 * have no zone (notes §1.2): both are read, a time without a zone as UTC.
 */
export const v3QueryTimeSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})?$/, {
    message:
      "must be a date-time of the shape YYYY-MM-DDThh:mm:ss (a fraction of a second and a zone are optional)",
  })
  .refine((t) => parseServiceTime(t) !== null, { message: "must be a real calendar date and time" });

/** The UTC instant of a valid v3 query time (see v3QueryTimeSchema), or null. */
export function v3QueryTimeMs(text: string): number | null {
  const t = parseServiceTime(text);
  return t ? serviceTimeUtcMs(t) : null;
}

/** The startDate/endDate of a windowed v3 endpoint: the window is [start, end) on systemTime. */
export const v3WindowQuerySchema = z
  .object({
    startDate: z.string({ error: "startDate is required" }).pipe(v3QueryTimeSchema),
    endDate: z.string({ error: "endDate is required" }).pipe(v3QueryTimeSchema),
  })
  .refine((q) => (v3QueryTimeMs(q.startDate) ?? 0) < (v3QueryTimeMs(q.endDate) ?? 0), {
    message: "startDate must be before endDate",
    path: ["startDate"],
  });

export function v3WindowQueryFrom(searchParams: URLSearchParams) {
  return v3WindowQuerySchema.safeParse({
    startDate: searchParams.get("startDate") ?? undefined,
    endDate: searchParams.get("endDate") ?? undefined,
  });
}

/**
 * The optional `lastSyncTime` of v3 dataRange. Tidepool's code says the service requires a zone on
 * it (notes §1.2), so one without a zone is refused rather than guessed.
 */
export const v3LastSyncTimeSchema = v3QueryTimeSchema.refine((t) => /(Z|[+-]\d{2}:\d{2})$/.test(t), {
  message: "must carry a zone (Z or ±hh:mm), e.g. 2026-01-31T08:00:00Z",
});
