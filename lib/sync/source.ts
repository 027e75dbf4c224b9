import "server-only";
import { and, asc, desc, eq, gte, lte, sql } from "drizzle-orm";
import {
  type Calibration,
  type DataRangeResponse,
  type EgvsV2Response,
  type EventV2,
  parseDateTime,
} from "@/lib/cgm";
import { db, schema } from "@/lib/db";
import { env } from "@/lib/env";
import { getCalibrations, getDataRange, getEgvs, getEvents, type Window } from "@/lib/service-client/client";
import { type ConnectionRef, connectionIdOf } from "@/lib/service-client/tokens";
import { type CopyVerdict, copyAnswers } from "./freshness";
import type { DataGroup } from "./plan";
import { calibrationOf, egvOf, eventOf } from "./rows";
import { syncedFrom, syncedThrough } from "./store";

/**
 * The one place the dashboard and the reports read a connection's v2 data: from the background
 * sync's copy when it can answer (the rule and its reasons: lib/sync/freshness.ts), else from the
 * service. Either way the answer has the service's v2 shapes (lib/cgm), so what is computed
 * downstream does not depend on where it came from. Deleted v2 events come back as the service
 * sends them (eventStatus "deleted"), and the readers leave them out as before.
 */

export type DataSource = "synced" | "service";

/** Where a read of `groups` over `window` would be answered from, and why not the copy. */
export async function sourceFor(
  connection: ConnectionRef,
  groups: readonly DataGroup[],
  window: Window | null,
): Promise<CopyVerdict> {
  let span: { startMs: number; endMs: number } | null = null;
  if (window) {
    const startMs = parseDateTime(window.startDate);
    const endMs = parseDateTime(window.endDate);
    // A malformed window is the service path's to refuse, with its own message.
    if (startMs === null || endMs === null) return { answers: false, reason: "the window is not valid" };
    span = { startMs, endMs };
  }
  const database = await db();
  const s = schema.syncState;
  const [row] = await database
    .select({
      state: s,
      status: schema.cgmConnections.status,
      nowMs: sql<string>`(extract(epoch from now()) * 1000)::float8`,
    })
    .from(s)
    .innerJoin(schema.cgmConnections, eq(schema.cgmConnections.id, s.connectionId))
    .where(eq(s.connectionId, connectionIdOf(connection)));
  if (!row) return { answers: false, reason: "the connection is not synced" };
  const { state } = row;
  return copyAnswers(
    {
      active: row.status === "active",
      backfillDone: state.backfillDone,
      lastSuccessMs: state.lastSuccessAt?.getTime() ?? null,
      lastErrorMs: state.lastErrorAt?.getTime() ?? null,
      range: state.dataRange,
      through: syncedThrough(state),
      from: syncedFrom(state),
    },
    groups,
    span,
    Number(row.nowMs),
    env().SYNC_INTERVAL_MINUTES,
  );
}

const inWindow = (
  t: typeof schema.syncedEgvs | typeof schema.syncedEvents | typeof schema.syncedCalibrations,
  id: string,
  w: Window,
) =>
  and(
    eq(t.connectionId, id),
    gte(t.systemTime, new Date(parseDateTime(w.startDate) ?? 0)),
    lte(t.systemTime, new Date(parseDateTime(w.endDate) ?? 0)),
  );

/**
 * The window's EGVs from the copy, in the unit of the connection's newest synced reading (the
 * account's unit at the last sync). Null when a reading of the window came in another unit (the
 * patient changed unit since): the service answers in the current unit, and its rounding is not
 * ours to repeat. Null too when nothing is synced, as there is then no unit to answer in.
 */
async function syncedEgvs(id: string, w: Window): Promise<EgvsV2Response | null> {
  const database = await db();
  const t = schema.syncedEgvs;
  const [newest] = await database
    .select({ unit: t.unit, rateUnit: t.rateUnit })
    .from(t)
    .where(eq(t.connectionId, id))
    .orderBy(desc(t.systemTime))
    .limit(1);
  if (!newest) return null;
  const rows = await database
    .select()
    .from(t)
    .where(inWindow(t, id, w))
    .orderBy(asc(t.systemTime));
  if (rows.some((r) => r.unit !== newest.unit || r.rateUnit !== newest.rateUnit)) return null;
  return { unit: newest.unit, rateUnit: newest.rateUnit, egvs: rows.map(egvOf) };
}

export async function readEgvs(connection: ConnectionRef, window: Window): Promise<EgvsV2Response> {
  if ((await sourceFor(connection, ["egvs"], window)).answers) {
    const synced = await syncedEgvs(connectionIdOf(connection), window);
    if (synced) return synced;
  }
  return getEgvs(connection, "v2", window);
}

export async function readEvents(connection: ConnectionRef, window: Window): Promise<{ events: EventV2[] }> {
  if ((await sourceFor(connection, ["events"], window)).answers) {
    const t = schema.syncedEvents;
    const rows = await (await db())
      .select()
      .from(t)
      .where(inWindow(t, connectionIdOf(connection), window))
      .orderBy(asc(t.systemTime), asc(t.eventId));
    return { events: rows.map(eventOf) };
  }
  return getEvents(connection, "v2", window);
}

export async function readCalibrations(
  connection: ConnectionRef,
  window: Window,
): Promise<{ calibrations: Calibration[] }> {
  if ((await sourceFor(connection, ["calibrations"], window)).answers) {
    const t = schema.syncedCalibrations;
    const rows = await (await db())
      .select()
      .from(t)
      .where(inWindow(t, connectionIdOf(connection), window))
      .orderBy(asc(t.systemTime));
    return { calibrations: rows.map(calibrationOf) };
  }
  return getCalibrations(connection, "v2", window);
}

/** The service's dataRange, as the last sync saw it when the copy answers. */
export async function readDataRange(connection: ConnectionRef): Promise<DataRangeResponse> {
  const verdict = await sourceFor(connection, ["egvs", "events", "calibrations"], null);
  if (verdict.answers) {
    const [row] = await (await db())
      .select({ range: schema.syncState.dataRange })
      .from(schema.syncState)
      .where(eq(schema.syncState.connectionId, connectionIdOf(connection)));
    if (row?.range) return row.range;
  }
  return getDataRange(connection);
}
