import { z } from "zod";
import { MS_PER_DAY, parseDateTime } from "@/lib/cgm/datetime";
import { windowQuerySchema, zodMessage } from "@/lib/cgm/schemas";
import { type Window, windowOf } from "@/lib/cgm/window";
import { DEFAULT_MAX_REQUEST_DAYS, windowBoundsProblem } from "@/lib/cgm/window-bounds";
import { firstParam, type SearchParam } from "@/lib/records/query";
import type { PatientDays } from "./patient-days";

/**
 * A report's period: a window on systemTime, [startMs, endMs], as the service's own query values.
 * Pages choose it as "the last N days of data" (ending at the service's newest reading, because the
 * real service publishes hours late) or as explicit startDate/endDate; the summary API takes the
 * explicit form only. At most 90 days: the consensus asks for 14, and longer periods blur the
 * patterns an AGP is read for; it is also the most one request may read by default
 * (lib/cgm/window-bounds.ts), so the two limits are one number.
 */
export const REPORT_MAX_DAYS = DEFAULT_MAX_REQUEST_DAYS;
export const REPORT_DEFAULT_DAYS = 14;
/** The periods offered as links, on the record pages and the reports alike. */
export const REPORT_PERIOD_DAYS = [7, 14, 30, 90] as const;
export type PeriodChoice = (typeof REPORT_PERIOD_DAYS)[number];

/**
 * `?days=` of a page that offers only the period links (events, calibrations, export): one of 7,
 * 14, 30, 90 written plainly; anything else (absent, "14.0", "1e1", "") is 14, as the links never
 * send it.
 */
export function parsePeriodChoice(param: SearchParam): PeriodChoice {
  const text = firstParam(param);
  return REPORT_PERIOD_DAYS.find((d) => String(d) === text) ?? REPORT_DEFAULT_DAYS;
}

export interface ReportPeriod extends Window {
  /**
   * The receiver's-clock days the period was chosen as ("the last 14 days", or days picked in a
   * form; lib/reports/period/patient-days.ts); absent for a window given on systemTime.
   */
  patientDays?: PatientDays;
}

export function periodOf(startMs: number, endMs: number): ReportPeriod {
  return windowOf(startMs, endMs);
}

/** The `days` days up to and including `endMs`. */
export function lastDays(endMs: number, days: number): ReportPeriod {
  return periodOf(endMs - days * MS_PER_DAY, endMs);
}

/**
 * The period of the same length just before `period`, for comparisons. Windows include both ends,
 * so it ends one second (the DateTime's resolution) before `period` starts: a reading at the
 * boundary counts once, in the later period.
 */
export function previousPeriod(period: ReportPeriod): ReportPeriod {
  const length = period.endMs - period.startMs;
  return periodOf(period.startMs - length - 1000, period.startMs - 1000);
}

/** Explicit startDate/endDate, checked like the service checks them, then the report's own limit. */
export const reportPeriodSchema = windowQuerySchema
  .transform((q) => periodOf(parseDateTime(q.startDate)!, parseDateTime(q.endDate)!))
  .superRefine((p, ctx) => {
    const message =
      p.endMs - p.startMs > REPORT_MAX_DAYS * MS_PER_DAY
        ? `a report covers at most ${REPORT_MAX_DAYS} days: choose a startDate no more than ${REPORT_MAX_DAYS} days before endDate`
        : windowBoundsProblem(p.startMs, p.endMs, REPORT_MAX_DAYS);
    if (message) ctx.addIssue({ code: "custom", message, path: ["startDate"] });
  });

export const reportDaysSchema = z.coerce
  .number({ message: "days must be a whole number of days" })
  .int("days must be a whole number of days")
  .min(1, "a report covers at least 1 day")
  .max(REPORT_MAX_DAYS, `a report covers at most ${REPORT_MAX_DAYS} days`);

/**
 * What a page's query asks for: explicit dates when either is given (both are then required),
 * else a number of days (default 14) ending at the data's end, which only the service knows; or
 * (from the pages' day pickers) a run of the patient's own days. Days, counted or picked, are
 * the receiver's calendar days (lib/reports/period/patient-days.ts); explicit dates are systemTime.
 */
export type PeriodRequest =
  | { kind: "dates"; period: ReportPeriod }
  | { kind: "days"; days: number }
  | { kind: "patientDays"; patientDays: PatientDays };

export function parsePeriodRequest(
  get: (name: string) => string | null | undefined,
): { ok: true; value: PeriodRequest } | { ok: false; message: string } {
  const startDate = get("startDate") ?? undefined;
  const endDate = get("endDate") ?? undefined;
  if (startDate !== undefined || endDate !== undefined) {
    const parsed = reportPeriodSchema.safeParse({ startDate, endDate });
    if (!parsed.success) return { ok: false, message: zodMessage(parsed.error.issues) };
    return { ok: true, value: { kind: "dates", period: parsed.data } };
  }
  const days = get("days");
  if (days === undefined || days === null || days === "") {
    return { ok: true, value: { kind: "days", days: REPORT_DEFAULT_DAYS } };
  }
  const parsed = reportDaysSchema.safeParse(days);
  if (!parsed.success) return { ok: false, message: zodMessage(parsed.error.issues) };
  return { ok: true, value: { kind: "days", days: parsed.data } };
}
