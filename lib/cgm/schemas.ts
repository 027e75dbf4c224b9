import { z } from "zod";
import { parseDateTime, parseTime, SECONDS_PER_DAY } from "./datetime";
import { TRENDS } from "./trend";
import { GLUCOSE_UNITS, RATE_UNITS } from "./units";

export const dateTimeSchema = z.string().refine((t) => parseDateTime(t) !== null, {
  message: "must be a DateTime of the shape YYYY-MM-DDThh:mm:ss (no zone, a real calendar date)",
});

export const timeSchema = z
  .string()
  .refine((t) => parseTime(t) !== null, { message: "must be a Time of the shape hh:mm:ss" });

/**
 * Every resource and request of the glucose data service (spec sections 2, 4, 5 and
 * names-not-shown.md), as zod schemas. The sandbox serves these shapes and the client parses them:
 * a correction to the service's contract is made here and nowhere else.
 */

// ---- Enumerations -------------------------------------------------------------------------------

export const glucoseUnitSchema = z.enum(GLUCOSE_UNITS);
export const rateUnitSchema = z.enum(RATE_UNITS);
export const trendSchema = z.enum(TRENDS);
export const egvStatusSchema = z.enum(["high", "low"]);
export const eventTypeSchema = z.enum(["carbs", "insulin", "exercise", "health"]);
export const exerciseSubTypes = ["light", "medium", "heavy"] as const;
export const healthSubTypes = [
  "illness",
  "stress",
  "highSymptoms",
  "lowSymptoms",
  "cycle",
  "alcohol",
] as const;
export const eventSubTypeSchema = z.enum([...exerciseSubTypes, ...healthSubTypes]);
export const eventUnitSchema = z.enum(["grams", "units", "minutes"]);
export const eventStatusSchema = z.enum(["created", "deleted"]);
export const deviceModelSchema = z.enum([
  "G5 Mobile App",
  "G5 Receiver",
  "G4 with Sharing Receiver",
  "G4 Receiver",
  "Unknown",
]);
export const alertNameSchema = z.enum(["high", "low", "rise", "fall", "outOfRange", "fixedLow"]);
export const alertUnitSchema = z.enum(["mg/dL", "mmol/L", "mg/dL/min", "mmol/L/min", "minutes"]);
export const daysOfWeek = [
  "sunday",
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
] as const;
export const dayOfWeekSchema = z.enum(daysOfWeek);
export const hypoglycemiaRiskSchema = z.enum(["minimal", "low", "moderate", "high"]);

// ---- Records ------------------------------------------------------------------------------------

const timestamps = { systemTime: dateTimeSchema, displayTime: dateTimeSchema };

export const egvV1Schema = z.object({
  ...timestamps,
  value: z.number(),
  status: egvStatusSchema.nullable(),
  trend: trendSchema.nullable(),
  trendRate: z.number().nullable(),
});

export const egvV2Schema = egvV1Schema.extend({
  realtimeValue: z.number(),
  smoothedValue: z.number().nullable(),
});

export const egvsV1ResponseSchema = z.object({
  unit: glucoseUnitSchema,
  rateUnit: rateUnitSchema,
  egvs: z.array(egvV1Schema),
});
export const egvsV2ResponseSchema = z.object({
  unit: glucoseUnitSchema,
  rateUnit: rateUnitSchema,
  egvs: z.array(egvV2Schema),
});

export const calibrationSchema = z.object({
  ...timestamps,
  value: z.number(),
  unit: glucoseUnitSchema,
});
export const calibrationsResponseSchema = z.object({ calibrations: z.array(calibrationSchema) });

export const eventV1Schema = z.object({
  ...timestamps,
  eventType: eventTypeSchema,
  eventSubType: eventSubTypeSchema.nullable(),
  value: z.number().nullable(),
  unit: eventUnitSchema.nullable(),
});
export const eventV2Schema = eventV1Schema.extend({
  eventId: z.string().min(1),
  eventStatus: eventStatusSchema,
});
export const eventsV1ResponseSchema = z.object({ events: z.array(eventV1Schema) });
export const eventsV2ResponseSchema = z.object({ events: z.array(eventV2Schema) });

export const alertSettingV1Schema = z.object({
  ...timestamps,
  alertName: alertNameSchema,
  value: z.number(),
  unit: alertUnitSchema,
  snooze: z.number().int(),
  delay: z.number().int(),
  enabled: z.boolean(),
});
export const deviceV1Schema = z.object({
  model: deviceModelSchema,
  lastUploadDate: dateTimeSchema,
  alertSettings: z.array(alertSettingV1Schema).nullable(),
});
export const devicesV1ResponseSchema = z.object({ devices: z.array(deviceV1Schema) });

export const alertSettingV2Schema = z.object({
  ...timestamps,
  alertName: alertNameSchema,
  value: z.number().nullable(),
  unit: alertUnitSchema.nullable(),
  snooze: z.number().int().nullable(),
  enabled: z.boolean(),
});
export const alertScheduleSettingsSchema = z.object({
  alertScheduleName: z.string(),
  isEnabled: z.boolean(),
  isDefaultSchedule: z.boolean(),
  startTime: timeSchema,
  endTime: timeSchema,
  daysOfWeek: z.array(dayOfWeekSchema).min(1),
});
export const alertScheduleSchema = z.object({
  alertScheduleSettings: alertScheduleSettingsSchema,
  alertSettings: z.array(alertSettingV2Schema).nullable(),
});
export const deviceV2Schema = z.object({
  transmitterGeneration: z.string().nullable(),
  displayDevice: z.string().nullable(),
  lastUploadDate: dateTimeSchema,
  alertScheduleList: z.array(alertScheduleSchema),
});
export const devicesV2ResponseSchema = z.object({ devices: z.array(deviceV2Schema) });

const recordTimeSchema = z.object(timestamps);
const rangeBoundsSchema = z.object({ start: recordTimeSchema, end: recordTimeSchema }).nullable();
export const dataRangeResponseSchema = z.object({
  calibrations: rangeBoundsSchema,
  egvs: rangeBoundsSchema,
  events: rangeBoundsSchema,
});

// ---- Statistics ---------------------------------------------------------------------------------

const statisticsCommon = {
  hypoglycemiaRisk: hypoglycemiaRiskSchema.nullable(),
  min: z.number(),
  max: z.number(),
  mean: z.number(),
  median: z.number(),
  variance: z.number(),
  stdDev: z.number(),
  sum: z.number(),
  q1: z.number(),
  q2: z.number(),
  q3: z.number(),
  utilizationPercent: z.number(),
  meanDailyCalibrations: z.number(),
  nDays: z.number().int(),
  nValues: z.number().int(),
};
export const statisticsV1ResponseSchema = z.object({
  ...statisticsCommon,
  nBelowRange: z.number().int(),
  nWithinRange: z.number().int(),
  nAboveRange: z.number().int(),
  percentBelowRange: z.number(),
  percentWithinRange: z.number(),
  percentAboveRange: z.number(),
});
export const statisticsV2ResponseSchema = z.object({
  ...statisticsCommon,
  nUrgentLow: z.number().int(),
  nBelowRange: z.number().int(),
  nWithinRange: z.number().int(),
  nAboveRange: z.number().int(),
  percentUrgentLow: z.number(),
  percentBelowRange: z.number(),
  percentWithinRange: z.number(),
  percentAboveRange: z.number(),
});

/**
 * A time-of-day window as seconds since midnight, [start, end), wrapping past midnight when
 * end < start. Start equal to end is the whole day. The Time type cannot say 24:00:00, so an end of
 * 23:59:59 is read as the end of the day: a client that writes 00:00:00–23:59:59 means all of it.
 */
export interface TimeOfDayWindow {
  startSecond: number;
  endSecond: number;
}

export function timeOfDayWindow(startTime: string, endTime: string): TimeOfDayWindow {
  const start = parseTime(startTime) ?? 0;
  let end = parseTime(endTime) ?? 0;
  if (end === SECONDS_PER_DAY - 1) end = SECONDS_PER_DAY;
  return { startSecond: start, endSecond: end === start ? start + SECONDS_PER_DAY : end };
}

/** Whether a clock reading (seconds since midnight) falls in the window. */
export function inTimeOfDayWindow(w: TimeOfDayWindow, second: number): boolean {
  if (w.endSecond - w.startSecond >= SECONDS_PER_DAY) return true;
  if (w.startSecond < w.endSecond) return second >= w.startSecond && second < w.endSecond;
  return second >= w.startSecond || second < w.endSecond % SECONDS_PER_DAY;
}

/** The window as plain intervals within one day, [a, b) with 0 ≤ a < b ≤ 86400. */
export function intervalsOf(w: TimeOfDayWindow): Array<[number, number]> {
  if (w.endSecond - w.startSecond >= SECONDS_PER_DAY) return [[0, SECONDS_PER_DAY]];
  if (w.startSecond < w.endSecond) return [[w.startSecond, w.endSecond]];
  const pieces: Array<[number, number]> = [
    [w.startSecond, SECONDS_PER_DAY],
    [0, w.endSecond % SECONDS_PER_DAY],
  ];
  return pieces.filter(([a, b]) => b > a);
}

/**
 * Spec section 4, statistics rules 1 and 2: the windows cover 24 hours without overlap.
 * Returns a sentence that says what is wrong, or null.
 */
export function checkDayCoverage(
  ranges: Array<{ name: string; startTime: string; endTime: string }>,
): string | null {
  const pieces = ranges
    .flatMap((r) =>
      intervalsOf(timeOfDayWindow(r.startTime, r.endTime)).map(([a, b]) => ({ a, b, name: r.name })),
    )
    .sort((x, y) => x.a - y.a);
  let reached = 0;
  let previous = "";
  for (const p of pieces) {
    if (p.a < reached) return `time ranges "${previous}" and "${p.name}" overlap`;
    if (p.a > reached) return `no time range covers the day from ${fmt(reached)} to ${fmt(p.a)}`;
    reached = p.b;
    previous = p.name;
  }
  if (reached < SECONDS_PER_DAY) return `no time range covers the day from ${fmt(reached)} to 24:00:00`;
  return null;
}

function fmt(second: number): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(second / 3600))}:${pad(Math.floor((second % 3600) / 60))}:${pad(second % 60)}`;
}

const targetRangeBase = {
  name: z.string().min(1, "every time range needs a name"),
  startTime: timeSchema,
  endTime: timeSchema,
};

export const statisticsV1RequestSchema = z
  .object({
    targetRanges: z
      .array(
        z.object({
          ...targetRangeBase,
          egvRange: z
            .object({ min: z.number(), max: z.number() })
            .refine((r) => r.min <= r.max, { message: "egvRange.min must not exceed egvRange.max" }),
        }),
      )
      .min(1, "at least one named time range is required"),
  })
  .superRefine((body, ctx) => {
    const problem = checkDayCoverage(body.targetRanges);
    if (problem) ctx.addIssue({ code: "custom", path: ["targetRanges"], message: problem });
  });

export const egvRangeNames = ["urgentLow", "low", "high"] as const;

export const statisticsV2RequestSchema = z
  .object({
    targetRanges: z
      .array(
        z.object({
          ...targetRangeBase,
          egvRanges: z
            .array(z.object({ name: z.enum(egvRangeNames), bound: z.number() }))
            .superRefine((entries, ctx) => {
              for (const name of egvRangeNames) {
                const n = entries.filter((e) => e.name === name).length;
                if (n !== 1)
                  ctx.addIssue({
                    code: "custom",
                    message:
                      n === 0 ? `egvRanges must include "${name}"` : `egvRanges names "${name}" ${n} times`,
                  });
              }
            }),
        }),
      )
      .min(1, "at least one named time range is required"),
  })
  .superRefine((body, ctx) => {
    body.targetRanges.forEach((range, i) => {
      const b = v2Bounds(range.egvRanges);
      if (b && !(b.urgentLow < b.low && b.low < b.high)) {
        ctx.addIssue({
          code: "custom",
          path: ["targetRanges", i, "egvRanges"],
          message: `bounds of "${range.name}" must satisfy urgentLow < low < high (got ${b.urgentLow}, ${b.low}, ${b.high})`,
        });
      }
    });
    const problem = checkDayCoverage(body.targetRanges);
    if (problem) ctx.addIssue({ code: "custom", path: ["targetRanges"], message: problem });
  });

export function v2Bounds(
  entries: Array<{ name: string; bound: number }>,
): { urgentLow: number; low: number; high: number } | null {
  const get = (n: string) => entries.find((e) => e.name === n)?.bound;
  const urgentLow = get("urgentLow");
  const low = get("low");
  const high = get("high");
  if (urgentLow === undefined || low === undefined || high === undefined) return null;
  return { urgentLow, low, high };
}

// ---- Requests: windows --------------------------------------------------------------------------

/** A startDate/endDate query whose times `time` checks and `toMs` reads, the start before the end. */
export function windowQueryOf(time: z.ZodType<string, string>, toMs: (text: string) => number | null) {
  return z
    .object({
      startDate: z.string({ error: "startDate is required" }).pipe(time),
      endDate: z.string({ error: "endDate is required" }).pipe(time),
    })
    .refine((q) => (toMs(q.startDate) ?? 0) < (toMs(q.endDate) ?? 0), {
      message: "startDate must be before endDate",
      path: ["startDate"],
    });
}

/** The startDate/endDate query of every windowed v1/v2 endpoint; the window is [start, end] on systemTime. */
export const windowQuerySchema = windowQueryOf(dateTimeSchema, parseDateTime);

/**
 * The window of a request's query, checked (v1/v2 by default, or v3's `v3WindowQuerySchema`); the
 * sandbox and the dashboard's proxy read it alike.
 */
export function windowQueryFrom(
  searchParams: URLSearchParams,
  schema: ReturnType<typeof windowQueryOf> = windowQuerySchema,
) {
  return schema.safeParse({
    startDate: searchParams.get("startDate") ?? undefined,
    endDate: searchParams.get("endDate") ?? undefined,
  });
}

// ---- OAuth --------------------------------------------------------------------------------------

export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().int().positive(),
  token_type: z
    .string()
    .refine((t) => t.toLowerCase() === "bearer", { message: "token_type must be Bearer" }),
  refresh_token: z.string().min(1),
  // Only the newer sample shows these three Keycloak-style fields (service-v3-notes §1.4,
  // UNCERTAIN) and nothing outside the sandbox reads them: a service that leaves them out, or
  // sends Keycloak's numeric "not-before-policy", must not fail every sign-in with a 502.
  refresh_expires_in: z.number().int().optional(),
  "not-before-policy": z.union([z.string(), z.number().int()]).optional(),
  session_state: z.string().optional(),
});

export const oauthErrorCodes = [
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
  "access_denied",
  "unsupported_response_type",
  "server_error",
  "temporarily_unavailable",
] as const;
export const oauthErrorSchema = z.object({
  error: z.enum(oauthErrorCodes),
  error_description: z.string().optional(),
});

/** The body of a non-OAuth error (data endpoints, app management): the service does not show one. */
export const apiErrorSchema = z.object({ error: z.string(), message: z.string() });

// ---- Types --------------------------------------------------------------------------------------

export type EgvV1 = z.infer<typeof egvV1Schema>;
export type EgvV2 = z.infer<typeof egvV2Schema>;
export type EgvsV1Response = z.infer<typeof egvsV1ResponseSchema>;
export type EgvsV2Response = z.infer<typeof egvsV2ResponseSchema>;
export type Calibration = z.infer<typeof calibrationSchema>;
export type EventV1 = z.infer<typeof eventV1Schema>;
export type EventV2 = z.infer<typeof eventV2Schema>;
export type EventType = z.infer<typeof eventTypeSchema>;
export type EventSubType = z.infer<typeof eventSubTypeSchema>;
export type AlertSettingV1 = z.infer<typeof alertSettingV1Schema>;
export type AlertSettingV2 = z.infer<typeof alertSettingV2Schema>;
export type DeviceV1 = z.infer<typeof deviceV1Schema>;
export type DeviceV2 = z.infer<typeof deviceV2Schema>;
export type AlertSchedule = z.infer<typeof alertScheduleSchema>;
export type DataRangeResponse = z.infer<typeof dataRangeResponseSchema>;
export type StatisticsV1Request = z.infer<typeof statisticsV1RequestSchema>;
export type StatisticsV2Request = z.infer<typeof statisticsV2RequestSchema>;
export type StatisticsV1Response = z.infer<typeof statisticsV1ResponseSchema>;
export type StatisticsV2Response = z.infer<typeof statisticsV2ResponseSchema>;
export type HypoglycemiaRisk = z.infer<typeof hypoglycemiaRiskSchema>;
export type TokenResponse = z.infer<typeof tokenResponseSchema>;
export type WindowQuery = z.infer<typeof windowQuerySchema>;

/** A validation failure as one sentence a person can act on: "path: problem; path: problem". */
export function zodMessage(issues: Array<{ path: PropertyKey[]; message: string }>): string {
  return issues
    .map((i) => (i.path.length ? `${i.path.map(String).join(".")}: ${i.message}` : i.message))
    .join("; ");
}
