import "server-only";
import { formatDateTime, MS_PER_MINUTE, parseDateTime } from "@/lib/cgm/datetime";
import type { DeviceV1 } from "@/lib/cgm/schemas";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { windowOf } from "@/lib/cgm/window";
import type { Preferences } from "@/lib/preferences/schema";
import { DEVICE_DAYS } from "@/lib/records/devices";
import type { Viewer } from "@/lib/records/viewer";
import { lastDaysOfReadings } from "@/lib/reports/period/period-load";
import { configuredVersion, getDevices } from "@/lib/service-client/client";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { readEgvs, readSource } from "@/lib/sync/source";
import { type DevicesModel, devicesModel, utcTimesToPlace } from "./devices-model";

/**
 * The devices page's service calls: the devices (spec 2.4) that contributed data in the last 30
 * days on the receiver's clock, ending on the day of their latest reading; with API v2 also the
 * v1 records, which have their own shape (a delay per alert); and the unit of the readings, which
 * the alert values follow when the patient chose none.
 */
export async function loadDevices(
  connection: ConnectionRef,
  preferences: Preferences,
  viewer?: Viewer,
  nowMs = Date.now(),
): Promise<DevicesModel> {
  const source = await readSource(connection);
  const range = source.newest;
  const egvEnd = range.egvs ? parseDateTime(range.egvs.end.systemTime) : null;
  // The devices of the last 30 receiver days; the clock also puts the uploads, which the service
  // dates in UTC only, on the receiver's clock.
  const { clock, period: window } = await lastDaysOfReadings(connection, source, DEVICE_DAYS, nowMs);
  // The unit of the patient's readings (a few minutes of them): alert values follow it.
  const readingUnit = async (): Promise<GlucoseUnit | null> =>
    egvEnd === null
      ? null
      : (await readEgvs(connection, windowOf(egvEnd - 10 * MS_PER_MINUTE, egvEnd), source)).unit;
  // API v3 (CGM_API_VERSION) has its own devices and no older interface beside them: only
  // /v3 paths are asked then.
  const version = configuredVersion();
  const [v2, v1, unit] = await Promise.all([
    getDevices(connection, version, window),
    version === "v2" ? getDevices(connection, "v1", window) : null,
    readingUnit(),
  ]);
  const v1Devices = v1 ? (v1.devices as DeviceV1[]) : null;
  const receiverTimes = new Map<string, string>();
  await Promise.all(
    utcTimesToPlace(v2.devices, v1Devices).map(async (utc) => {
      const t = parseDateTime(utc);
      if (t !== null) receiverTimes.set(utc, formatDateTime(await clock.receiverTime(t)));
    }),
  );
  return devicesModel(
    {
      v2: v2.devices,
      v1: v1Devices,
      receiverTimes,
      readingUnit: unit,
      windowEnd: range.egvs?.end.displayTime ?? null,
      // Days of the receiver's clock only when a reading tells it (else UTC days up to now).
      patientDays: range.egvs ? window.patientDays : undefined,
    },
    preferences,
    viewer,
  );
}
