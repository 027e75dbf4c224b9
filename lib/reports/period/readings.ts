import "server-only";
import { type Reading as CgmReading, toReadings } from "@/lib/cgm/reading";
import type { GlucoseUnit } from "@/lib/cgm/units";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { type ReadSource, readEgvs } from "@/lib/sync/source";
import type { ReportPeriod } from "./period";

/**
 * One EGV as reports use it: systemTime orders and windows it, displayTime places it on the
 * patient's clock (the AGP's time of day, the daily profiles' days), mgdl is its metric value.
 */
export type Reading = Pick<CgmReading, "t" | "displayTime" | "displayMs" | "mgdl">;

export interface PeriodReadings {
  /** The unit the service sent; reports show it unless the patient chose another. */
  dataUnit: GlucoseUnit;
  readings: Reading[];
}

/**
 * Every EGV of the period (v2, so smoothed values are the ones used), in systemTime order; from
 * the synced copy when it can answer (lib/sync/source.ts). With the load's `source` (`readSource`),
 * the period's finished days come from those this process holds, and only the rest is read.
 */
export async function loadReadings(
  connection: ConnectionRef,
  period: ReportPeriod,
  source?: ReadSource,
): Promise<PeriodReadings> {
  const { unit, egvs } = await readEgvs(connection, period, source);
  const readings = toReadings(egvs, unit).sort((a, b) => a.t - b.t);
  return { dataUnit: unit, readings };
}
