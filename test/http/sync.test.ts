import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import {
  type CgmEvent,
  type EgvV2,
  type EventV2,
  formatDateTime,
  MS_PER_MINUTE,
  parseDateTime,
  windowOf,
} from "@/lib/cgm";
import { callsFor } from "@/lib/sync/plan";
import { clientUnderTest } from "../support/client-under-test";
import { authorize } from "../support/sandbox-client";
import { startSyncWorker, syncWorkerPass } from "../support/sync-worker-process";

/**
 * The background sync (lib/sync) in this process against the real sandbox over HTTP, with the
 * real database: PGlite in a temporary folder, or the PostgreSQL of TEST_DATABASE_URL (shared with
 * the server, so the claims' row locks run on PostgreSQL). Patients connect through the real
 * authorization flow, as at sign-in. Service calls are counted twice: by the pass itself and by a
 * spy on fetch, which sees every request that reaches the service's data endpoints.
 *
 * The sandbox's data is live. Its release-delay fault (the service acting as if it were N minutes
 * ago) stands in for time passing: synced with a 20-minute delay, the newest readings have no
 * smoothed value yet; with the delay removed, four readings are new and the earlier ones have
 * their smoothed values, as twenty minutes later.
 */

const base = inject("baseUrl");
/**
 * The API version the sync reads with (CGM_API_VERSION of the run): the stored records are
 * compared with the service's answers in that version, as the sync stored what it read.
 */
const version = inject("apiVersion");
let client: Awaited<ReturnType<typeof clientUnderTest>>;
let sync: typeof import("@/lib/sync/pass");
let service: typeof import("@/lib/service-client/client");
let database: import("@/lib/db").Db;
let schema: typeof import("@/lib/db").schema;
let orm: typeof import("drizzle-orm");

let dataCalls = 0;
const realFetch = globalThis.fetch;
/** While set, the service's data requests it matches are answered 400 (not retried) here. */
let refuse: ((url: URL) => boolean) | null = null;
/** While set, runs before each of the service's data requests goes out (as if it took that long). */
let beforeData: ((url: URL) => Promise<void>) | null = null;

beforeAll(async () => {
  client = await clientUnderTest(base);
  sync = await import("@/lib/sync/pass");
  service = await import("@/lib/service-client/client");
  orm = await import("drizzle-orm");
  const dbModule = await import("@/lib/db");
  database = await dbModule.db();
  schema = dbModule.schema;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.startsWith(`${base}/sandbox/${inject("apiVersion")}/users/self/`)) {
      dataCalls++;
      const hook = beforeData;
      if (hook) return hook(new URL(url)).then(() => realFetch(input, init));
    }
    if (refuse?.(new URL(url)))
      return Promise.resolve(
        Response.json(
          { error: "invalid_request", error_description: "refused by the test" },
          { status: 400 },
        ),
      );
    return realFetch(input, init);
  });
});

afterAll(async () => {
  vi.restoreAllMocks();
  await client?.setFaults({ releaseDelayMinutes: 0, failNext: 0 });
});

/** A pass over `ids`, with the service calls the spy saw during it. */
async function pass(ids: string[], concurrency = 1) {
  const before = dataCalls;
  const summary = await sync.runSyncPass({ connectionIds: ids, concurrency });
  return { summary, seen: dataCalls - before };
}

function only(summary: Awaited<ReturnType<typeof sync.runSyncPass>>) {
  expect(summary.outcomes).toHaveLength(1);
  return summary.outcomes[0] as (typeof summary.outcomes)[number];
}

async function state(id: string) {
  const [row] = await database
    .select()
    .from(schema.syncState)
    .where(orm.eq(schema.syncState.connectionId, id));
  if (!row) throw new Error("no sync state");
  return row;
}

const setState = (id: string, values: Partial<typeof schema.syncState.$inferInsert>) =>
  database.update(schema.syncState).set(values).where(orm.eq(schema.syncState.connectionId, id));

/** Gives `worker` the connection's lease, as a claim would: only the holder's writes are stored. */
async function leaseTo(id: string, worker: string) {
  const { ensureStates, LEASE_MS } = await import("@/lib/sync/store");
  await ensureStates(database, [id]);
  await setState(id, { lockedBy: worker, lockedUntil: new Date(Date.now() + LEASE_MS) });
}

/** The stored EGVs of a window, back in the service's v2 shape. */
async function storedEgvs(id: string, startMs: number, endMs: number): Promise<EgvV2[]> {
  const t = schema.syncedEgvs;
  const rows = await database
    .select()
    .from(t)
    .where(
      orm.and(
        orm.eq(t.connectionId, id),
        orm.gte(t.systemTime, new Date(startMs)),
        orm.lte(t.systemTime, new Date(endMs)),
      ),
    )
    .orderBy(t.systemTime);
  return rows.map((r) => ({
    systemTime: formatDateTime(r.systemTime.getTime()),
    displayTime: r.displayTime,
    value: r.value,
    realtimeValue: r.realtimeValue,
    smoothedValue: r.smoothedValue,
    status: r.status,
    trend: r.trend,
    trendRate: r.trendRate,
  }));
}

async function storedEvents(id: string) {
  const t = schema.syncedEvents;
  return database.select().from(t).where(orm.eq(t.connectionId, id)).orderBy(t.systemTime, t.eventId);
}

const asEvent = (r: Awaited<ReturnType<typeof storedEvents>>[number]): CgmEvent => ({
  systemTime: formatDateTime(r.systemTime.getTime()),
  displayTime: r.displayTime,
  eventType: r.eventType,
  eventSubType: r.eventSubType,
  value: r.value,
  unit: r.unit,
  eventId: r.eventId,
  eventStatus: r.eventStatus,
  // v3 events carry a note's text (null for the others); v2 events have no such field.
  ...(version === "v3" ? { text: r.text } : {}),
});

/** Smoothed values can still arrive for readings newer than this (the sandbox: 15 minutes). */
const settledBefore = () => Date.now() - 16 * MS_PER_MINUTE;
const settled = (egvs: EgvV2[]) => egvs.filter((e) => Date.parse(`${e.systemTime}Z`) < settledBefore());

describe("background sync of one patient (SandboxUser1)", () => {
  let id: string;

  it("backfills exactly the records the service returns for the window, once each", async () => {
    await client.setFaults({ releaseDelayMinutes: 20 });
    id = await client.connectPatient("SandboxUser1");
    const { summary, seen } = await pass([id]);
    const outcome = only(summary);
    expect(outcome.result).toBe("synced");
    if (outcome.result !== "synced") return;
    // SandboxUser1 wears a G7: no calibrations, so dataRange has none to fetch.
    expect(outcome.groups.map((g) => [g.group, g.backfill])).toEqual([
      ["egvs", true],
      ["events", true],
    ]);
    // 90 days in windows of at most 30: dataRange and three calls per group.
    expect(outcome.calls).toBe(7);
    expect(seen).toBe(outcome.calls);
    expect(summary).toMatchObject({ synced: 1, failed: 0, skipped: 0, calls: 7 });
    expect(outcome.records).toBeGreaterThan(20_000);

    const [egvs, events] = outcome.groups;
    if (!egvs || !events) throw new Error("groups");
    // v2: 90 days, both ends included; v3 windows exclude their end, so (end − 90 days, end]
    // (lib/sync/plan.ts), three windows of 30 days.
    expect(egvs.endMs - egvs.startMs).toBe(90 * 86_400_000 - (version === "v3" ? 1000 : 0));
    const fromService = (await service.getEgvs(id, version, windowOf(egvs.startMs, egvs.endMs))).egvs;
    const stored = await storedEgvs(id, egvs.startMs, egvs.endMs);
    expect(stored.length).toBeGreaterThan(20_000);
    expect(stored.map((e) => e.systemTime)).toEqual(fromService.map((e) => e.systemTime));
    expect(settled(stored)).toEqual(settled(fromService));
    // Nothing outside the window, and the newest readings still wait for their smoothed value.
    const [{ n }] = (await database
      .select({ n: orm.count() })
      .from(schema.syncedEgvs)
      .where(orm.eq(schema.syncedEgvs.connectionId, id))) as [{ n: number }];
    expect(n).toBe(fromService.length);

    const serviceEvents = (await service.getEvents(id, version, windowOf(events.startMs, events.endMs)))
      .events;
    const storedEv = (await storedEvents(id)).map(asEvent);
    expect(storedEv).toHaveLength(serviceEvents.length);
    const byId = (list: CgmEvent[]) => [...list].sort((a, b) => a.eventId.localeCompare(b.eventId));
    expect(byId(storedEv)).toEqual(byId(serviceEvents));
    expect(storedEv.some((e) => e.eventStatus === "deleted")).toBe(true);
    // v3 says which events the patient edited: stored as "updated", shown as the others.
    if (version === "v3") expect(storedEv.some((e) => e.eventStatus === "updated")).toBe(true);

    expect(
      await database
        .select()
        .from(schema.syncedCalibrations)
        .where(orm.eq(schema.syncedCalibrations.connectionId, id)),
    ).toEqual([]);

    const s = await state(id);
    expect(s).toMatchObject({ backfillDone: true, attempts: 0, lastError: null, lockedBy: null });
    expect(s.lastSuccessAt).toBeInstanceOf(Date);
    expect(s.egvsThrough?.getTime()).toBe(egvs.endMs);
  });

  it("a pass with nothing new makes only the dataRange call", async () => {
    // A reading may land between two passes; then the pass is repeated until one sees nothing new.
    for (let attempt = 0; attempt < 3; attempt++) {
      const before = JSON.stringify(await service.getDataRange(id));
      const { summary, seen } = await pass([id]);
      const after = JSON.stringify(await service.getDataRange(id));
      if (before !== after || only(summary).calls > 1) continue;
      expect(only(summary)).toMatchObject({ result: "synced", calls: 1, records: 0, groups: [] });
      expect(seen).toBe(1);
      return;
    }
    throw new Error("the data range kept moving");
  });

  it("new readings: EGVs are read from an hour before the newest synced one, and late smoothed values replace the old ones", async () => {
    const s = await state(id);
    const oldThrough = s.egvsThrough?.getTime() ?? 0;
    const overlapStart = oldThrough - 60 * MS_PER_MINUTE;
    const before = await storedEgvs(id, overlapStart, oldThrough);
    await client.setFaults({ releaseDelayMinutes: 0 });
    const range = await service.getDataRange(id);
    const { summary, seen } = await pass([id]);
    const outcome = only(summary);
    if (outcome.result !== "synced") throw new Error(`not synced: ${JSON.stringify(outcome)}`);
    const [egvs, ...others] = outcome.groups;
    expect(egvs).toMatchObject({ group: "egvs", startMs: overlapStart, backfill: false });
    expect(formatDateTime(egvs?.endMs ?? 0)).toBe(range.egvs?.end.systemTime);
    // Events and calibrations only when their own end moved; each window is one call.
    const moved = (["events", "calibrations"] as const).filter((g) => {
      const through = s[`${g}Through`];
      return (
        range[g] !== null && (!through || range[g]?.end.systemTime !== formatDateTime(through.getTime()))
      );
    });
    expect(others.map((g) => g.group)).toEqual(moved);
    expect(outcome.calls).toBe(1 + outcome.groups.length);
    expect(seen).toBe(outcome.calls);

    const end = egvs?.endMs ?? 0;
    const fromService = (await service.getEgvs(id, version, windowOf(overlapStart, end))).egvs;
    const after = await storedEgvs(id, overlapStart, end);
    expect(after.map((e) => e.systemTime)).toEqual(fromService.map((e) => e.systemTime));
    expect(settled(after)).toEqual(settled(fromService));
    expect(after.length).toBeGreaterThan(before.length);
    if (version === "v3") {
      // v3 has one value per reading, the smoothed one once the service has it (notes §3.1): the
      // overlap rewrote each reading with the service's value now (above), stored as realtime with
      // no smoothed value, as the app reads v3 (lib/service-client/reshape-v3.ts).
      for (const e of after) expect([e.realtimeValue, e.smoothedValue]).toEqual([e.value, null]);
      return;
    }
    const filledLate = after.filter(
      (e) =>
        e.smoothedValue !== null && before.find((b) => b.systemTime === e.systemTime)?.smoothedValue === null,
    );
    // G7 readings are smoothed 15 minutes late: those synced unsmoothed now have their value
    // (unless the sensor was warming up then, with no readings to smooth).
    if (before.some((b) => b.smoothedValue === null)) expect(filledLate.length).toBeGreaterThan(0);
    for (const e of filledLate) expect(e.value).toBe(e.smoothedValue);
  });

  it("applies a deletion to the event it had stored as created, in place", async () => {
    const stored = await storedEvents(id);
    // Not the newest event: the sync reads events again when the service's newest one is past
    // what it synced (another test may have deleted the newest for this app, lib/sandbox/deletions).
    const newestMs = parseDateTime((await service.getDataRange(id)).events?.end.systemTime ?? "") ?? 0;
    const deleted = stored
      .filter((e) => e.eventStatus === "deleted" && e.systemTime.getTime() + 1000 < newestMs)
      .at(-1);
    if (!deleted) throw new Error("SandboxUser1 has deleted events");
    // As if the last sync had seen the event before the patient deleted it.
    await database
      .update(schema.syncedEvents)
      .set({ eventStatus: "created" })
      .where(
        orm.and(
          orm.eq(schema.syncedEvents.connectionId, id),
          orm.eq(schema.syncedEvents.eventId, deleted.eventId),
        ),
      );
    await setState(id, { eventsThrough: new Date(deleted.systemTime.getTime() + 1000) });
    const outcome = only((await pass([id])).summary);
    expect(outcome.result).toBe("synced");
    const after = await storedEvents(id);
    expect(after).toHaveLength(stored.length);
    expect(after.find((e) => e.eventId === deleted.eventId)?.eventStatus).toBe("deleted");
    const range = await service.getDataRange(id);
    expect(formatDateTime((await state(id)).eventsThrough?.getTime() ?? 0)).toBe(
      range.events?.end.systemTime,
    );
  });

  it("a pass interrupted before it recorded its progress is repeated without duplicating or losing a record", async () => {
    const count = async () => {
      const [egv] = await database
        .select({ n: orm.count() })
        .from(schema.syncedEgvs)
        .where(orm.eq(schema.syncedEgvs.connectionId, id));
      const events = await storedEvents(id);
      return { egvs: egv?.n ?? 0, events: events.length };
    };
    const before = await count();
    // The rows are written but the marks say nothing was synced: the next pass backfills again.
    await setState(id, {
      egvsThrough: null,
      eventsThrough: null,
      calibrationsThrough: null,
      backfillDone: false,
    });
    const outcome = only((await pass([id])).summary);
    if (outcome.result !== "synced") throw new Error(JSON.stringify(outcome));
    expect(outcome.groups.every((g) => g.backfill)).toBe(true);
    const after = await count();
    const egvs = outcome.groups[0];
    const fromService = (await service.getEgvs(id, version, windowOf(egvs?.startMs ?? 0, egvs?.endMs ?? 0)))
      .egvs;
    // The 90-day window moved on by the new readings: the oldest ones stay, none is doubled.
    expect(after.egvs).toBeGreaterThanOrEqual(before.egvs);
    expect(after.egvs).toBe(fromService.length + (await storedEgvs(id, 0, (egvs?.startMs ?? 0) - 1)).length);
    expect(after.events).toBeGreaterThanOrEqual(before.events);
    expect((await state(id)).backfillDone).toBe(true);
  });

  it("a failed sync records its error and waits with backoff, then succeeds", async () => {
    // Four answers of 503: the client's retries of the dataRange call all fail.
    await client.setFaults({ failNext: 4, failStatus: 503, retryAfterSeconds: 0 });
    const failed = only((await pass([id])).summary);
    expect(failed).toMatchObject({ result: "failed", calls: 1 });
    const s = await state(id);
    expect(s.lastError).toMatch(/unavailable \(503\)/);
    expect(s.attempts).toBe(1);
    expect(s.lockedBy).toBeNull();
    const wait = (s.nextAttemptAt?.getTime() ?? 0) - (s.lastErrorAt?.getTime() ?? 0);
    expect(wait).toBeGreaterThanOrEqual(30_000);
    expect(wait).toBeLessThanOrEqual(60_000);

    const waiting = await pass([id]);
    expect(waiting.summary).toMatchObject({ synced: 0, failed: 0, skipped: 1, calls: 0 });
    expect(waiting.seen).toBe(0);

    await setState(id, { nextAttemptAt: new Date(Date.now() - 1000) });
    expect(only((await pass([id])).summary).result).toBe("synced");
    expect(await state(id)).toMatchObject({ attempts: 0, nextAttemptAt: null });
  });

  it("a backfill interrupted after some windows resumes after the last one stored, losing and repeating nothing", async () => {
    const other = await client.connectPatient("SandboxUser4");
    const cutMs = Date.now() - 45 * 86_400_000;
    // The third 30-day window of the EGV backfill (the newest) fails; the first two are stored.
    refuse = (u) =>
      u.pathname.endsWith("/egvs") && (parseDateTime(u.searchParams.get("startDate") ?? "") ?? 0) > cutMs;
    let failed: Awaited<ReturnType<typeof pass>>;
    try {
      failed = await pass([other]);
    } finally {
      refuse = null;
    }
    expect(only(failed.summary)).toMatchObject({ result: "failed" });
    const s = await state(other);
    expect(s.backfillDone).toBe(false);
    const fromMs = s.egvsFrom?.getTime() ?? 0;
    const throughMs = s.egvsThrough?.getTime() ?? 0;
    // Two windows of 30 days, the second ending one second before the third would start.
    expect(throughMs - fromMs).toBe(60 * 86_400_000 - 1000);
    const firstTwo = (await service.getEgvs(other, version, windowOf(fromMs, throughMs))).egvs;
    expect((await storedEgvs(other, 0, Date.now())).map((e) => e.systemTime)).toEqual(
      firstTwo.map((e) => e.systemTime),
    );

    await setState(other, { nextAttemptAt: new Date(Date.now() - 1000) });
    const resumed = only((await pass([other])).summary);
    expect(resumed.result).toBe("synced");
    if (resumed.result !== "synced") return;
    const egvs = resumed.groups.find((g) => g.group === "egvs");
    // From the last window stored, less the overlap: not the whole 90 days again.
    expect(egvs).toMatchObject({
      backfill: false,
      startMs: throughMs - sync.syncSettings().overlapMinutes * MS_PER_MINUTE,
    });
    const after = await state(other);
    // The error stays on record, older than the success that followed it.
    expect(after).toMatchObject({ backfillDone: true, attempts: 0, nextAttemptAt: null });
    expect(after.lastSuccessAt?.getTime()).toBeGreaterThan(after.lastErrorAt?.getTime() ?? Number.NaN);
    expect(after.egvsFrom?.getTime()).toBe(fromMs);
    const all = (await service.getEgvs(other, version, windowOf(fromMs, egvs?.endMs ?? 0))).egvs;
    expect((await storedEgvs(other, 0, Date.now())).map((e) => e.systemTime)).toEqual(
      all.map((e) => e.systemTime),
    );
  });

  it("a scheduled pass leaves a connection another pass synced within its freshness, and takes it after", async () => {
    expect(only((await pass([id])).summary).result).toBe("synced");
    const fresh = await sync.runSyncPass({ connectionIds: [id], concurrency: 1, freshForMs: 60_000 });
    expect(fresh).toMatchObject({ synced: 0, failed: 0, skipped: 1, calls: 0 });
    // 61 seconds later, as far as the pass can tell: due again.
    await setState(id, { lastSuccessAt: new Date(Date.now() - 61_000) });
    const due = await sync.runSyncPass({ connectionIds: [id], concurrency: 1, freshForMs: 60_000 });
    expect(only(due).result).toBe("synced");
  });
});

describe("connections the service no longer accepts", () => {
  it("records the error, skips the connection until it is reconnected, then syncs it", async () => {
    const id = await client.connectPatient("SandboxUser2");
    await client.revokeAs("SandboxUser2");
    const refused = only((await pass([id])).summary);
    expect(refused).toMatchObject({ result: "reconnect_required" });
    const s = await state(id);
    expect(s.lastError).toMatch(/reconnect_required/);
    expect(s.lockedBy).toBeNull();
    expect((await client.tokens.getConnection(id))?.status).toBe("needs_reconnect");

    const skipped = await pass([id]);
    expect(skipped.summary).toMatchObject({ synced: 0, failed: 0, skipped: 1, calls: 0 });
    expect(skipped.seen).toBe(0);

    const start = await client.oauth.startAuthorization();
    const back = await authorize(base, client.app, {
      username: "SandboxUser2",
      state: start.state,
      codeChallenge: new URL(start.url).searchParams.get("code_challenge") ?? undefined,
    });
    await client.tokens.replaceTokens(
      id,
      await client.oauth.exchangeAuthorizationCode(back, start.state, start.codeVerifier),
    );
    expect(only((await pass([id])).summary).result).toBe("synced");
    expect(await state(id)).toMatchObject({ attempts: 0, reconnectTokenVersion: null, backfillDone: true });
  });
});

describe("a connection removed", () => {
  const countsOf = async (id: string) => {
    const n = async (
      t: typeof schema.syncedEgvs | typeof schema.syncedEvents | typeof schema.syncedEgvDays,
    ) => (await database.select({ n: orm.count() }).from(t).where(orm.eq(t.connectionId, id)))[0]?.n;
    return {
      egvs: await n(schema.syncedEgvs),
      events: await n(schema.syncedEvents),
      days: await n(schema.syncedEgvDays),
    };
  };

  it("takes its synced records with it, and a write for it afterwards stores nothing", async () => {
    const id = await client.connectPatient("SandboxUser2");
    const synced = only(
      await sync.runSyncPass({ connectionIds: [id], settings: { backfillDays: 2 }, rateLimit: null }),
    );
    expect(synced.result).toBe("synced");
    const before = await countsOf(id);
    expect(before.egvs).toBeGreaterThan(500);
    expect(before.days).toBeGreaterThan(1);
    const rows = (await storedEgvs(id, 0, Date.now())).slice(0, 10);

    await client.tokens.deleteConnection(id);
    expect(await countsOf(id)).toEqual({ egvs: 0, events: 0, days: 0 });

    const { storeGroup, ConnectionRemoved } = await import("@/lib/sync/store");
    const { egvRows } = await import("@/lib/sync/rows");
    const write = storeGroup(
      database,
      id,
      "test",
      { group: "egvs", rows: egvRows(id, { unit: "mg/dL", rateUnit: "mg/dL/min", egvs: rows }) },
      Date.now(),
    );
    await expect(write).rejects.toBeInstanceOf(ConnectionRemoved);
    expect(await countsOf(id)).toEqual({ egvs: 0, events: 0, days: 0 });
  });

  it("stores text exactly as received, whatever characters it holds", async () => {
    const id = await client.connectPatient("SandboxUser4");
    const { storeGroup } = await import("@/lib/sync/store");
    const { eventRows } = await import("@/lib/sync/rows");
    const awkward = ['quote " and backslash \\', "comma, {braces} and spaces", "NULL", " ", "ünï 😀\n"];
    const events: EventV2[] = awkward.map((eventId, i) => ({
      systemTime: formatDateTime(Date.UTC(2026, 0, 1, 0, i)),
      displayTime: formatDateTime(Date.UTC(2026, 0, 1, 1, i)),
      eventType: i % 2 ? "exercise" : "health",
      eventSubType: i % 2 ? null : "illness",
      value: i % 2 ? 1.25 : null,
      unit: i % 2 ? "minutes" : null,
      eventId,
      eventStatus: "created",
    }));
    await leaseTo(id, "test");
    await storeGroup(database, id, "test", { group: "events", rows: eventRows(id, events) }, Date.now());
    const byId = (list: CgmEvent[]) => [...list].sort((a, b) => a.eventId.localeCompare(b.eventId));
    // Read as v3 events in v3 mode: with a text, null for these.
    const expected = version === "v3" ? events.map((e) => ({ ...e, text: null })) : events;
    expect(byId((await storedEvents(id)).map(asEvent))).toEqual(byId(expected));
    await client.tokens.deleteConnection(id);
  });

  it("stores a write of new rows and rows already stored each once, at its instant to the millisecond, the stored ones overwritten", async () => {
    const id = await client.connectPatient("SandboxUser4");
    const { storeGroup, STORED_KEYS_MAX, SPLIT_FROM_ROWS } = await import("@/lib/sync/store");
    const { egvRows } = await import("@/lib/sync/rows");
    // Readings 5 minutes and 1,001 ms apart, so no instant falls on a whole second.
    const rows = (from: number, to: number, value: number) =>
      egvRows(id, {
        unit: "mg/dL",
        rateUnit: "mg/dL/min",
        egvs: Array.from({ length: to - from }, (_, k) => {
          const ms = Date.UTC(2026, 0, 1, 23, 30) + (from + k) * (5 * MS_PER_MINUTE + 1_001);
          return {
            systemTime: formatDateTime(ms),
            displayTime: formatDateTime(ms + 3_600_000),
            value: value + k,
            realtimeValue: value + k,
            smoothedValue: null,
            status: null,
            trend: "flat" as const,
            trendRate: 0.5,
          };
        }),
      }).map((r, k) => ({ ...r, systemTime: new Date(r.systemTime.getTime() + ((from + k) % 7) * 111) }));
    await leaseTo(id, "test");
    // Writes large enough to be split into new and stored rows (smaller ones are all upserted).
    const n = SPLIT_FROM_ROWS;
    await storeGroup(database, id, "test", { group: "egvs", rows: rows(0, n, 100) }, Date.now());
    // Half of these are stored already and come with new values; the other half are new.
    const second = rows(n / 2, n + n / 2, 200);
    await storeGroup(database, id, "test", { group: "egvs", rows: second }, Date.now());
    const t = schema.syncedEgvs;
    const stored = await database
      .select({ systemTime: t.systemTime, value: t.value })
      .from(t)
      .where(orm.eq(t.connectionId, id))
      .orderBy(t.systemTime);
    const expected = [...rows(0, n / 2, 100), ...second];
    expect(stored.map((r) => [r.systemTime.getTime(), r.value])).toEqual(
      expected.map((r) => [r.systemTime.getTime(), r.value]),
    );
    const [days] = await database
      .select({ n: orm.sql<number>`sum(${schema.syncedEgvDays.n})::int` })
      .from(schema.syncedEgvDays)
      .where(orm.eq(schema.syncedEgvDays.connectionId, id));
    expect(days?.n).toBe(n + n / 2);

    // A write over more stored rows than are read back (STORED_KEYS_MAX) upserts them all.
    const many = STORED_KEYS_MAX + 100;
    await storeGroup(database, id, "test", { group: "egvs", rows: rows(0, many, 300) }, Date.now());
    const last = rows(0, many, 400);
    await storeGroup(database, id, "test", { group: "egvs", rows: last }, Date.now());
    const all = await database
      .select({ systemTime: t.systemTime, value: t.value })
      .from(t)
      .where(orm.eq(t.connectionId, id))
      .orderBy(t.systemTime);
    expect(all.map((r) => [r.systemTime.getTime(), r.value])).toEqual(
      last.map((r) => [r.systemTime.getTime(), r.value]),
    );
    await client.tokens.deleteConnection(id);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    "on PostgreSQL, a removal waits for a write in progress and then removes what it wrote",
    async () => {
      const id = await client.connectPatient("SandboxUser1");
      const { Client } = await import("pg");
      const writer = new Client({ connectionString: process.env.TEST_DATABASE_URL });
      await writer.connect();
      try {
        // What storeGroup does first, then one EGV, in a transaction left open.
        await writer.query("begin");
        await writer.query("select id from cgm_connections where id = $1 for key share", [id]);
        await writer.query(
          `insert into synced_egvs (connection_id, system_time, display_time, value, realtime_value, unit,
            rate_unit, metric_mgdl, consensus_range) values ($1, now(), '2026-01-01T00:00:00', 100, 100,
            'mg/dL', 'mg/dL/min', 100, 'inRange')`,
          [id],
        );
        let removed = false;
        const removal = client.tokens.deleteConnection(id).then(() => {
          removed = true;
        });
        await new Promise((r) => setTimeout(r, 300));
        expect(removed).toBe(false);
        await writer.query("commit");
        await removal;
        expect(await countsOf(id)).toEqual({ egvs: 0, events: 0, days: 0 });
      } finally {
        await writer.end();
      }
    },
  );
});

describe("a lease another worker took over", () => {
  const eventsOf = (id: string, minutes: number[]) =>
    minutes.map(
      (m): EventV2 => ({
        systemTime: formatDateTime(Date.UTC(2026, 0, 2, 0, m)),
        displayTime: formatDateTime(Date.UTC(2026, 0, 2, 1, m)),
        eventType: "exercise",
        eventSubType: null,
        value: 30,
        unit: "minutes",
        eventId: `${id}-${m}`,
        eventStatus: "created",
      }),
    );

  it("refuses the old holder's write with LeaseLost and stores nothing of it; an expired lease still its own is renewed", async () => {
    const id = await client.connectPatient("SandboxUser6");
    const store = await import("@/lib/sync/store");
    const { eventRows } = await import("@/lib/sync/rows");
    await store.ensureStates(database, [id]);
    const [claim] = await store.claimDue(database, "worker-a", await store.databaseNow(database), 1, [id]);
    expect(claim?.state.lockedBy).toBe("worker-a");
    const write = (minutes: number[], throughMs: number) =>
      store.storeGroup(
        database,
        id,
        "worker-a",
        { group: "events", rows: eventRows(id, eventsOf(id, minutes)) },
        throughMs,
      );

    // Past its time but nobody took it: still worker-a's, and the write renews it.
    await setState(id, { lockedUntil: new Date(Date.now() - 60_000) });
    const firstThrough = Date.UTC(2026, 0, 2, 0, 10);
    await write([1, 2], firstThrough);
    const renewed = await state(id);
    expect(renewed.lockedBy).toBe("worker-a");
    expect(renewed.lockedUntil?.getTime()).toBeGreaterThan(Date.now() + store.LEASE_MS / 2);

    // Worker B claims it meanwhile (as claimDue would once the lease ran out).
    const takenUntil = new Date(Date.now() + store.LEASE_MS);
    await setState(id, { lockedBy: "worker-b", lockedUntil: takenUntil });
    await expect(write([3, 4], Date.UTC(2026, 0, 3))).rejects.toBeInstanceOf(store.LeaseLost);
    expect((await storedEvents(id)).map((e) => e.eventId).sort()).toEqual([`${id}-1`, `${id}-2`]);
    const after = await state(id);
    expect(after).toMatchObject({ lockedBy: "worker-b", lastError: null, attempts: 0 });
    expect(after.lockedUntil?.getTime()).toBe(takenUntil.getTime());
    expect(after.eventsThrough?.getTime()).toBe(firstThrough);

    // Released by B (its sync ended): still not A's to write.
    await setState(id, { lockedBy: null, lockedUntil: null });
    await expect(write([5], Date.UTC(2026, 0, 3))).rejects.toBeInstanceOf(store.LeaseLost);
    expect(await storedEvents(id)).toHaveLength(2);
    await client.tokens.deleteConnection(id);
  });

  it("makes the pass count a failure, not a sync, and leaves the new holder's state alone", async () => {
    const id = await client.connectPatient("SandboxUser1");
    const { LEASE_MS } = await import("@/lib/sync/store");
    const takenUntil = new Date(Date.now() + LEASE_MS);
    // The EGV fetch outlasts the lease: worker B takes the connection while it is under way.
    beforeData = async (url) => {
      if (!url.pathname.endsWith("/egvs")) return;
      beforeData = null;
      await setState(id, { lockedBy: "worker-b", lockedUntil: takenUntil });
    };
    let summary: Awaited<ReturnType<typeof sync.runSyncPass>>;
    try {
      summary = await sync.runSyncPass({
        connectionIds: [id],
        concurrency: 1,
        settings: { backfillDays: 2 },
        rateLimit: null,
      });
    } finally {
      beforeData = null;
    }
    expect(summary).toMatchObject({ synced: 0, failed: 1, records: 0 });
    expect(only(summary)).toMatchObject({ result: "failed", error: expect.stringMatching(/^LeaseLost: /) });
    expect(await storedEgvs(id, 0, Date.now())).toEqual([]);
    const s = await state(id);
    expect(s).toMatchObject({
      lockedBy: "worker-b",
      egvsThrough: null,
      lastSuccessAt: null,
      lastError: null,
      attempts: 0,
      nextAttemptAt: null,
    });
    expect(s.lockedUntil?.getTime()).toBe(takenUntil.getTime());
    await client.tokens.deleteConnection(id);
  });
});

describe("a lease whose holder is gone", () => {
  /** Registers `worker` as a pass of process `pid` (on this machine unless `host`), leasing `id` to it. */
  async function leaseToWorker(
    id: string,
    worker: string,
    where: { pid: number; host?: string; heartbeatAgoMs?: number },
  ) {
    const workers = await import("@/lib/sync/workers");
    await database.insert(schema.syncWorkers).values({
      id: worker,
      host: where.host ?? workers.thisHost(),
      pid: where.pid,
      processStart: workers.processStart(where.pid),
      heartbeatAt: new Date(Date.now() - (where.heartbeatAgoMs ?? 0)),
    });
    await leaseTo(id, worker);
  }

  it("is taken at once when the holder's process was killed, and left while it runs", async () => {
    const { spawn } = await import("node:child_process");
    const id = await client.connectPatient("SandboxUser6");
    const holder = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    const exited = new Promise((r) => holder.once("exit", r));
    try {
      await leaseToWorker(id, "worker-about-to-die", { pid: holder.pid ?? 0 });
      const { summary: running } = await pass([id]);
      expect(running).toMatchObject({ synced: 0, skipped: 1 });
      expect((await state(id)).lockedBy).toBe("worker-about-to-die");
    } finally {
      holder.kill("SIGKILL");
      await exited;
    }
    // The lease still has ten minutes to run; its holder is gone, so the next pass takes it.
    expect((await state(id)).lockedUntil?.getTime()).toBeGreaterThan(Date.now() + 60_000);
    const { summary } = await pass([id]);
    expect(only(summary).result).toBe("synced");
    expect((await state(id)).lockedBy).toBeNull();
    await client.tokens.deleteConnection(id);
  });

  it("is taken when a holder on another machine has been silent past the grace, and left while it beats", async () => {
    const { HEARTBEAT_GRACE_MS } = await import("@/lib/sync/workers");
    const id = await client.connectPatient("SandboxUser6");
    await leaseToWorker(id, "worker-elsewhere", { pid: process.pid, host: "another-machine" });
    expect((await pass([id])).summary).toMatchObject({ synced: 0, skipped: 1 });
    await database
      .update(schema.syncWorkers)
      .set({ heartbeatAt: new Date(Date.now() - HEARTBEAT_GRACE_MS - 5_000) })
      .where(orm.eq(schema.syncWorkers.id, "worker-elsewhere"));
    expect(only((await pass([id])).summary).result).toBe("synced");
    // Its row is gone with it.
    expect(
      await database
        .select()
        .from(schema.syncWorkers)
        .where(orm.eq(schema.syncWorkers.id, "worker-elsewhere")),
    ).toEqual([]);
    await client.tokens.deleteConnection(id);
  });

  it("Sync now answers 'busy' only while a running holder has the lease, and otherwise why it did not sync", async () => {
    const { HEARTBEAT_GRACE_MS } = await import("@/lib/sync/workers");
    const id = await client.connectPatient("SandboxUser6");
    await leaseToWorker(id, "worker-running", { pid: process.pid, host: "another-machine" });
    expect(await sync.syncNow(id, {})).toBe("busy");
    await database
      .update(schema.syncWorkers)
      .set({ heartbeatAt: new Date(Date.now() - HEARTBEAT_GRACE_MS - 5_000) })
      .where(orm.eq(schema.syncWorkers.id, "worker-running"));
    expect(await sync.syncNow(id, {})).toBe("synced");
    // A failure's backoff: no sync runs, and Sync now says the last one failed.
    await setState(id, { nextAttemptAt: new Date(Date.now() + 3_600_000), lastError: "test", attempts: 1 });
    expect(await sync.syncNow(id, {})).toBe("failed");
    await client.tokens.deleteConnection(id);
  });

  it("is never this process's own running pass, even when its heartbeat came late", async () => {
    const workers = await import("@/lib/sync/workers");
    const id = await client.connectPatient("SandboxUser6");
    // A pass of this process whose heartbeat is past the grace (its event loop was blocked, the
    // one PGlite connection busy): it still runs, so its connection must not get a second sync.
    await workers.startWorker(database, "own-pass-late");
    try {
      await leaseTo(id, "own-pass-late");
      await database
        .update(schema.syncWorkers)
        .set({ heartbeatAt: new Date(Date.now() - workers.HEARTBEAT_GRACE_MS - 5_000) })
        .where(orm.eq(schema.syncWorkers.id, "own-pass-late"));
      const { summary } = await pass([id]);
      expect(summary).toMatchObject({ synced: 0, skipped: 1 });
      expect((await state(id)).lockedBy).toBe("own-pass-late");
      const [row] = await database
        .select()
        .from(schema.syncWorkers)
        .where(orm.eq(schema.syncWorkers.id, "own-pass-late"));
      expect(row?.heartbeatAt.getTime()).toBeGreaterThan(Date.now() - workers.HEARTBEAT_GRACE_MS);
    } finally {
      await workers.endWorker(database, "own-pass-late");
    }
    await client.tokens.deleteConnection(id);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    "a sync worker killed mid-sync (SIGKILL): the next pass takes its connection at once (PostgreSQL)",
    async () => {
      const id = await client.connectPatient("SandboxUser2");
      // Each service call takes 5 s, so the worker is still in its sync when it is killed.
      await client.setFaults({ latencyMs: 5_000 });
      const worker = startSyncWorker(Date.now(), [id], { DATABASE_URL: process.env.TEST_DATABASE_URL });
      const exited = new Promise((r) => worker.once("exit", r));
      try {
        const deadline = Date.now() + 30_000;
        while (!(await state(id).catch(() => null))?.lockedBy) {
          if (Date.now() > deadline) throw new Error("the worker did not lease the connection in 30 s");
          await new Promise((r) => setTimeout(r, 100));
        }
      } finally {
        worker.kill("SIGKILL");
        await exited;
        await client.setFaults({ latencyMs: 0 });
      }
      const held = await state(id);
      expect(held.lockedBy).toMatch(/:\d+:/);
      expect(held.lockedUntil?.getTime()).toBeGreaterThan(Date.now() + 60_000);
      const { summary } = await pass([id]);
      expect(only(summary).result).toBe("synced");
      expect((await state(id)).lockedBy).toBeNull();
      await client.tokens.deleteConnection(id);
    },
    60_000,
  );
});

describe("two passes at once", () => {
  it("share the connections: each is synced by exactly one of them", async () => {
    const ids: string[] = [];
    for (const user of ["SandboxUser3", "SandboxUser4", "SandboxUser5", "SandboxUser6"])
      ids.push(await client.connectPatient(user));
    const before = dataCalls;
    const [a, b] = await Promise.all([
      sync.runSyncPass({ connectionIds: ids, concurrency: 2 }),
      sync.runSyncPass({ connectionIds: ids, concurrency: 2 }),
    ]);
    const outcomes = [...a.outcomes, ...b.outcomes];
    expect(outcomes.map((o) => o.connectionId).sort()).toEqual([...ids].sort());
    expect(outcomes.every((o) => o.result === "synced")).toBe(true);
    expect(a.synced + b.synced).toBe(4);
    // Each connection's calls are one backfill's: dataRange and the windows of its groups.
    for (const o of outcomes) {
      if (o.result !== "synced") continue;
      expect(o.calls).toBe(1 + o.groups.reduce((n, g) => n + callsFor(g, 30, version), 0));
    }
    expect(dataCalls - before).toBe(a.calls + b.calls);
    // SandboxUser6 has no data: one dataRange call, nothing to fetch.
    const empty = outcomes.find((o) => o.connectionId === ids[3]);
    expect(empty).toMatchObject({ result: "synced", calls: 1, records: 0 });
    for (const id of ids) expect((await state(id)).lockedBy).toBeNull();

    // SandboxUser3 (G5, mmol/L): calibrations, and mmol/L values kept as the same numbers.
    const user3 = outcomes.find((o) => o.connectionId === ids[0]);
    if (user3?.result !== "synced") throw new Error("SandboxUser3 not synced");
    const cal = user3.groups.find((g) => g.group === "calibrations");
    if (!cal) throw new Error("SandboxUser3 has calibrations");
    const serviceCals = (
      await service.getCalibrations(ids[0] ?? "", version, windowOf(cal.startMs, cal.endMs))
    ).calibrations;
    const storedCals = await database
      .select()
      .from(schema.syncedCalibrations)
      .where(orm.eq(schema.syncedCalibrations.connectionId, ids[0] ?? ""))
      .orderBy(schema.syncedCalibrations.systemTime);
    expect(serviceCals.length).toBeGreaterThan(100);
    expect(
      storedCals.map((c) => ({
        systemTime: formatDateTime(c.systemTime.getTime()),
        displayTime: c.displayTime,
        value: c.value,
        unit: c.unit,
      })),
    ).toEqual(serviceCals);
    const egvs = user3.groups.find((g) => g.group === "egvs");
    if (!egvs) throw new Error("SandboxUser3 has EGVs");
    const lastDay = windowOf(egvs.endMs - 86_400_000, egvs.endMs);
    const response = await service.getEgvs(ids[0] ?? "", version, lastDay);
    // v3 sends mg/dL only, whatever the account's unit (notes §3.1).
    const units =
      version === "v3"
        ? { unit: "mg/dL", rateUnit: "mg/dL/min" }
        : { unit: "mmol/L", rateUnit: "mmol/L/min" };
    expect(response.unit).toBe(units.unit);
    expect(await storedEgvs(ids[0] ?? "", egvs.endMs - 86_400_000, egvs.endMs)).toEqual(response.egvs);
    const stored = await database
      .selectDistinct({ unit: schema.syncedEgvs.unit, rateUnit: schema.syncedEgvs.rateUnit })
      .from(schema.syncedEgvs)
      .where(orm.eq(schema.syncedEgvs.connectionId, ids[0] ?? ""));
    expect(stored).toEqual([units]);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("passes in several processes (PostgreSQL)", () => {
  it("three processes starting together sync each connection exactly once", async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 6; i++) ids.push(await client.connectPatient(`SandboxUser${i}`));
    const startAt = Date.now() + 10_000;
    const run = () => syncWorkerPass(startAt, ids, { DATABASE_URL: process.env.TEST_DATABASE_URL });
    const here = async () => {
      await new Promise((r) => setTimeout(r, startAt - Date.now()));
      return (await sync.runSyncPass({ connectionIds: ids, concurrency: 2, freshForMs: 60_000 })).outcomes;
    };
    const results = await Promise.all([run(), run(), here()]);
    const outcomes = results.flat();
    expect(outcomes.map((o) => o.connectionId).sort()).toEqual([...ids].sort());
    expect(outcomes.every((o) => o.result === "synced")).toBe(true);
    // The work was shared, not done by whichever process came first.
    expect(results.filter((r) => r.length > 0).length).toBeGreaterThan(1);
  }, 90_000);
});

describe("Sync now and the pass's leases", () => {
  it("a connection a running pass has not started on is not leased: Sync now syncs it instead of answering 'busy'", async () => {
    const { currentCallContext } = await import("@/lib/service-client/call-gate");
    const ids: string[] = [];
    for (const user of ["SandboxUser6", "SandboxUser1", "SandboxUser2", "SandboxUser3"])
      ids.push(await client.connectPatient(user));
    const [empty, first, second, last] = ids as [string, string, string, string];
    // The pass takes them in this order (the longest since its last attempt first).
    await (await import("@/lib/sync/store")).ensureStates(database, ids);
    for (const [i, id] of ids.entries())
      await setState(id, { lastAttemptAt: new Date(Date.UTC(2001, 0, 1 + i)) });
    // The pass's reads of data (not its dataRange calls) wait until released; Sync now's (a
    // request's calls: they carry its signal) go through.
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    beforeData = (url) =>
      url.pathname.endsWith("/dataRange") || currentCallContext().signal ? Promise.resolve() : held;
    try {
      const running = sync.runSyncPass({ connectionIds: ids, concurrency: 2 });
      // The empty patient is done at once (one dataRange call); its worker then starts on the
      // third while the second still waits: the fourth is waiting for a worker to come free.
      const deadline = Date.now() + 20_000;
      while ((await state(second)).lockedBy === null) {
        if (Date.now() > deadline) throw new Error("the pass did not start on the third connection");
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await state(first)).lockedBy).not.toBeNull();
      // Before, the pass had leased it with the third (a batch as large as it runs at once), and
      // Sync now answered that a sync of it was running while none was.
      expect(await sync.syncNow(last, { signal: new AbortController().signal })).toBe("synced");
      release();
      const summary = await running;
      expect(summary.outcomes.map((o) => [o.connectionId, o.result]).sort()).toEqual(
        [
          [empty, "synced"],
          [first, "synced"],
          [second, "synced"],
        ].sort(),
      );
    } finally {
      release();
      beforeData = null;
    }
    for (const id of ids) await client.tokens.deleteConnection(id);
  }, 60_000);

  it("Sync now within 30 s of a successful sync answers 'synced' without calling the service again", async () => {
    const id = await client.connectPatient("SandboxUser2");
    expect(await sync.syncNow(id, {})).toBe("synced");
    const before = dataCalls;
    expect(await sync.syncNow(id, {})).toBe("synced");
    expect(dataCalls).toBe(before);
    // Older than that, it syncs again.
    await setState(id, { lastSuccessAt: new Date(Date.now() - sync.SYNC_NOW_FRESH_MS - 1_000) });
    expect(await sync.syncNow(id, {})).toBe("synced");
    expect(dataCalls).toBeGreaterThan(before);
    await client.tokens.deleteConnection(id);
  });

  it("a request's sync waits a bounded time for the shared rate limit: past it, RateLimitBusy, the lease released and nothing recorded as a failure", async () => {
    const { RateLimitBusy } = await import("@/lib/sync/rate-limit");
    const id = await client.connectPatient("SandboxUser1");
    // 2 calls per 2 s: the first at once, the next 1.5 s later, longer than the 100 ms allowed.
    const refused = await sync
      .runSyncPass({
        connectionIds: [id],
        concurrency: 1,
        request: {},
        rateLimit: { calls: 2, periodMs: 2_000 },
        maxRateWaitMs: 100,
      })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(RateLimitBusy);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.message).toContain("try again in");
    expect(await state(id)).toMatchObject({
      lockedBy: null,
      lastError: null,
      attempts: 0,
      nextAttemptAt: null,
    });
    await client.tokens.deleteConnection(id);
  });
});
