import {
  type Calibration,
  type CalibrationV3Read,
  type CgmAlertSchedule,
  type CgmDevice,
  type CgmEvent,
  type DataRangeResponse,
  type DataRangeV3Read,
  type DeviceV3Read,
  type DroppedRecord,
  type EgvsV2Response,
  type EgvV2,
  type EgvV3Read,
  type EventV3Read,
  mmollToMgdl,
  parseDateTime,
  SENTINEL_HIGH_MGDL,
  SENTINEL_LOW_MGDL,
  type V3Read,
} from "@/lib/cgm";

/**
 * API v3 answers, as the lenient readers of lib/cgm/v3-read.ts normalise them, reshaped into the
 * app's own records (lib/cgm/app-records.ts) at the client's edge, so the rest of the app reads v3
 * as it reads v2. Pure: the client (client.ts) fetches, merges the chunks of a long window with
 * `mergeV3Reads`, reshapes here, and logs what is left out.
 *
 * A record that cannot become an app record is left out and said so (`leftOut`, with the reason),
 * never silently and never as an error of the whole answer: an EGV with no value and no status
 * that says which side of the measuring range it fell, a calibration without a value, a device
 * whose lastUploadDate cannot be read.
 */

export interface LeftOut {
  /** The record, as far as it can be named: its recordId, or its place in the answer. */
  record: string;
  reason: string;
}

export interface Reshaped<T> {
  value: T;
  leftOut: LeftOut[];
}

/**
 * The answers to the chunks of one window as one answer. A record that comes twice (the same
 * recordId, e.g. an event read as created and then as updated) is kept once, at its first place,
 * with the content of its last appearance: chunks come in time order, so the last is the newest
 * state the service gave.
 */
export function mergeV3Reads<R extends { recordId: string }>(parts: readonly V3Read<R>[]): V3Read<R> {
  const byId = new Map<string, R>();
  const dropped: DroppedRecord[] = [];
  for (const part of parts) {
    for (const r of part.records) byId.set(r.recordId, r);
    dropped.push(...part.dropped);
  }
  const first = parts[0];
  return {
    recordType: first?.recordType ?? null,
    recordVersion: first?.recordVersion ?? null,
    userId: parts.find((p) => p.userId !== null)?.userId ?? null,
    records: [...byId.values()],
    dropped,
  };
}

/** What the reader itself could not keep (no recordId, no readable systemTime), for the log. */
export function droppedByReader(read: { dropped: readonly DroppedRecord[] }): LeftOut[] {
  return read.dropped.map((d) => ({ record: `record ${d.index} of its answer`, reason: d.reason }));
}

// ---- EGVs ---------------------------------------------------------------------------------------

/**
 * One v3 EGV as the app's EGV (the v2 record), or why it cannot be one.
 * - `value` is v2's `value` (the smoothed value where the device smooths: notes §3.1, and the
 *   sandbox's v3 value equals its v2 value). v3 has no realtime/smoothed pair: the app's
 *   `realtimeValue` is that value and `smoothedValue` null, which keeps v2's rule that `value` is
 *   the smoothed value when there is one and the realtime value otherwise.
 * - Out of the measuring range, the value is 39 or 401 with status low or high (notes §5 item 6);
 *   a null value with status low or high is that sentinel, so it is never lost nor shown as a
 *   number. A null value with neither status says nothing about the glucose: left out.
 * - Values come in mg/dL ("always mg/dL in practice", notes §3.1); a record that says mmol/L is
 *   converted (whole mg/dL, as a sensor measures), an unknown unit read as mg/dL.
 * - status: high and low as they are; ok, unknown or missing are no status (v2 had only high/low).
 * - trend: v3's values are v2's, plus "unknown", which is no trend (null): v2's null.
 */
export function egvFromV3(r: EgvV3Read): EgvV2 | string {
  const status = r.status === "high" || r.status === "low" ? r.status : null;
  let value = r.value;
  if (value === null) {
    if (status === null) return "value is missing and status says neither low nor high";
    value = status === "low" ? SENTINEL_LOW_MGDL : SENTINEL_HIGH_MGDL;
  } else if (r.unit === "mmol/L") {
    value = Math.round(mmollToMgdl(value));
  }
  const trendRate =
    r.trendRate !== null && r.rateUnit === "mmol/L/min" ? mmollToMgdl(r.trendRate) : r.trendRate;
  return {
    systemTime: r.systemTime,
    displayTime: r.displayTime,
    value,
    realtimeValue: value,
    smoothedValue: null,
    status,
    trend: r.trend === "unknown" ? null : r.trend,
    trendRate,
  };
}

/** v3 EGVs as the app's EGVs: one answer in mg/dL, in the order the service gave them. */
export function egvsFromV3(records: readonly EgvV3Read[]): Reshaped<EgvsV2Response> {
  const egvs: EgvV2[] = [];
  const leftOut: LeftOut[] = [];
  for (const r of records) {
    const egv = egvFromV3(r);
    if (typeof egv === "string") leftOut.push({ record: r.recordId, reason: egv });
    else egvs.push(egv);
  }
  return { value: { unit: "mg/dL", rateUnit: "mg/dL/min", egvs }, leftOut };
}

// ---- Calibrations -------------------------------------------------------------------------------

/** One v3 calibration as the app's: a meter value in its unit (an unknown unit is mg/dL, notes §3.2), or why not. */
export function calibrationFromV3(r: CalibrationV3Read): Calibration | string {
  if (r.value === null) return "value is missing";
  return {
    systemTime: r.systemTime,
    displayTime: r.displayTime,
    value: r.value,
    unit: r.unit === "mmol/L" ? "mmol/L" : "mg/dL",
  };
}

/** v3 calibrations as the app's. */
export function calibrationsFromV3(
  records: readonly CalibrationV3Read[],
): Reshaped<{ calibrations: Calibration[] }> {
  const calibrations: Calibration[] = [];
  const leftOut: LeftOut[] = [];
  for (const r of records) {
    const c = calibrationFromV3(r);
    if (typeof c === "string") leftOut.push({ record: r.recordId, reason: c });
    else calibrations.push(c);
  }
  return { value: { calibrations }, leftOut };
}

// ---- Events -------------------------------------------------------------------------------------

/**
 * v3 events as the app's: `recordId` is the event's identity (v2's `eventId`, notes §3.3), every
 * type, subtype, unit and status kept as read (the reader has made the notes' repairs: exercise
 * -1, `note`, missing units, a health event's value), a note's text carried in `text`.
 */
export function eventsFromV3(records: readonly EventV3Read[]): Reshaped<{ events: CgmEvent[] }> {
  const events = records.map(
    (r): CgmEvent => ({
      systemTime: r.systemTime,
      displayTime: r.displayTime,
      eventId: r.recordId,
      eventStatus: r.eventStatus,
      eventType: r.eventType,
      eventSubType: r.eventSubType,
      value: r.value,
      unit: r.unit,
      text: r.text,
    }),
  );
  return { value: { events }, leftOut: [] };
}

// ---- Devices ------------------------------------------------------------------------------------

/** `HH:mm` (v3) as the app's Time, `HH:mm:ss`. */
const timeOfDay = (hhmm: string) => `${hhmm}:00`;

function scheduleFromV3(s: DeviceV3Read["alertSchedules"][number]): CgmAlertSchedule {
  const settings = s.alertScheduleSettings;
  return {
    alertScheduleSettings: {
      alertScheduleName: settings.alertScheduleName,
      isEnabled: settings.isEnabled,
      isDefaultSchedule: settings.isDefaultSchedule,
      startTime: timeOfDay(settings.startTime),
      endTime: timeOfDay(settings.endTime),
      daysOfWeek: settings.daysOfWeek,
      isActive: settings.isActive,
      override: settings.override,
    },
    alertSettings: s.alertSettings.map((a) => ({ ...a })),
  };
}

/**
 * v3 devices as the app's. v3 lists every device with no window (notes §3.4); a device whose last
 * upload is before `sinceMs` cannot have contributed data since then (its data is older than its
 * upload), so, asked for a window, the devices are those that uploaded since its start, as v2
 * answered ("devices contributing data to the window"), and as Tidepool keeps them (notes §5 item 8).
 */
export function devicesFromV3(
  records: readonly DeviceV3Read[],
  sinceMs: number | null = null,
): Reshaped<{ devices: CgmDevice[] }> {
  const devices: CgmDevice[] = [];
  const leftOut: LeftOut[] = [];
  records.forEach((d, i) => {
    const uploadMs = d.lastUploadDate === null ? null : parseDateTime(d.lastUploadDate);
    if (d.lastUploadDate === null || uploadMs === null) {
      leftOut.push({ record: `device ${i}`, reason: "lastUploadDate cannot be read" });
      return;
    }
    if (sinceMs !== null && uploadMs < sinceMs) return;
    devices.push({
      transmitterGeneration: d.transmitterGeneration,
      displayDevice: d.displayDevice,
      lastUploadDate: d.lastUploadDate,
      alertScheduleList: d.alertSchedules.map(scheduleFromV3),
      transmitterId: d.transmitterId,
      transmitterGenerationVariant: d.transmitterGenerationVariant,
      displayApp: d.displayApp,
    });
  });
  return { value: { devices }, leftOut };
}

// ---- Data range ---------------------------------------------------------------------------------

/** The v3 dataRange as the app's: its three groups' first and last records (no alerts, no devices). */
export function dataRangeFromV3(read: DataRangeV3Read): DataRangeResponse {
  const group = (r: DataRangeV3Read["egvs"]) =>
    r && {
      start: { systemTime: r.start.systemTime, displayTime: r.start.displayTime },
      end: { systemTime: r.end.systemTime, displayTime: r.end.displayTime },
    };
  return { calibrations: group(read.calibrations), egvs: group(read.egvs), events: group(read.events) };
}
