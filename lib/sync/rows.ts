import type { Calibration, CgmEvent, EgvsV2Response, EgvV2 } from "@/lib/cgm";
import { formatDateTime, parseDateTime } from "@/lib/cgm";
import { metricValueMgdl } from "@/lib/cgm/values";
import { type ConsensusRange, consensusRangeOf } from "@/lib/metrics/time-in-ranges";

/**
 * The service's v2 records as rows of the synced tables (lib/db/schema/synced.ts), every field as
 * received. One insert may not touch the same key twice (PostgreSQL refuses "ON CONFLICT DO
 * UPDATE command cannot affect row a second time"), so records with the same identity are
 * collapsed here, the later one winning as it is the fresher answer. The `*Of` functions turn a
 * stored row back into the record the service sent, field for field (lib/sync/source.ts).
 */

export interface EgvRow {
  connectionId: string;
  systemTime: Date;
  displayTime: string;
  value: number;
  realtimeValue: number;
  smoothedValue: number | null;
  unit: EgvsV2Response["unit"];
  rateUnit: EgvsV2Response["rateUnit"];
  status: EgvsV2Response["egvs"][number]["status"];
  trend: EgvsV2Response["egvs"][number]["trend"];
  trendRate: number | null;
  /** `metricValueMgdl` of the reading, and its consensus range: what the daily rollup sums. */
  metricMgdl: number;
  consensusRange: ConsensusRange;
}

export interface EventRow {
  connectionId: string;
  eventId: string;
  systemTime: Date;
  displayTime: string;
  eventType: CgmEvent["eventType"];
  eventSubType: CgmEvent["eventSubType"];
  value: number | null;
  unit: CgmEvent["unit"];
  eventStatus: CgmEvent["eventStatus"];
}

export interface CalibrationRow {
  connectionId: string;
  systemTime: Date;
  displayTime: string;
  value: number;
  unit: Calibration["unit"];
}

function systemDate(systemTime: string): Date {
  const ms = parseDateTime(systemTime);
  // The response was parsed with the service's schemas, which accept only valid DateTimes.
  if (ms === null) throw new Error(`Not a DateTime: ${systemTime}`);
  return new Date(ms);
}

function lastByKey<T>(rows: T[], key: (row: T) => string | number): T[] {
  const byKey = new Map<string | number, T>();
  for (const row of rows) byKey.set(key(row), row);
  return [...byKey.values()];
}

export function egvRows(connectionId: string, response: EgvsV2Response): EgvRow[] {
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
      };
    }),
    (r) => r.systemTime.getTime(),
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
    })),
    (r) => r.eventId,
  );
}

export function calibrationRows(
  connectionId: string,
  calibrations: readonly Calibration[],
): CalibrationRow[] {
  return lastByKey(
    calibrations.map((c) => ({
      connectionId,
      systemTime: systemDate(c.systemTime),
      displayTime: c.displayTime,
      value: c.value,
      unit: c.unit,
    })),
    (r) => r.systemTime.getTime(),
  );
}

export function egvOf(row: EgvRow): EgvV2 {
  return {
    systemTime: formatDateTime(row.systemTime.getTime()),
    displayTime: row.displayTime,
    value: row.value,
    realtimeValue: row.realtimeValue,
    smoothedValue: row.smoothedValue,
    status: row.status,
    trend: row.trend,
    trendRate: row.trendRate,
  };
}

export function eventOf(row: EventRow): CgmEvent {
  return {
    systemTime: formatDateTime(row.systemTime.getTime()),
    displayTime: row.displayTime,
    eventType: row.eventType,
    eventSubType: row.eventSubType,
    value: row.value,
    unit: row.unit,
    eventId: row.eventId,
    eventStatus: row.eventStatus,
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
