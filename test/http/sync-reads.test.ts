import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { type EventV2, formatDateTime, MS_PER_DAY, MS_PER_MINUTE, windowOf } from "@/lib/cgm";
import { reportPeriodSchema } from "@/lib/reports/period/period";
import { clientUnderTest } from "../support/client-under-test";
import { signIn } from "../support/dashboard-client";

/**
 * Reads from the synced copy (lib/sync/source.ts) against reads from the service, with the
 * background sync in this process against the real sandbox over HTTP (as in sync.test.ts):
 * patients connect through the real authorization flow, a pass syncs them, and the summary the
 * reports API answers (lib/reports/summary/summary.ts, behind GET /api/reports/summary) must be the same
 * JSON from the copy, from the service, and from the running server's API (which has no sync, so
 * it always asks the service). A spy on fetch counts the requests that reach the service's data
 * endpoints: none when the copy answers. Then the events re-read that applies a deletion made at
 * the service after the event was synced.
 */

const base = inject("baseUrl");
let client: Awaited<ReturnType<typeof clientUnderTest>>;
let sync: typeof import("@/lib/sync/pass");
let source: typeof import("@/lib/sync/source");
let summaries: typeof import("@/lib/reports/summary/summary");
let service: typeof import("@/lib/service-client/client");
let database: import("@/lib/db").Db;
let schema: typeof import("@/lib/db").schema;
let orm: typeof import("drizzle-orm");

let dataCalls = 0;
const realFetch = globalThis.fetch;

beforeAll(async () => {
  client = await clientUnderTest(base);
  sync = await import("@/lib/sync/pass");
  source = await import("@/lib/sync/source");
  summaries = await import("@/lib/reports/summary/summary");
  service = await import("@/lib/service-client/client");
  orm = await import("drizzle-orm");
  const dbModule = await import("@/lib/db");
  database = await dbModule.db();
  schema = dbModule.schema;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (/\/sandbox\/v\d\/users\/self\//.test(url)) dataCalls++;
    return realFetch(input, init);
  });
});

afterAll(() => {
  vi.restoreAllMocks();
});

async function passOver(id: string) {
  const before = dataCalls;
  const summary = await sync.runSyncPass({ connectionIds: [id], concurrency: 1 });
  const [outcome] = summary.outcomes;
  if (outcome?.result !== "synced") throw new Error(`not synced: ${JSON.stringify(outcome)}`);
  return { outcome, seen: dataCalls - before };
}

const setState = (id: string, values: Partial<typeof schema.syncState.$inferInsert>) =>
  database.update(schema.syncState).set(values).where(orm.eq(schema.syncState.connectionId, id));

async function state(id: string) {
  const [row] = await database
    .select()
    .from(schema.syncState)
    .where(orm.eq(schema.syncState.connectionId, id));
  if (!row) throw new Error("no sync state");
  return row;
}

/** The period exactly as GET /api/reports/summary parses it. */
const periodOf = (startMs: number, endMs: number) =>
  reportPeriodSchema.parse({ startDate: formatDateTime(startMs), endDate: formatDateTime(endMs) });

/** The summary as JSON (what the API sends), with the service data calls it made. */
async function summaryJson(id: string, startMs: number, endMs: number) {
  const before = dataCalls;
  const body = JSON.parse(
    JSON.stringify(await summaries.loadSummary(id, periodOf(startMs, endMs), "standard")),
  );
  return { body, calls: dataCalls - before };
}

async function apiSummary(cookie: string, startMs: number, endMs: number) {
  const q = new URLSearchParams({ startDate: formatDateTime(startMs), endDate: formatDateTime(endMs) });
  const res = await realFetch(`${base}/api/reports/summary?${q}`, { headers: { Cookie: cookie } });
  expect(res.status).toBe(200);
  return res.json();
}

/** The copy's answer is stale for the rule (three intervals old): the service answers. */
const makeStale = (id: string) => setState(id, { lastSuccessAt: new Date(Date.now() - 15 * MS_PER_MINUTE) });

/**
 * The same window's summary from the copy (no data call), from the service through the same code,
 * and from the server's API. The newest readings get their smoothed value 15 minutes late, so one
 * may get it between the sync and the service's answer: then all is synced and compared again.
 */
async function expectSameSummary(id: string, cookie: string, startMs: number, endMs: number) {
  let last: unknown[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    await passOver(id);
    expect((await source.sourceFor(id, ["egvs"], periodOf(startMs, endMs))).answers).toBe(true);
    const synced = await summaryJson(id, startMs, endMs);
    expect(synced.calls, "the copy answered without calling the service").toBe(0);
    const api = await apiSummary(cookie, startMs, endMs);
    await makeStale(id);
    const fromService = await summaryJson(id, startMs, endMs);
    expect(fromService.calls, "the stale copy made the service answer").toBeGreaterThan(0);
    last = [synced.body, fromService.body, api];
    if (
      JSON.stringify(synced.body) === JSON.stringify(fromService.body) &&
      JSON.stringify(api) === JSON.stringify(fromService.body)
    )
      return synced.body;
  }
  expect(last[0]).toEqual(last[1]);
  expect(last[2]).toEqual(last[1]);
  return last[0];
}

describe("the summary from the synced copy and from the service", () => {
  const patients: Record<string, { id: string; cookie: string; endMs: number }> = {};

  beforeAll(async () => {
    for (const user of ["SandboxUser1", "SandboxUser3"]) {
      const id = await client.connectPatient(user);
      const { cookie } = await signIn(base, user);
      const { outcome } = await passOver(id);
      const egvs = outcome.groups.find((g) => g.group === "egvs");
      if (!egvs) throw new Error(`${user} has EGVs`);
      patients[user] = { id, cookie, endMs: egvs.endMs };
    }
  }, 120_000);

  it("14 days up to the newest reading (SandboxUser1, mg/dL)", async () => {
    const p = patients.SandboxUser1!;
    const body = await expectSameSummary(p.id, p.cookie, p.endMs - 14 * MS_PER_DAY, p.endMs);
    expect(body).toMatchObject({ nValues: expect.any(Number) });
    expect((body as { nValues: number }).nValues).toBeGreaterThan(3000);
  });

  it("the last 40 minutes, readings not yet smoothed included (SandboxUser1)", async () => {
    const p = patients.SandboxUser1!;
    await expectSameSummary(p.id, p.cookie, p.endMs - 40 * MS_PER_MINUTE, p.endMs);
  });

  it("14 days and 40 minutes in mmol/L (SandboxUser3)", async () => {
    const p = patients.SandboxUser3!;
    const unit = await source.readEgvs(p.id, periodOf(p.endMs - 60_000 * 60, p.endMs));
    // API v3 sends mg/dL whatever the account's unit (service-v3-notes.md §3.1).
    expect(unit.unit).toBe(inject("apiVersion") === "v3" ? "mg/dL" : "mmol/L");
    await expectSameSummary(p.id, p.cookie, p.endMs - 14 * MS_PER_DAY, p.endMs);
    await expectSameSummary(p.id, p.cookie, p.endMs - 40 * MS_PER_MINUTE, p.endMs);
  });

  it("a day around a LOW or HIGH reading, which counts as 39 or 401", async () => {
    let found = 0;
    for (const p of Object.values(patients)) {
      const t = schema.syncedEgvs;
      const [sentinel] = await database
        .select()
        .from(t)
        .where(orm.and(orm.eq(t.connectionId, p.id), orm.isNotNull(t.status)))
        .orderBy(orm.desc(t.systemTime))
        .limit(1);
      if (!sentinel) continue;
      found++;
      const at = sentinel.systemTime.getTime();
      const body = (await expectSameSummary(p.id, p.cookie, at - 12 * 3_600_000, at + 12 * 3_600_000)) as {
        timeInRanges: Record<string, number>;
      };
      const band = sentinel.status === "low" ? "veryLow" : "veryHigh";
      expect(body.timeInRanges[band]).toBeGreaterThan(0);
      // The one-second window holds that reading alone, as exactly 39 or 401.
      const one = (await expectSameSummary(p.id, p.cookie, at - 1000, at)) as {
        nValues: number;
        mean: number;
      };
      expect(one).toMatchObject({ nValues: 1, mean: sentinel.status === "low" ? 39 : 401 });
    }
    expect(found, "SandboxUser1 or 3 has a LOW or HIGH reading in 90 days").toBeGreaterThan(0);
  });

  it("a window before what was synced, and a copy two intervals old, are the service's to answer", async () => {
    const p = patients.SandboxUser1!;
    await passOver(p.id);
    const s = await state(p.id);
    const from = s.egvsFrom?.getTime() ?? 0;
    // v3 windows exclude their end: the backfill is (end − 90 days, end] (lib/sync/plan.ts).
    expect(from).toBe(p.endMs - 90 * MS_PER_DAY + (inject("apiVersion") === "v3" ? 1000 : 0));
    const before = periodOf(from - 2 * MS_PER_DAY, from + MS_PER_DAY);
    expect(await source.sourceFor(p.id, ["egvs"], before)).toEqual({
      answers: false,
      reason: `egvs are synced only from ${new Date(from).toISOString()}`,
    });
    const old = await summaryJson(p.id, from - 2 * MS_PER_DAY, from + MS_PER_DAY);
    expect(old.calls).toBe(1);
    expect(old.body.nValues).toBeGreaterThan(500);

    const recent = periodOf(p.endMs - MS_PER_DAY, p.endMs);
    await setState(p.id, { lastSuccessAt: new Date(Date.now() - 9 * MS_PER_MINUTE) });
    expect((await source.sourceFor(p.id, ["egvs"], recent)).answers).toBe(true);
    await setState(p.id, { lastSuccessAt: new Date(Date.now() - 11 * MS_PER_MINUTE) });
    expect((await source.sourceFor(p.id, ["egvs"], recent)).answers).toBe(false);
    // A failed sync since the last success: the copy is known to lag.
    await passOver(p.id);
    await setState(p.id, { lastErrorAt: new Date() });
    expect(await source.sourceFor(p.id, ["egvs"], recent)).toEqual({
      answers: false,
      reason: "the last sync failed",
    });
  });
});

describe("an event deleted at the service after it was synced", () => {
  it("the sandbox deletes it for this app: v2 marks it deleted in place, v1 leaves it out", async () => {
    const id = await client.connectPatient("SandboxUser1");
    const { outcome } = await passOver(id);
    const events = outcome.groups.find((g) => g.group === "events");
    if (!events) throw new Error("SandboxUser1 logs events");
    expect(events.recheck).toBe(true);
    const window = windowOf(events.endMs - MS_PER_DAY, events.endMs);
    const created = (await service.getEvents(id, "v2", window)).events.filter(
      (e) => e.eventStatus === "created",
    );
    const target = created.at(-1) as EventV2;
    if (!target) throw new Error("SandboxUser1 logged an event in the last day of events");

    expect(
      (await client.deleteEvent("SandboxUser1", { eventId: "nope", systemTime: target.systemTime })).status,
    ).toBe(404);
    expect(
      (await client.deleteEvent("SandboxUser1", { eventId: target.eventId, systemTime: "yesterday" })).status,
    ).toBe(400);
    const rangeBefore = await service.getDataRange(id);
    const res = await client.deleteEvent("SandboxUser1", target);
    expect(res.status).toBe(201);

    const after = (await service.getEvents(id, "v2", window)).events;
    expect(after.find((e) => e.eventId === target.eventId)).toEqual({ ...target, eventStatus: "deleted" });
    const v1 = (await service.getEvents(id, "v1", window)).events;
    expect(v1.some((e) => e.systemTime === target.systemTime && e.eventType === target.eventType)).toBe(
      false,
    );
    // The deletion moves no end: the events' dataRange is as before.
    expect((await service.getDataRange(id)).events).toEqual(rangeBefore.events);

    const stored = async () => {
      const t = schema.syncedEvents;
      const [row] = await database
        .select({ status: t.eventStatus })
        .from(t)
        .where(orm.and(orm.eq(t.connectionId, id), orm.eq(t.eventId, target.eventId)));
      return row?.status;
    };

    // Checked at the backfill a moment ago: the next pass does not read events (the gap this closes).
    const quiet = await passOver(id);
    expect(quiet.outcome.groups.map((g) => g.group)).not.toContain("events");
    expect(quiet.outcome.calls).toBeLessThanOrEqual(2);
    expect(await stored()).toBe("created");

    // Past SYNC_EVENTS_RECHECK_MINUTES (60): one pass re-reads the last 24 hours of events.
    await setState(id, { eventsCheckedAt: new Date(Date.now() - 61 * MS_PER_MINUTE) });
    const through = (await state(id)).eventsThrough?.getTime() ?? 0;
    const { outcome: rechecked, seen } = await passOver(id);
    const read = rechecked.groups.find((g) => g.group === "events");
    expect(read).toMatchObject({ recheck: true, startMs: through - MS_PER_DAY, backfill: false });
    expect(seen).toBe(rechecked.calls);
    expect(rechecked.calls).toBe(1 + rechecked.groups.length);
    expect(await stored()).toBe("deleted");
    const checkedAt = (await state(id)).eventsCheckedAt?.getTime() ?? 0;
    expect(Date.now() - checkedAt).toBeLessThan(60_000);

    // And the next pass is quiet again; the copy answers with the event marked deleted.
    const again = await passOver(id);
    expect(again.outcome.groups.some((g) => g.recheck)).toBe(false);
    const before = dataCalls;
    const fromCopy = await source.readEvents(id, window);
    expect(dataCalls - before).toBe(0);
    expect(fromCopy.events.find((e) => e.eventId === target.eventId)?.eventStatus).toBe("deleted");
  });
});
