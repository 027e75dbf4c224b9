import "server-only";
import type { Preferences } from "@/lib/preferences/schema";
import { DEVICE_DAYS } from "@/lib/records/devices";
import type { Viewer } from "@/lib/records/viewer";
import { lastDaysOfReadings } from "@/lib/reports/period/period-load";
import { configuredVersion, getDevices } from "@/lib/service-client/client";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { readCalibrations, readSource } from "@/lib/sync/source";
import { type CalibrationsData, type CalibrationsModel, calibrationsModel } from "./calibrations-model";
import { lastDaysOfGroup } from "./period-load";

/**
 * The calibrations page's service calls: the calibrations of the chosen days, ending on the day of
 * the newest calibration, and the devices of those days.
 */
export async function loadCalibrations(
  connection: ConnectionRef,
  days: number,
  preferences: Preferences,
  viewer?: Viewer,
  nowMs = Date.now(),
): Promise<CalibrationsModel> {
  return calibrationsModel(await readCalibrationsData(connection, days, nowMs), days, preferences, viewer);
}

async function readCalibrationsData(
  connection: ConnectionRef,
  days: number,
  nowMs: number,
): Promise<CalibrationsData> {
  const source = await readSource(connection);
  const range = source.newest;
  const period = await lastDaysOfGroup(connection, source, "calibrations", days);
  if (!range.calibrations || !period?.patientDays) {
    // Nothing to list: the sensor generation of the devices page's devices says whether that is expected.
    const lookback = (await lastDaysOfReadings(connection, source, DEVICE_DAYS, nowMs)).period;
    const devices = (await getDevices(connection, configuredVersion(), lookback)).devices;
    return { kind: "none", generation: devices[0]?.transmitterGeneration ?? null };
  }
  const [{ calibrations }, devices] = await Promise.all([
    readCalibrations(connection, period, source),
    getDevices(connection, configuredVersion(), period).then((r) => r.devices),
  ]);
  return {
    kind: "list",
    calibrations,
    devices,
    patientDays: period.patientDays,
    latestDisplayTime: range.calibrations.end.displayTime,
  };
}
