import type { Calibration, CgmEvent, EgvsV2Response, EgvV2 } from "@/lib/cgm";
import { formatDateTime, parseDateTime } from "@/lib/cgm";
import { metricValueMgdl } from "@/lib/cgm/values";
import type { schema } from "@/lib/db";
import { consensusRangeOf } from "@/lib/metrics/time-in-ranges";
import type { CgmApiVersion } from "@/lib/platform/env";

/**
 * The service's records (the app's records, lib/cgm/app-records.ts, whichever API version was
 * read) as rows of the synced tables (lib/db/schema/synced.ts), every field as received, with a v3
 * record's `recordId` where the app record has no place for it (EGVs, calibrations). One insert may not touch the same key twice (PostgreSQL refuses "ON CONFLICT DO
 * UPDATE command cannot affect row a second time"), so records with the same identity are
 * collapsed here, the later one winning as it is the fresher answer. The `*Of` functions turn a
 * stored row back into the record the service sent, field for field (lib/sync/source.ts).
 */

/**
 * The rows as the synced tables hold them (lib/db/schema/synced.ts), derived from the tables so the
 * two cannot disagree; `syncedAt` is left out as the database sets it on every write.
 */
type SyncedRow<Table extends { $inferSelect: { syncedAt: Date } }> = Omit<Table["$inferSelect"], "syncedAt">;

export type EgvRow = SyncedRow<typeof schema.syncedEgvs>;
export type EventRow = SyncedRow<typeof schema.syncedEvents>;
export type CalibrationRow = SyncedRow<typeof schema.syncedCalibrations>;

/** A record as read with v3, its `recordId` beside (lib/sync/v3.ts); v2 records have none. */
export type WithRecordId<T> = T & { recordId?: string | null };

export type EgvsRead = Omit<EgvsV2Response, "egvs"> & { egvs: WithRecordId<EgvV2>[] };

function systemDate(systemTime: string): Date {
  const ms = parseDateTime(systemTime);
  // The response was parsed with the service's schemas, which accept only valid DateTimes.
  if (ms === null) throw new Error(`Not a DateTime: ${systemTime}`);
  return new Date(ms);
}

function lastByKey<T>(rows: readonly T[], key: (row: T) => string | number): T[] {
  const byKey = new Map<string | number, T>();
  for (const row of rows) byKey.set(key(row), row);
  return [...byKey.values()];
}

/** What identifies a row in its table besides the connection: its primary key's other column. */
const bySystemTime = (r: { systemTime: Date }) => r.systemTime.getTime();
const byEventId = (r: EventRow) => r.eventId;

export type GroupRows =
  | { group: "egvs"; rows: EgvRow[] }
  | { group: "events"; rows: EventRow[] }
  | { group: "calibrations"; rows: CalibrationRow[] };

/**
 * The rows of several windows of one group (read in time order) as one write. A record can move
 * between windows while they are read (an event edited meanwhile), and one insert may not touch a
 * key twice: the later read wins, as in each window's own rows.
 */
export function joinGroupRows(parts: readonly GroupRows[]): GroupRows {
  const first = parts[0];
  if (!first) throw new Error("joinGroupRows needs at least one part.");
  if (parts.length === 1) return first;
  const all = <R>(group: GroupRows["group"]) =>
    parts.flatMap((p) => (p.group === group ? (p.rows as R[]) : []));
  switch (first.group) {
    case "egvs":
      return { group: "egvs", rows: lastByKey(all<EgvRow>("egvs"), bySystemTime) };
    case "events":
      return { group: "events", rows: lastByKey(all<EventRow>("events"), byEventId) };
    case "calibrations":
      return { group: "calibrations", rows: lastByKey(all<CalibrationRow>("calibrations"), bySystemTime) };
  }
}

export function egvRows(connectionId: string, response: EgvsRead): EgvRow[] {
  return lastByKey(
    response.egvs.map((e) => {
      const metricMgdl = metricValueMgdl(e.value, response.unit, e.status);
      return {
        connectionId,
        systemTime: systemDate(e.systemTime),
        displayTime: e.displayTime,
        value: e.value,
        realtimeValue: e.realtimeValue,
        smoothedValue: e.smoothedValue,
        unit: response.unit,
        rateUnit: response.rateUnit,
        status: e.status,
        trend: e.trend,
        trendRate: e.trendRate,
        metricMgdl,
        consensusRange: consensusRangeOf(metricMgdl),
        recordId: e.recordId ?? null,
      };
    }),
    bySystemTime,
  );
}

export function eventRows(connectionId: string, events: readonly CgmEvent[]): EventRow[] {
  return lastByKey(
    events.map((e) => ({
      connectionId,
      eventId: e.eventId,
      systemTime: systemDate(e.systemTime),
      displayTime: e.displayTime,
      eventType: e.eventType,
      eventSubType: e.eventSubType,
      value: e.value,
      unit: e.unit,
      eventStatus: e.eventStatus,
      text: e.text ?? null,
    })),
    byEventId,
  );
}

export function calibrationRows(
  connectionId: string,
  calibrations: readonly WithRecordId<Calibration>[],
): CalibrationRow[] {
  return lastByKey(
    calibrations.map((c) => ({
      connectionId,
      systemTime: systemDate(c.systemTime),
      displayTime: c.displayTime,
      value: c.value,
      unit: c.unit,
      recordId: c.recordId ?? null,
    })),
    bySystemTime,
  );
}

/**
 * A stored EGV as the app's EGV read with `version`. v3 has no realtime/smoothed pair: read in v3
 * mode, a row synced in v2 answers as the service now would (lib/service-client/reshape-v3.ts
 * `egvFromV3`: realtime = value, no smoothed value), so the copy and the service agree; a row
 * synced in v3 was stored that way already.
 */
export function egvOf(row: EgvRow, version: CgmApiVersion = "v2"): EgvV2 {
  const v3 = version === "v3";
  return {
    systemTime: formatDateTime(row.systemTime.getTime()),
    displayTime: row.displayTime,
    value: row.value,
    realtimeValue: v3 ? row.value : row.realtimeValue,
    smoothedValue: v3 ? null : row.smoothedValue,
    status: row.status,
    trend: row.trend,
    trendRate: row.trendRate,
  };
}

/** A stored event as the app's event read with `version`: v3 events always carry `text`. */
export function eventOf(row: EventRow, version: CgmApiVersion = "v2"): CgmEvent {
  return {
    systemTime: formatDateTime(row.systemTime.getTime()),
    displayTime: row.displayTime,
    eventType: row.eventType,
    eventSubType: row.eventSubType,
    value: row.value,
    unit: row.unit,
    eventId: row.eventId,
    eventStatus: row.eventStatus,
    ...(version === "v3" || row.text !== null ? { text: row.text } : {}),
  };
}

export function calibrationOf(row: CalibrationRow): Calibration {
  return {
    systemTime: formatDateTime(row.systemTime.getTime()),
    displayTime: row.displayTime,
    value: row.value,
    unit: row.unit,
  };
}

/** The first and last systemTime of rows keyed by it, in epoch milliseconds; null for none. */
export function systemTimeSpan(rows: readonly { systemTime: Date }[]): { from: number; to: number } | null {
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const r of rows) {
    const ms = r.systemTime.getTime();
    if (ms < from) from = ms;
    if (ms > to) to = ms;
  }
  return from <= to ? { from, to } : null;
}

/**
 * Rows keyed by systemTime parted into those whose key is not stored yet (`fresh`) and the others,
 * given the stored keys in their span (epoch milliseconds); with none known (`null`: too many to
 * read back), every row counts as stored.
 */
export function splitByStored<R extends { systemTime: Date }>(
  rows: readonly R[],
  storedMs: readonly number[] | null,
): { fresh: R[]; stored: R[] } {
  if (storedMs === null) return { fresh: [], stored: [...rows] };
  const known = new Set(storedMs);
  const fresh: R[] = [];
  const stored: R[] = [];
  for (const r of rows) (known.has(r.systemTime.getTime()) ? stored : fresh).push(r);
  return { fresh, stored };
}
