import { MS_PER_DAY, MS_PER_HOUR } from "@/lib/cgm/datetime";

/**
 * The trace's ranges and the overview's URLs. Kept apart from the overview model so the browser's
 * bundle (the range picker, the view) does not pull in the model's metrics and schemas.
 */

export const TRACE_RANGES = {
  "3h": 3 * MS_PER_HOUR,
  "6h": 6 * MS_PER_HOUR,
  "12h": 12 * MS_PER_HOUR,
  "24h": 24 * MS_PER_HOUR,
  "7d": 7 * MS_PER_DAY,
  "14d": 14 * MS_PER_DAY,
  "30d": 30 * MS_PER_DAY,
  "90d": 90 * MS_PER_DAY,
} as const;
export type TraceRange = keyof typeof TRACE_RANGES;

/** Each range as the picker and the trace's caption name it. */
export const TRACE_RANGE_LABELS: Record<TraceRange, string> = {
  "3h": "3 h",
  "6h": "6 h",
  "12h": "12 h",
  "24h": "24 h",
  "7d": "7 days",
  "14d": "14 days",
  "30d": "30 days",
  "90d": "90 days",
};

export const DEFAULT_RANGE: TraceRange = "24h";

/** The overview's own URL for a range; the default range keeps the plain `/dashboard`. */
export const overviewPath = (range: TraceRange) =>
  range === DEFAULT_RANGE ? "/dashboard" : `/dashboard?range=${range}`;

export function parseTraceRange(value: unknown): TraceRange {
  return typeof value === "string" && value in TRACE_RANGES ? (value as TraceRange) : DEFAULT_RANGE;
}
