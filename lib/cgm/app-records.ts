import type { AlertSchedule, AlertSettingV2, EventV2 } from "./schemas";
import type { EventSubTypeV3, EventTypeV3, EventUnitV3 } from "./schemas-v3";
import type { AlertScheduleV3Read, AlertSettingV3Read, AlertV3Read } from "./v3-read";

/**
 * The app's own records: what the service client (lib/service-client/client.ts) hands the rest of
 * the app, whichever API version it read (CGM_API_VERSION). The app was built on the v2 shapes, so
 * they are these records, widened where v3 says more: a v2 answer is an app record as it is, and a
 * v3 answer is reshaped into one at the client's edge (lib/service-client/reshape-v3.ts), so no
 * page, report or sync needs to know which version was read.
 *
 * - EGVs: `EgvsV2Response` (units at the top, `value` the one to use, 39 and 401 the sentinels).
 * - Calibrations: `Calibration`. The data range: `DataRangeResponse`.
 * - Events: `CgmEvent`, which adds v3's types (bloodGlucose, notes), insulin subtypes, the
 *   `updated` status and a note's text.
 * - Devices: `CgmDevice`, which adds v3's alert names, the per-alert sound and delay settings, and a
 *   schedule's `isActive` and manual override.
 * - Alerts (v3 only; v2 has none): `CgmAlert`.
 *
 * Values a version does not know are kept as "unknown" (service-v3-notes.md §4: Dexcom changes its
 * enumerations without a new recordVersion), never dropped.
 */

/** Event types: v2's four, and v3's blood glucose meter readings, notes, and "unknown". */
export type CgmEventType = EventV2["eventType"] | Extract<EventTypeV3, "bloodGlucose" | "notes" | "unknown">;
export const CGM_EVENT_TYPES = [
  "carbs",
  "insulin",
  "exercise",
  "health",
  "bloodGlucose",
  "notes",
  "unknown",
] as const satisfies readonly CgmEventType[];
export type CgmEventSubType = NonNullable<EventV2["eventSubType"]> | EventSubTypeV3;
export type CgmEventUnit = NonNullable<EventV2["unit"]> | EventUnitV3;
/** v2: created or deleted; v3 adds updated (an entry the user changed). */
export type CgmEventStatus = EventV2["eventStatus"] | "updated" | "unknown";

export interface CgmEvent {
  systemTime: string;
  displayTime: string;
  /** The event's identity at the service: v2 `eventId`, v3 `recordId` (the same value). */
  eventId: string;
  eventStatus: CgmEventStatus;
  eventType: CgmEventType;
  eventSubType: CgmEventSubType | null;
  /** Grams, units, minutes, or a meter reading (in `unit`); null when not given or unknown. */
  value: number | null;
  unit: CgmEventUnit | null;
  /** A notes event's text (v3); absent or null otherwise. */
  text?: string | null;
}

/** Alert names: v2's, and v3's urgent low, urgent low soon, no readings and "unknown". */
export type CgmAlertName = AlertSettingV2["alertName"] | AlertSettingV3Read["alertName"];

export interface CgmAlertSetting {
  alertName: CgmAlertName;
  value: number | null;
  unit: AlertSettingV2["unit"] | AlertSettingV3Read["unit"];
  snooze: number | null;
  enabled: boolean;
  /** When the user last changed it; v3 may not say (null). */
  systemTime: string | null;
  displayTime: string | null;
  /** v3 only. */
  delay?: number | null;
  secondaryTriggerCondition?: number | null;
  soundTheme?: AlertSettingV3Read["soundTheme"];
  soundOutputMode?: AlertSettingV3Read["soundOutputMode"];
}

export interface CgmAlertSchedule {
  alertScheduleSettings: AlertSchedule["alertScheduleSettings"] & {
    /** v3 only: whether this schedule is the one in use. */
    isActive?: boolean | null;
    /** v3 only: a manual override (quiet or vibrate) and when it ends (UTC). */
    override?: AlertScheduleV3Read["alertScheduleSettings"]["override"];
  };
  alertSettings: CgmAlertSetting[] | null;
}

export interface CgmDevice {
  transmitterGeneration: string | null;
  displayDevice: string | null;
  /** UTC. */
  lastUploadDate: string;
  /** The alert schedules as of lastUploadDate (v2 `alertScheduleList`, v3 `alertSchedules`). */
  alertScheduleList: CgmAlertSchedule[];
  /** v3 only: an opaque hash (not the printed serial), the generation's variant, the app. */
  transmitterId?: string | null;
  transmitterGenerationVariant?: string | null;
  displayApp?: string | null;
}

/** One change of an alert's state (v3 only), as the lenient reader normalises it. */
export type CgmAlert = AlertV3Read;
