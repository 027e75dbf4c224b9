import type { AlertNameV3, EventSubType, EventType, Trend } from "@/lib/cgm";

/**
 * The sandbox's own records, before they are shaped into v1/v2 responses. Times are milliseconds on
 * the naive axis of lib/cgm/datetime (systemMs is UTC; displayMs is the patient's wall clock read
 * as if it were UTC). Glucose is kept in mg/dL and converted to the user's unit when served.
 */
export interface SandboxEgv {
  systemMs: number;
  displayMs: number;
  /** What the device showed in real time: an integer 40–400, or the sentinels 39 and 401. */
  realtimeMgdl: number;
  /** Mean of three consecutive realtime values; null at session edges, for G4/G5, or not yet processed. */
  smoothedMgdl: number | null;
  status: "low" | "high" | null;
  trend: Trend | null;
  trendRateMgdlPerMin: number | null;
}

export interface SandboxCalibration {
  systemMs: number;
  displayMs: number;
  /** The fingerstick value, mg/dL (served in the user's unit). */
  valueMgdl: number;
}

export interface SandboxEvent {
  systemMs: number;
  displayMs: number;
  eventType: EventType;
  eventSubType: EventSubType | null;
  value: number | null;
  unit: "grams" | "units" | "minutes" | null;
  /** Stable for the life of the event, whatever its status. */
  eventId: string;
  /** Deleted events are served by v2 with this status and left out of v1. */
  eventStatus: "created" | "deleted";
}

/** An event only API v3 can carry (notes §3.3: types bloodGlucose and notes, new in v3). */
export interface SandboxV3OnlyEvent {
  systemMs: number;
  displayMs: number;
  eventType: "bloodGlucose" | "notes";
  /** A blood glucose in mg/dL, or a note's text. */
  value: string;
  unit: "mg/dL" | null;
  eventId: string;
}

/** One change of an alert's state (API v3 alerts, notes §3.5). */
export interface SandboxAlert {
  systemMs: number;
  displayMs: number;
  alertName: AlertNameV3;
  alertState: "activeAlarming" | "activeSnoozed" | "inactive";
}
