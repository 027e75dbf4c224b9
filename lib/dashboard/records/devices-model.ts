import type { CgmAlertSetting, CgmDevice } from "@/lib/cgm/app-records";
import type { AlertSettingV1, DeviceV1 } from "@/lib/cgm/schemas";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { displayUnit, type Preferences } from "@/lib/preferences/schema";
import {
  DEVICE_DAYS,
  deviceTitle,
  displayDeviceLabel,
  generationLabel,
  overrideText,
  scheduleDaysText,
  scheduleHoursText,
  scheduleName,
} from "@/lib/records/devices";
import { formatDateTimeText } from "@/lib/records/format";
import { PATIENT, type Viewer, wordsFor } from "@/lib/records/viewer";
import { type PatientDays, patientDaysText } from "@/lib/reports/period/patient-days";

/**
 * The devices page's model: the devices that uploaded in the last 30 receiver days, their alert
 * schedules (v2, v3) and the v1 records' alert settings, every text said in words, glucose in the
 * patient's display unit, and the service's UTC times also on the receiver's clock.
 */

export const DEVICES_PATH = "/dashboard/devices";

/** What the loader read. */
export interface DevicesData {
  v2: readonly CgmDevice[];
  /** The older interface's records; null when it is not asked (API v3). */
  v1: readonly DeviceV1[] | null;
  /** UTC times (uploads, override ends) on the receiver's clock. */
  receiverTimes: ReadonlyMap<string, string>;
  /** The unit of the patient's readings; null without any. */
  readingUnit: GlucoseUnit | null;
  /** The newest reading's receiver time; null without any. */
  windowEnd: string | null;
  /** The days on the receiver's clock, when a reading tells them. */
  patientDays: PatientDays | undefined;
}

/** The service's UTC times the page puts on the receiver's clock: every upload, and v3's override ends. */
export function utcTimesToPlace(v2: readonly CgmDevice[], v1: readonly DeviceV1[] | null): string[] {
  const overrideEnds = v2.flatMap((d) =>
    d.alertScheduleList.flatMap((s) => s.alertScheduleSettings.override?.endTime ?? []),
  );
  return [...new Set([...[...v2, ...(v1 ?? [])].map((d) => d.lastUploadDate), ...overrideEnds])];
}

/** A time the service gives in UTC, with the receiver's clock's time when known. */
export interface PlacedTime {
  utc: string;
  receiver: string | undefined;
}

export interface ScheduleView {
  name: string;
  heading: string;
  settingsCaption: string;
  isDefault: boolean;
  isEnabled: boolean;
  /** v3 only: the schedule in use at the last upload. */
  isActive: boolean | undefined;
  daysText: string;
  hoursText: string;
  /** v3's override in words; null without one. */
  override: string | null;
  overrideMode: string | undefined;
  settings: CgmAlertSetting[];
}

export interface DeviceView {
  title: string;
  generation: string | null;
  displayDevice: string | null;
  upload: PlacedTime;
  schedules: ScheduleView[];
}

export interface DeviceV1View {
  title: string;
  settingsCaption: string;
  upload: PlacedTime;
  settings: AlertSettingV1[];
}

export interface DevicesModel {
  glucoseUnit: GlucoseUnit;
  /** The period in words: its days on the receiver's clock, else "the last 30 days". */
  period: string;
  /** No device at all, in either interface. */
  empty: boolean;
  devices: DeviceView[];
  v1: DeviceV1View[] | null;
}

export function devicesModel(
  data: DevicesData,
  preferences: Preferences,
  viewer: Viewer = PATIENT,
): DevicesModel {
  const { your, clock } = wordsFor(viewer);
  const placed = (utc: string): PlacedTime => ({ utc, receiver: data.receiverTimes.get(utc) });
  return {
    glucoseUnit: displayUnit(preferences, data.readingUnit ?? "mg/dL"),
    period:
      data.windowEnd && data.patientDays
        ? `${patientDaysText(data.patientDays)} on ${clock}, up to ${your} latest reading at ${formatDateTimeText(data.windowEnd)}`
        : `the last ${DEVICE_DAYS} days`,
    empty: data.v2.length === 0 && (data.v1 ?? []).length === 0,
    devices: data.v2.map((device) => ({
      title: deviceTitle(device),
      generation: generationLabel(device.transmitterGeneration),
      displayDevice: displayDeviceLabel(device.displayDevice),
      upload: placed(device.lastUploadDate),
      schedules: device.alertScheduleList.map((schedule) => {
        const s = schedule.alertScheduleSettings;
        const named = scheduleName(s);
        return {
          name: s.alertScheduleName,
          heading: named.heading,
          settingsCaption: named.settingsCaption,
          isDefault: s.isDefaultSchedule,
          isEnabled: s.isEnabled,
          isActive: typeof s.isActive === "boolean" ? s.isActive : undefined,
          daysText: scheduleDaysText(s.daysOfWeek),
          hoursText: scheduleHoursText(s.startTime, s.endTime),
          // API v3: the manual override (quiet or vibrate), its end on the receiver's clock.
          override: overrideText(
            s.override,
            s.override?.endTime ? data.receiverTimes.get(s.override.endTime) : undefined,
          ),
          overrideMode: s.override?.mode,
          settings: schedule.alertSettings ?? [],
        };
      }),
    })),
    v1:
      data.v1?.map((device) => ({
        title: device.model === "Unknown" ? "Device (model not reported)" : device.model,
        settingsCaption: `Alert settings of ${device.model === "Unknown" ? "this device" : device.model} (v1)`,
        upload: placed(device.lastUploadDate),
        settings: device.alertSettings ?? [],
      })) ?? null,
  };
}
