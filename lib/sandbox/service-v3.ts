import "server-only";
import { createHmac } from "node:crypto";
import {
  type AlertV3,
  type CalibrationV3,
  type DataRangeV3Response,
  type EgvV3,
  type EventV3,
  V3_RECORD_TYPES,
  V3_RECORD_VERSION,
  type V3Envelope,
} from "@/lib/cgm";
import {
  dataRangeV3,
  devicesV3,
  generateAlerts,
  generateCalibrations,
  generateEvents,
  generateV3OnlyEvents,
  transmitterAt,
  transmitterTicks,
  v3Times,
} from "./data";
import { hashString, mix, PURPOSE, unit, uuidFromText } from "./data/random";
import { seedOf } from "./data/seed";
import type { DataWindow } from "./http";
import { RawJson } from "./raw-json";
import type {
  SandboxAlert,
  SandboxCalibration,
  SandboxEgv,
  SandboxEvent,
  SandboxV3OnlyEvent,
} from "./records";
import { egvArrayJson, servedValue, withDeletions } from "./service";
import type { SandboxUser } from "./users";

/**
 * The sandbox's API v3 (shared/spec/service-v3-notes.md): the same generated records as v1/v2,
 * shaped as v3 sends them, in the envelope {recordType, recordVersion "3.0", userId, records}.
 *
 * - recordType is singular (egv, calibration, event, device, alert, dataRange): Tidepool's strict
 *   checks of production responses accept only these (notes §2).
 * - userId is unique per account per client app (§2): an HMAC of the username and the client_id,
 *   as a UUID. The same account reached through two apps has two userIds.
 * - recordId (a UUID) is a function of the record: the same on every call and for every app; for
 *   events it is the v2 eventId (§3.3: "v2 called this eventId").
 * - Glucose is mg/dL and rates mg/dL/min in every EGV, also for users who read mmol/L (§3.1: "the
 *   v3 API returns only MgdL"); the value is the v2 value (smoothed where one exists), 39 and 401
 *   with status low and high (the newer swagger's enum: high, low or null).
 * - Events: value as a string (§3.3); health events carry neither value nor unit (null: the
 *   doc's table gives them none); insulin boluses are fastActing (the v3 subtype); about 4% of the
 *   logged events were edited after entry and are "updated" (their value is the one v2 shows);
 *   deleted ones are "deleted", also those deleted through the developer control. Fingersticks
 *   (bloodGlucose) and notes, types v2 cannot carry, are served only here.
 *   recordedSystemTime/recordedDisplayTime, whose meaning is undocumented (§3.3), are not sent.
 */

const KEY = "glucose-sandbox: userId per account and client app";

/** A UUID (version 4 and variant bits set) from 32 hex digits. */
function uuidOfHex(hex: string): string {
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The envelope's userId of `username` for the app `clientId`. */
export function userIdFor(username: string, clientId: string): string {
  return uuidOfHex(createHmac("sha256", KEY).update(`${username}\n${clientId}`).digest("hex"));
}

function envelope<R>(recordType: string, userId: string, records: R[]): V3Envelope<R> {
  return { recordType, recordVersion: V3_RECORD_VERSION, userId, records };
}

/** The transmitter fields of a record at `systemMs`. */
function transmitterFields(user: SandboxUser, systemMs: number) {
  const tx = transmitterAt(user, systemMs);
  return {
    transmitterId: tx.id,
    transmitterTicks: transmitterTicks(tx, systemMs),
    transmitterGeneration: user.device.transmitterGeneration,
    transmitterGenerationVariant: user.device.variant,
    displayDevice: user.displayDevice,
  };
}

function egvV3(user: SandboxUser, e: SandboxEgv): EgvV3 {
  const { transmitterId, transmitterTicks: ticks, ...device } = transmitterFields(user, e.systemMs);
  return {
    recordId: uuidFromText(`${user.username}|egv|${e.systemMs}`),
    ...v3Times(user, e.systemMs, e.displayMs),
    transmitterId,
    transmitterTicks: ticks,
    value: servedValue(e, "mg/dL"),
    status: e.status,
    trend: e.trend,
    trendRate: e.trendRateMgdlPerMin,
    unit: "mg/dL",
    rateUnit: "mg/dL/min",
    ...device,
    displayApp: user.device.displayApp,
  };
}

export function egvsV3(user: SandboxUser, w: DataWindow, nowMs: number, userId: string): RawJson {
  const head = JSON.stringify(envelope(V3_RECORD_TYPES.egvs, userId, [])).slice(0, -3);
  return new RawJson(`${head}${egvArrayJson(user, "v3", (e) => egvV3(user, e), w, nowMs)}}`);
}

function calibrationV3(user: SandboxUser, c: SandboxCalibration): CalibrationV3 {
  return {
    recordId: uuidFromText(`${user.username}|calibration|${c.systemMs}`),
    ...v3Times(user, c.systemMs, c.displayMs),
    unit: "mg/dL",
    value: c.valueMgdl,
    ...transmitterFields(user, c.systemMs),
  };
}

export function calibrationsV3(user: SandboxUser, w: DataWindow, nowMs: number, userId: string) {
  const records = generateCalibrations(user, w.startMs, w.endMs, nowMs).map((c) => calibrationV3(user, c));
  return envelope(V3_RECORD_TYPES.calibrations, userId, records);
}

/** Share of logged events the user edited after entering them (v3 shows them "updated"). */
const EDITED_SHARE = 0.04;

function wasEdited(user: SandboxUser, eventId: string): boolean {
  return unit(mix(seedOf(user), PURPOSE.edited, hashString(eventId))) < EDITED_SHARE;
}

function eventV3(user: SandboxUser, e: SandboxEvent): EventV3 {
  const { transmitterTicks: _ticks, ...device } = transmitterFields(user, e.systemMs);
  return {
    recordId: e.eventId,
    ...v3Times(user, e.systemMs, e.displayMs),
    eventStatus: e.eventStatus === "deleted" ? "deleted" : wasEdited(user, e.eventId) ? "updated" : "created",
    eventType: e.eventType,
    eventSubType: e.eventType === "insulin" ? "fastActing" : e.eventSubType,
    value: e.value === null ? null : String(e.value),
    unit: e.unit,
    ...device,
  };
}

function v3OnlyEventV3(user: SandboxUser, e: SandboxV3OnlyEvent): EventV3 {
  const { transmitterTicks: _ticks, ...device } = transmitterFields(user, e.systemMs);
  return {
    recordId: e.eventId,
    ...v3Times(user, e.systemMs, e.displayMs),
    eventStatus: "created",
    eventType: e.eventType,
    eventSubType: null,
    value: e.value,
    unit: e.unit,
    ...device,
  };
}

export function eventsV3(
  user: SandboxUser,
  w: DataWindow,
  nowMs: number,
  userId: string,
  deleted: ReadonlySet<string> = new Set(),
) {
  const logged = withDeletions(generateEvents(user, w.startMs, w.endMs, nowMs), deleted).map((e) => ({
    systemMs: e.systemMs,
    record: eventV3(user, e),
  }));
  const v3Only = generateV3OnlyEvents(user, w.startMs, w.endMs, nowMs).map((e) => ({
    systemMs: e.systemMs,
    record: v3OnlyEventV3(user, e),
  }));
  const records = [...logged, ...v3Only]
    .sort((a, b) => a.systemMs - b.systemMs || (a.record.recordId < b.record.recordId ? -1 : 1))
    .map((e) => e.record);
  return envelope(V3_RECORD_TYPES.events, userId, records);
}

export function devicesV3Response(user: SandboxUser, nowMs: number, userId: string) {
  return envelope(V3_RECORD_TYPES.devices, userId, devicesV3(user, nowMs));
}

function alertV3(user: SandboxUser, a: SandboxAlert): AlertV3 {
  const { transmitterTicks: _ticks, ...device } = transmitterFields(user, a.systemMs);
  return {
    recordId: uuidFromText(`${user.username}|alert|${a.alertName}|${a.alertState}|${a.systemMs}`),
    ...v3Times(user, a.systemMs, a.displayMs),
    alertName: a.alertName,
    alertState: a.alertState,
    ...device,
    displayApp: user.device.displayApp,
  };
}

export function alertsV3(user: SandboxUser, w: DataWindow, nowMs: number, userId: string) {
  const records = generateAlerts(user, w.startMs, w.endMs, nowMs).map((a) => alertV3(user, a));
  return envelope(V3_RECORD_TYPES.alerts, userId, records);
}

export function dataRangeV3Response(
  user: SandboxUser,
  nowMs: number,
  userId: string,
  lastSyncMs: number | null,
): DataRangeV3Response {
  const r = dataRangeV3(user, nowMs, lastSyncMs);
  const range = (
    b: { startMs: number; endMs: number; startDisplayMs: number; endDisplayMs: number } | null,
  ) =>
    b && { start: v3Times(user, b.startMs, b.startDisplayMs), end: v3Times(user, b.endMs, b.endDisplayMs) };
  return {
    recordType: V3_RECORD_TYPES.dataRange,
    recordVersion: V3_RECORD_VERSION,
    userId,
    calibrations: range(r.calibrations),
    egvs: range(r.egvs),
    events: range(r.events),
  };
}
