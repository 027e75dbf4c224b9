import "server-only";
import { parseDateTime } from "@/lib/cgm/datetime";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { metricValueMgdl } from "@/lib/cgm/values";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { readEgvs } from "@/lib/sync/source";
import type { ReportPeriod } from "./period";

/**
 * One EGV as reports use it: systemTime orders and windows it, displayTime places it on the
 * patient's clock (the AGP's time of day, the daily profiles' days), mgdl is its metric value.
 */
export interface Reading {
  t: number;
  displayTime: string;
  /** displayTime read on the naive UTC axis (see lib/cgm/datetime). */
  displayMs: number;
  mgdl: number;
}

export interface PeriodReadings {
  /** The unit the service sent; reports show it unless the patient chose another. */
  dataUnit: GlucoseUnit;
  readings: Reading[];
}

/**
 * Every EGV of the period (v2, so smoothed values are the ones used), in systemTime order; from
 * the synced copy when it can answer (lib/sync/source.ts).
 */
export async function loadReadings(connection: ConnectionRef, period: ReportPeriod): Promise<PeriodReadings> {
  const { unit, egvs } = await readEgvs(connection, period);
  const readings: Reading[] = [];
  for (const e of egvs) {
    const t = parseDateTime(e.systemTime);
    const displayMs = parseDateTime(e.displayTime);
    if (t === null || displayMs === null || typeof e.value !== "number") continue;
    readings.push({
      t,
      displayTime: e.displayTime,
      displayMs,
      mgdl: metricValueMgdl(e.value, unit, e.status),
    });
  }
  readings.sort((a, b) => a.t - b.t);
  return { dataUnit: unit, readings };
}
