import "server-only";
import type { Calibration } from "@/lib/cgm";
import type { Window } from "@/lib/cgm/window";
import { logLeftOut, readV3 } from "@/lib/service-client/client";
import { calibrationFromV3, egvFromV3, type LeftOut } from "@/lib/service-client/reshape-v3";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import type { EgvsRead, WithRecordId } from "./rows";

/**
 * The sync's reads of EGVs and calibrations in API v3: the client's v3 read (readV3: chunks of at
 * most 30 days, merged by recordId, read leniently) reshaped into the app's records one by one as
 * the client's getEgvs/getCalibrations do, each with its `recordId` beside, which the app's records
 * of these groups have no place for and the synced tables keep (lib/db/schema/synced.ts). Events
 * need nothing of this: their app record's eventId is the recordId.
 */
function withIds<R extends { recordId: string }, T>(
  what: string,
  records: readonly R[],
  one: (r: R) => T | string,
): WithRecordId<T>[] {
  const kept: WithRecordId<T>[] = [];
  const leftOut: LeftOut[] = [];
  for (const r of records) {
    const record = one(r);
    if (typeof record === "string") leftOut.push({ record: r.recordId, reason: record });
    else kept.push({ ...record, recordId: r.recordId });
  }
  logLeftOut(what, leftOut);
  return kept;
}

export async function readEgvsV3(connection: ConnectionRef, window: Window): Promise<EgvsRead> {
  const read = await readV3(connection, "egvs", window);
  // v3 values are mg/dL (egvFromV3 converts any other), as the client's egvsFromV3 answers.
  return { unit: "mg/dL", rateUnit: "mg/dL/min", egvs: withIds("egvs", read.records, egvFromV3) };
}

export async function readCalibrationsV3(
  connection: ConnectionRef,
  window: Window,
): Promise<WithRecordId<Calibration>[]> {
  const read = await readV3(connection, "calibrations", window);
  return withIds("calibrations", read.records, calibrationFromV3);
}
