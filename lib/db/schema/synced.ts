import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
// Types only (erased): drizzle-kit loads this file without the app's path aliases.
import type { CgmEvent, DataRangeResponse, EgvV2, GlucoseUnit, HypoglycemiaRisk, RateUnit } from "../../cgm";
import type { ConsensusRange } from "../../metrics/time-in-ranges";
import type { CgmApiVersion } from "../../platform/env";
import { cgmConnections } from "./client";

/**
 * The service's data as the background sync (lib/sync) last received it, one row per record and
 * keyed by the record's identity at the service, so a repeated or interrupted sync overwrites
 * instead of duplicating. `systemTime` is kept as a timestamp (the service's clock is nominally
 * UTC, and range scans need an ordered column); `displayTime` is the device's wall clock with no
 * zone, so it is kept as the DateTime text the service sent. Values are double precision so that a
 * mmol/L value such as 5.6 comes back as the same JSON number. Rows go with their connection.
 */
const connectionId = () =>
  text("connection_id")
    .notNull()
    .references(() => cgmConnections.id, { onDelete: "cascade" });

/**
 * synced_egvs's connection, without a foreign key: a year of EGVs is 105,000 rows, and checking
 * the key row by row took a quarter of the backfill's writing time on PGlite. The key's two
 * guarantees are kept another way (migration 0012): a trigger on cgm_connections deletes a removed
 * connection's EGVs, as the cascade did, and storeGroup (lib/sync/store.ts) locks the connection's
 * row (FOR KEY SHARE, what the key's check takes) before it writes, so a connection removed before
 * then gets no rows and one removed after waits for the write and then takes its rows with it.
 */
const egvConnectionId = () => text("connection_id").notNull();
const systemTime = () => timestamp("system_time", { withTimezone: true }).notNull();
const syncedAt = () => timestamp("synced_at", { withTimezone: true }).notNull().defaultNow();

/**
 * EGVs: `value` follows `smoothedValue` once the service has one (v2), so both are rewritten on
 * every overlap pass. Keyed by (connection, systemTime), whichever API version synced them: v2
 * EGVs have no identity of their own, and a v3 EGV's `recordId` is kept beside (`recordId`), so a
 * deployment switching from v2 to v3 overwrites the reading it already holds at that systemTime
 * instead of adding a second one (docs/sync-v3.md).
 */
export const syncedEgvs = pgTable(
  "synced_egvs",
  {
    connectionId: egvConnectionId(),
    systemTime: systemTime(),
    displayTime: text("display_time").notNull(),
    value: doublePrecision("value").notNull(),
    realtimeValue: doublePrecision("realtime_value").notNull(),
    smoothedValue: doublePrecision("smoothed_value"),
    /** The response envelope's units, per record: a patient can change their unit at the service. */
    unit: text("unit").$type<GlucoseUnit>().notNull(),
    rateUnit: text("rate_unit").$type<RateUnit>().notNull(),
    status: text("status").$type<EgvV2["status"]>(),
    trend: text("trend").$type<EgvV2["trend"]>(),
    trendRate: doublePrecision("trend_rate"),
    /**
     * Derived when written (lib/sync/rows.ts): the value metrics use (mg/dL, sentinels as 39 and
     * 401) and its consensus range, so the daily rollup (lib/sync/daily-store.ts) is a plain
     * count and sum in the database, with every rule of the value in one place (lib/cgm/values.ts).
     */
    metricMgdl: doublePrecision("metric_mgdl").notNull(),
    consensusRange: text("consensus_range").$type<ConsensusRange>().notNull(),
    /** The service's v3 `recordId`; null for a reading only ever synced in v2. */
    recordId: text("record_id"),
    syncedAt: syncedAt(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.systemTime] })],
);

/**
 * Events by `eventId` (v2), which is v3's `recordId` (service-v3-notes.md §3.3), so both
 * versions write the same row; the service keeps it when an event changes status. A deleted event
 * stays as a row with eventStatus "deleted" (readers leave those out; v3's "updated" is shown as
 * "created" is): the row records that the deletion was seen, and a status change or an edit is
 * then one update of the same row.
 */
export const syncedEvents = pgTable(
  "synced_events",
  {
    connectionId: connectionId(),
    eventId: text("event_id").notNull(),
    systemTime: systemTime(),
    displayTime: text("display_time").notNull(),
    eventType: text("event_type").$type<CgmEvent["eventType"]>().notNull(),
    eventSubType: text("event_sub_type").$type<CgmEvent["eventSubType"]>(),
    value: doublePrecision("value"),
    unit: text("unit").$type<CgmEvent["unit"]>(),
    eventStatus: text("event_status").$type<CgmEvent["eventStatus"]>().notNull(),
    /** A v3 notes event's text (lib/cgm/app-records.ts); null otherwise. */
    text: text("text"),
    syncedAt: syncedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.eventId] }),
    index("synced_events_time_idx").on(t.connectionId, t.systemTime),
  ],
);

export const syncedCalibrations = pgTable(
  "synced_calibrations",
  {
    connectionId: connectionId(),
    systemTime: systemTime(),
    displayTime: text("display_time").notNull(),
    value: doublePrecision("value").notNull(),
    unit: text("unit").$type<GlucoseUnit>().notNull(),
    /** The service's v3 `recordId`; null for a calibration only ever synced in v2 (as EGVs). */
    recordId: text("record_id"),
    syncedAt: syncedAt(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.systemTime] })],
);

/**
 * The sync passes running now, one row per pass under the name its leases carry (`lockedBy`):
 * where it runs and its heartbeat, so a lease whose holder is gone is free at once instead of
 * after LEASE_MS (lib/sync/workers.ts). A row goes when its pass ends.
 */
export const syncWorkers = pgTable("sync_workers", {
  id: text("id").primaryKey(),
  /** The machine (hostname and, on Linux, boot id): a process id means something only there. */
  host: text("host").notNull(),
  pid: integer("pid").notNull(),
  /** The process's start as the kernel records it (Linux), so a reused pid is told apart; null elsewhere. */
  processStart: text("process_start"),
  heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Where each connection's sync stands. `*Through` is the dataRange end (the newest record's
 * systemTime) a data group was last synced up to; null until that group's first sync. The lease
 * (`lockedUntil`, `lockedBy`, the holder's row in sync_workers) makes one sync per connection at a
 * time across processes without a transaction held over HTTP calls (see lib/sync/store.ts).
 */
export const syncState = pgTable(
  "sync_state",
  {
    connectionId: text("connection_id")
      .primaryKey()
      .references(() => cgmConnections.id, { onDelete: "cascade" }),
    egvsThrough: timestamp("egvs_through", { withTimezone: true }),
    eventsThrough: timestamp("events_through", { withTimezone: true }),
    calibrationsThrough: timestamp("calibrations_through", { withTimezone: true }),
    /**
     * Where the group's synced records run without a hole up to `*Through`: the start of its
     * backfill, or of the first read after a gap longer than the backfill. Readers (lib/sync/source.ts)
     * answer only windows that start there or later (or anywhere, when it is the group's first record).
     */
    egvsFrom: timestamp("egvs_from", { withTimezone: true }),
    eventsFrom: timestamp("events_from", { withTimezone: true }),
    calibrationsFrom: timestamp("calibrations_from", { withTimezone: true }),
    /** The service's dataRange as the last successful sync saw it (its ends are the `*Through`). */
    dataRange: jsonb("data_range").$type<DataRangeResponse>(),
    /** When events were last re-read back over SYNC_EVENTS_RECHECK_HOURS (lib/sync/plan.ts). */
    eventsCheckedAt: timestamp("events_checked_at", { withTimezone: true }),
    /**
     * The API version (CGM_API_VERSION) the last successful sync read with; null: before versions
     * were recorded, which was v2. A sync in another version backfills again (lib/sync/plan.ts
     * `throughFor`), so every stored record is what that version sends.
     */
    apiVersion: text("api_version").$type<CgmApiVersion>(),
    /** Every data group with records has had its first (backfill) sync. */
    backfillDone: boolean("backfill_done").notNull().default(false),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    lastSuccessAt: timestamp("last_success_at", { withTimezone: true }),
    lastError: text("last_error"),
    lastErrorAt: timestamp("last_error_at", { withTimezone: true }),
    /** Failed attempts since the last success; sets the backoff before the next one. */
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    /**
     * The connection's token version when the service refused its authorization: the sync skips
     * the connection until its tokens change (a reconnect stores new ones).
     */
    reconnectTokenVersion: integer("reconnect_token_version"),
    lockedBy: text("locked_by"),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sync_state_due_idx").on(t.nextAttemptAt)],
);

/**
 * The pacing of the sync's service calls (lib/sync/rate-limit.ts), one row per app registration
 * (its client_id), shared by every sync process: `tatMs` is the GCRA's theoretical arrival time,
 * in milliseconds since the epoch on the database's clock.
 */
export const syncRateLimit = pgTable("sync_rate_limit", {
  clientId: text("client_id").primaryKey(),
  tatMs: doublePrecision("tat_ms").notNull(),
});

/**
 * Per connection and day, the sums the population view needs (lib/sync/daily.ts), so that a
 * clinic's view reads about 28 rows per patient instead of 8,000 readings. A day is the date of
 * the readings' displayTime (the patient's own calendar, as on the AGP). Rewritten from
 * synced_egvs for every day an EGV write touches, in the same transaction, so it never disagrees
 * with the rows. Counts are per consensus range (lib/metrics, sentinels as 39 and 401); `sum` and
 * `sumOfSquares` are of the metric values in mg/dL.
 */
export const syncedEgvDays = pgTable(
  "synced_egv_days",
  {
    connectionId: connectionId(),
    day: date("day", { mode: "string" }).notNull(),
    n: integer("n").notNull(),
    veryLow: integer("very_low").notNull(),
    low: integer("low").notNull(),
    inRange: integer("in_range").notNull(),
    high: integer("high").notNull(),
    veryHigh: integer("very_high").notNull(),
    /**
     * Readings below 63 and above 140 mg/dL: with `veryLow` (below 54) they give the pregnancy
     * group's bands (63–140 mg/dL), which the consensus ranges' edges cannot.
     */
    below63: integer("below_63").notNull().default(0),
    above140: integer("above_140").notNull().default(0),
    /** Readings from 70 to 140 mg/dL inclusive: time in tight range (migration 0016). */
    tightRange: integer("tight_range").notNull(),
    sum: doublePrecision("sum").notNull(),
    sumOfSquares: doublePrecision("sum_of_squares").notNull(),
    /** The day's newest reading: "days since last data", and the patient's clock (displayTime − systemTime). */
    lastSystemTime: timestamp("last_system_time", { withTimezone: true }).notNull(),
    lastDisplayTime: text("last_display_time").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.day] })],
);

/**
 * The service's own v2 statistics of a connection's last 14 days of data, fetched by the sync at
 * most every SYNC_STATISTICS_HOURS for patients of a clinic (lib/sync/statistics.ts): only the
 * service knows its hypoglycemia risk estimate, and the population view shows it per patient.
 */
export const syncedStatistics = pgTable("synced_statistics", {
  connectionId: text("connection_id")
    .primaryKey()
    .references(() => cgmConnections.id, { onDelete: "cascade" }),
  /** The window asked for (systemTime), ending at the newest EGV the service held. */
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  windowEnd: timestamp("window_end", { withTimezone: true }).notNull(),
  /** Null when the service gives none (not enough sensor use in the window, spec 2.6). */
  hypoglycemiaRisk: text("hypoglycemia_risk").$type<HypoglycemiaRisk>(),
  fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
});

/**
 * Per connection, the level 2 hypoglycaemia episodes (2023 consensus, as iglu counts them:
 * lib/metrics/episodes.ts) of the population view's current period, computed by the sync from the
 * synced EGVs (lib/sync/episodes-store.ts). Episodes run across midnight, so unlike the other
 * figures of the view they cannot be added up from synced_egv_days. The row names the period it
 * was counted over and the readings it saw; the view shows it only for the same days and the same
 * number of readings as its daily sums (lib/clinic/views/population-model.ts `weeklyEpisodes`).
 */
export const syncedEpisodes = pgTable("synced_episodes", {
  connectionId: text("connection_id")
    .primaryKey()
    .references(() => cgmConnections.id, { onDelete: "cascade" }),
  /** The period's first and last day (the patient's calendar, as synced_egv_days.day). */
  firstDay: date("first_day", { mode: "string" }).notNull(),
  lastDay: date("last_day", { mode: "string" }).notNull(),
  /** The readings of those days the count was made from. */
  nValues: integer("n_values").notNull(),
  /** Null where iglu stops (readings more than 45 minutes apart at the median): no count, not 0. */
  hypoLevel2Count: integer("hypo_level2_count"),
  /** Episodes per day of valid sensor time, iglu's rate (the summary API's `perDay`). */
  hypoLevel2PerDay: doublePrecision("hypo_level2_per_day"),
  /** iglu's denominator: minutes of valid (measured or interpolated) grid time. */
  validGridMinutes: doublePrecision("valid_grid_minutes"),
  computedAt: timestamp("computed_at", { withTimezone: true }).notNull(),
});
