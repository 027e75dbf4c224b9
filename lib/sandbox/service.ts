import "server-only";
import {
  type Calibration,
  type DataRangeResponse,
  type EgvV1,
  type EgvV2,
  type EventV1,
  type EventV2,
  formatDateTime,
  type GlucoseUnit,
  MS_PER_DAY,
  mgdlToMmoll,
  rateUnitFor,
  roundForUnit,
  type StatisticsV1Request,
  type StatisticsV2Request,
  sentinelValue,
} from "@/lib/cgm";
import { computeStatisticsV1, computeStatisticsV2 } from "@/lib/metrics/service-statistics";
import {
  dataRange,
  devicesV1,
  devicesV2,
  generateCalibrations,
  generateEgvs,
  generateEvents,
  SMOOTHING_LAG_MS,
} from "./data";
import { Lru } from "./data/lru";
import type { DataWindow } from "./http";
import { RawJson } from "./raw-json";
import type { SandboxCalibration, SandboxEgv, SandboxEvent } from "./records";
import type { SandboxUser } from "./users";

/**
 * The sandbox's data endpoints: records from the generator, shaped into the service's v1/v2
 * resources in the user's unit. Decisions where the spec is silent:
 * - The window [startDate, endDate] is inclusive at both ends and applies to systemTime.
 * - v1 `value` is the same number as v2 `value` (the smoothed value once it exists): one record,
 *   two schemas, so v1 and v2 statistics agree.
 * - mmol/L values are rounded to one decimal as devices show them; the sentinels become 2.2 and
 *   22.3 with `status` low/high; rates are rounded to two decimals in mmol/L/min, one in mg/dL/min.
 */

function glucose(mgdl: number, unit: GlucoseUnit, status: "low" | "high" | null): number {
  if (status) return sentinelValue(status, unit);
  return unit === "mg/dL" ? mgdl : roundForUnit(mgdlToMmoll(mgdl), unit);
}

function rate(mgdlPerMin: number | null, unit: GlucoseUnit): number | null {
  if (mgdlPerMin === null) return null;
  return unit === "mg/dL" ? mgdlPerMin : Math.round(mgdlToMmoll(mgdlPerMin) * 100) / 100;
}

/** Spec 2.1, v2 rules 1 and 2: the smoothed value once it exists, else the real-time one. */
export function servedValue(e: SandboxEgv, unit: GlucoseUnit): number {
  return e.smoothedMgdl === null
    ? glucose(e.realtimeMgdl, unit, e.status)
    : glucose(e.smoothedMgdl, unit, null);
}

function egvV2(e: SandboxEgv, unit: GlucoseUnit): EgvV2 {
  const realtimeValue = glucose(e.realtimeMgdl, unit, e.status);
  const smoothedValue = e.smoothedMgdl === null ? null : glucose(e.smoothedMgdl, unit, null);
  return {
    systemTime: formatDateTime(e.systemMs),
    displayTime: formatDateTime(e.displayMs),
    value: servedValue(e, unit),
    realtimeValue,
    smoothedValue,
    status: e.status,
    trend: e.trend,
    trendRate: rate(e.trendRateMgdlPerMin, unit),
  };
}

function egvV1(e: SandboxEgv, unit: GlucoseUnit): EgvV1 {
  const { realtimeValue: _r, smoothedValue: _s, ...v1 } = egvV2(e, unit);
  return v1;
}

/** A day is final once its last reading is older than this: complete, and every value smoothed. */
const FINAL_AFTER_MS = SMOOTHING_LAG_MS + 60 * 60_000;
/**
 * A day's EGVs as JSON text are about 60 KB; unbounded by bytes, 4,000 of them grew the server by
 * about 240 MB that it never gave back. 32 MB holds a 90-day window in each of the three versions
 * for several users at once.
 */
const DAY_JSON_BYTES = 32 * 1024 * 1024;
const dayJson = new Lru<string, string>(4_000, { maxWeight: DAY_JSON_BYTES, weigh: (json) => json.length });

/**
 * The EGVs of a window as a JSON array, each record shaped by `shape`. Whole days that can no
 * longer change are kept as text per (user, version, day): a 90-day window is mostly those.
 */
export function egvArrayJson(
  user: SandboxUser,
  version: "v1" | "v2" | "v3",
  shape: (e: SandboxEgv) => unknown,
  w: DataWindow,
  nowMs: number,
): string {
  const records = (startMs: number, endMs: number) =>
    generateEgvs(user, startMs, endMs, nowMs)
      .map((e) => JSON.stringify(shape(e)))
      .join(",");
  const parts: string[] = [];
  for (let day = Math.floor(w.startMs / MS_PER_DAY); day * MS_PER_DAY <= w.endMs; day++) {
    const dayStart = day * MS_PER_DAY;
    const dayEnd = dayStart + MS_PER_DAY - 1;
    const whole = w.startMs <= dayStart && dayEnd <= w.endMs;
    let part: string;
    if (whole && dayEnd < nowMs - FINAL_AFTER_MS) {
      const key = `${user.username}|${version}|${day}`;
      part = dayJson.get(key) ?? records(dayStart, dayEnd);
      dayJson.set(key, part);
    } else {
      part = records(Math.max(dayStart, w.startMs), Math.min(dayEnd, w.endMs));
    }
    if (part) parts.push(part);
  }
  return `[${parts.join(",")}]`;
}

function egvsResponse(user: SandboxUser, version: "v1" | "v2", w: DataWindow, nowMs: number): RawJson {
  const envelope = JSON.stringify({ unit: user.unit, rateUnit: rateUnitFor(user.unit) }).slice(0, -1);
  const shape = version === "v1" ? egvV1 : egvV2;
  return new RawJson(
    `${envelope},"egvs":${egvArrayJson(user, version, (e) => shape(e, user.unit), w, nowMs)}}`,
  );
}

export function egvsV2(user: SandboxUser, w: DataWindow, nowMs: number): RawJson {
  return egvsResponse(user, "v2", w, nowMs);
}

export function egvsV1(user: SandboxUser, w: DataWindow, nowMs: number): RawJson {
  return egvsResponse(user, "v1", w, nowMs);
}

function calibration(c: SandboxCalibration, unit: GlucoseUnit): Calibration {
  return {
    systemTime: formatDateTime(c.systemMs),
    displayTime: formatDateTime(c.displayMs),
    value: glucose(c.valueMgdl, unit, null),
    unit,
  };
}

export function calibrations(user: SandboxUser, w: DataWindow, nowMs: number) {
  return {
    calibrations: generateCalibrations(user, w.startMs, w.endMs, nowMs).map((c) => calibration(c, user.unit)),
  };
}

/** A generated event, with the status a later deletion (lib/sandbox/deletions.ts) gave it. */
export function withDeletions(events: SandboxEvent[], deleted: ReadonlySet<string>): SandboxEvent[] {
  if (deleted.size === 0) return events;
  return events.map((e) => (deleted.has(e.eventId) ? { ...e, eventStatus: "deleted" } : e));
}

function eventV2(e: SandboxEvent): EventV2 {
  return {
    systemTime: formatDateTime(e.systemMs),
    displayTime: formatDateTime(e.displayMs),
    eventType: e.eventType,
    eventSubType: e.eventSubType,
    value: e.value,
    unit: e.unit,
    eventId: e.eventId,
    eventStatus: e.eventStatus,
  };
}

export function eventsV2(
  user: SandboxUser,
  w: DataWindow,
  nowMs: number,
  deleted: ReadonlySet<string> = new Set(),
) {
  return { events: withDeletions(generateEvents(user, w.startMs, w.endMs, nowMs), deleted).map(eventV2) };
}

export function eventsV1(
  user: SandboxUser,
  w: DataWindow,
  nowMs: number,
  deleted: ReadonlySet<string> = new Set(),
) {
  // v1 knows no deletion: deleted events are simply not there.
  const events: EventV1[] = withDeletions(generateEvents(user, w.startMs, w.endMs, nowMs), deleted)
    .filter((e) => e.eventStatus === "created")
    .map((e) => {
      const { eventId: _id, eventStatus: _status, ...v1 } = eventV2(e);
      return v1;
    });
  return { events };
}

/** Spec section 4: devices ignore the time parts, so the window is whole days. */
function wholeDays(w: DataWindow): DataWindow {
  const startMs = Math.floor(w.startMs / MS_PER_DAY) * MS_PER_DAY;
  const endMs = Math.floor(w.endMs / MS_PER_DAY) * MS_PER_DAY + MS_PER_DAY - 1;
  return { startMs, endMs };
}

export function devices(user: SandboxUser, version: "v1" | "v2", w: DataWindow, nowMs: number) {
  const days = wholeDays(w);
  return {
    devices:
      version === "v1"
        ? devicesV1(user, days.startMs, days.endMs, nowMs)
        : devicesV2(user, days.startMs, days.endMs, nowMs),
  };
}

export function dataRangeOf(user: SandboxUser, nowMs: number): DataRangeResponse {
  const r = dataRange(user, nowMs);
  const bounds = (b: { startMs: number; endMs: number } | null) => {
    if (!b) return null;
    const start = r.displayOf(b.startMs);
    const end = r.displayOf(b.endMs);
    return {
      start: { systemTime: formatDateTime(b.startMs), displayTime: formatDateTime(start) },
      end: { systemTime: formatDateTime(b.endMs), displayTime: formatDateTime(end) },
    };
  };
  return { calibrations: bounds(r.calibrations), egvs: bounds(r.egvs), events: bounds(r.events) };
}

/** Statistics from exactly the EGVs that `egvs` serves for the same window (spec section 2.6). */
export function statistics(
  user: SandboxUser,
  w: DataWindow,
  nowMs: number,
  request: { version: "v1"; body: StatisticsV1Request } | { version: "v2"; body: StatisticsV2Request },
) {
  const egvs = generateEgvs(user, w.startMs, w.endMs, nowMs).map((e) => ({
    systemMs: e.systemMs,
    displayMs: e.displayMs,
    value: servedValue(e, user.unit),
  }));
  const calibrationCount = generateCalibrations(user, w.startMs, w.endMs, nowMs).length;
  const common = { egvs, calibrationCount, unit: user.unit, windowStartMs: w.startMs, windowEndMs: w.endMs };
  return request.version === "v1"
    ? computeStatisticsV1({ ...common, request: request.body })
    : computeStatisticsV2({ ...common, request: request.body });
}
