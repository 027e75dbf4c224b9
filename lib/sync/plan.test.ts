import { describe, expect, it } from "vitest";
import { type DataRangeResponse, formatDateTime, parseDateTime } from "@/lib/cgm";
import {
  advanceThrough,
  callsFor,
  coverageFrom,
  type EventsRecheck,
  isBackfillDone,
  lastSyncTimeFor,
  mergeDataRange,
  planSync,
  RETRY_BASE_MS,
  RETRY_MAX_MS,
  retryDelayMs,
  type SyncedThrough,
  syncWindows,
  throughFor,
} from "./plan";

const MIN = 60_000;
const DAY = 86_400_000;
const ms = (t: string) => parseDateTime(t) as number;
const bounds = (startMs: number, endMs: number) => ({
  start: { systemTime: formatDateTime(startMs), displayTime: formatDateTime(startMs + 3_600_000) },
  end: { systemTime: formatDateTime(endMs), displayTime: formatDateTime(endMs + 3_600_000) },
});

const NOW = ms("2026-11-20T12:00:00");
const FIRST = NOW - 400 * DAY;
const range = (ends: Partial<Record<keyof DataRangeResponse, number | null>> = {}): DataRangeResponse => {
  const group = (end: number | null | undefined, fallback: number) =>
    end === null ? null : bounds(FIRST, end ?? fallback);
  return {
    egvs: group(ends.egvs, NOW),
    events: group(ends.events, NOW - 2 * 3_600_000),
    calibrations: group(ends.calibrations, NOW - 30 * DAY),
  };
};
const settings = { backfillDays: 90, overlapMinutes: 60 };
const never: SyncedThrough = { egvs: null, events: null, calibrations: null };

describe("planSync", () => {
  it("first sync: each group backfills 90 days back from its own newest record", () => {
    const plan = planSync(never, range(), settings);
    expect(plan).toEqual([
      { group: "egvs", startMs: NOW - 90 * DAY, endMs: NOW, backfill: true },
      {
        group: "events",
        startMs: NOW - 2 * 3_600_000 - 90 * DAY,
        endMs: NOW - 2 * 3_600_000,
        backfill: true,
        // The backfill reads every event it keeps: it counts as the events' re-read.
        recheck: true,
      },
      { group: "calibrations", startMs: NOW - 120 * DAY, endMs: NOW - 30 * DAY, backfill: true },
    ]);
  });

  it("first sync of a short history starts at its oldest record; a group without records is not fetched", () => {
    const young: DataRangeResponse = { ...range({ calibrations: null }), egvs: bounds(NOW - 3 * DAY, NOW) };
    const plan = planSync(never, young, settings);
    expect(plan.map((f) => f.group)).toEqual(["egvs", "events"]);
    expect(plan[0]?.startMs).toBe(NOW - 3 * DAY);
  });

  it("nothing new: no data call at all", () => {
    const r = range();
    const through = advanceThrough(never, planSync(never, r, settings));
    expect(planSync(through, r, settings)).toEqual([]);
  });

  it("one new reading: only EGVs, from an hour before the newest synced one to the new end", () => {
    const before = range();
    const through = advanceThrough(never, planSync(never, before, settings));
    const after = range({ egvs: NOW + 5 * MIN });
    expect(planSync(through, after, settings)).toEqual([
      { group: "egvs", startMs: NOW - 60 * MIN, endMs: NOW + 5 * MIN, backfill: false },
    ]);
    expect(
      callsFor({ group: "egvs", startMs: NOW - 60 * MIN, endMs: NOW + 5 * MIN, backfill: false }, 30),
    ).toBe(1);
  });

  it("a new event: events are fetched from the overlap, EGVs only if their end moved too", () => {
    const through = advanceThrough(never, planSync(never, range(), settings));
    const plan = planSync(through, range({ events: NOW - 10 * MIN }), settings);
    expect(plan).toEqual([
      { group: "events", startMs: NOW - 2 * 3_600_000 - 60 * MIN, endMs: NOW - 10 * MIN, backfill: false },
    ]);
  });

  it("an end that moved back (records removed at the service) fetches nothing", () => {
    const through = advanceThrough(never, planSync(never, range(), settings));
    expect(planSync(through, range({ egvs: NOW - 5 * MIN }), settings)).toEqual([]);
  });

  it("after a long gap, reads at most the backfill period, and the overlap can be zero", () => {
    const through: SyncedThrough = { egvs: NOW - 200 * DAY, events: NOW - 10 * DAY, calibrations: null };
    const plan = planSync(through, range({ events: NOW, calibrations: null }), {
      ...settings,
      overlapMinutes: 0,
    });
    expect(plan).toEqual([
      { group: "egvs", startMs: NOW - 90 * DAY, endMs: NOW, backfill: false },
      { group: "events", startMs: NOW - 10 * DAY, endMs: NOW, backfill: false },
    ]);
  });

  it("counts a backfill's calls as the client splits it into windows", () => {
    const [egvs] = planSync(never, range(), settings);
    expect(egvs && callsFor(egvs, 30)).toBe(3);
    expect(egvs && callsFor(egvs, 90)).toBe(1);
  });
});

describe("the events re-read (a deletion keeps its systemTime)", () => {
  const EVENTS_END = NOW - 2 * 3_600_000;
  const synced: SyncedThrough = { egvs: NOW - 5 * MIN, events: EVENTS_END, calibrations: NOW - 30 * DAY };
  const recheck = (lastCheckedMs: number | null, everyMinutes = 60): EventsRecheck => ({
    everyMinutes,
    lookbackHours: 24,
    lastCheckedMs,
    nowMs: NOW,
  });

  it("not due: one new reading is the EGVs' call alone (2 calls with dataRange)", () => {
    const plan = planSync(synced, range(), settings, recheck(NOW - 59 * MIN));
    expect(plan).toEqual([{ group: "egvs", startMs: NOW - 65 * MIN, endMs: NOW, backfill: false }]);
  });

  it("due with no new event: events are read 24 hours back from the newest synced one, through it", () => {
    const plan = planSync(synced, range(), settings, recheck(NOW - 60 * MIN));
    expect(plan).toEqual([
      { group: "egvs", startMs: NOW - 65 * MIN, endMs: NOW, backfill: false },
      { group: "events", startMs: EVENTS_END - DAY, endMs: EVENTS_END, backfill: false, recheck: true },
    ]);
    // The mark does not move: nothing newer was read.
    expect(advanceThrough(synced, plan).events).toBe(EVENTS_END);
    // Never checked since the first sync (a connection synced before the re-read existed): due.
    expect(planSync(synced, range(), settings, recheck(null))).toHaveLength(2);
  });

  it("due when events are read anyway: the same one call, its window starting 24 hours back", () => {
    const plan = planSync(synced, range({ events: NOW - 10 * MIN }), settings, recheck(NOW - 2 * DAY));
    expect(plan[1]).toEqual({
      group: "events",
      startMs: EVENTS_END - DAY,
      endMs: NOW - 10 * MIN,
      backfill: false,
      recheck: true,
    });
    expect(callsFor(plan[1]!, 30)).toBe(1);
  });

  it("never with everyMinutes 0, and never further back than the backfill", () => {
    expect(planSync(synced, range(), settings, recheck(null, 0))).toHaveLength(1);
    const short = planSync(synced, range(), { ...settings, backfillDays: 0.5 }, recheck(null));
    expect(short[1]?.startMs).toBe(EVENTS_END - DAY / 2);
  });
});

describe("coverageFrom", () => {
  const f = (startMs: number, backfill = false) => ({
    group: "egvs" as const,
    startMs,
    endMs: NOW,
    backfill,
  });
  it("a read that overlaps what was synced extends the run; a backfill or a read after a hole starts one", () => {
    expect(coverageFrom(NOW - 90 * DAY, NOW - 30 * MIN, f(NOW - 90 * MIN))).toBe(NOW - 90 * DAY);
    expect(coverageFrom(NOW - 90 * DAY, NOW - 100 * DAY, f(NOW - 90 * DAY))).toBe(NOW - 90 * DAY);
    expect(coverageFrom(NOW - 200 * DAY, NOW - 100 * DAY, f(NOW - 90 * DAY))).toBe(NOW - 90 * DAY);
    expect(coverageFrom(NOW - 10 * DAY, NOW, f(NOW - 90 * DAY, true))).toBe(NOW - 90 * DAY);
    expect(coverageFrom(null, NOW - 30 * MIN, f(NOW - 90 * MIN))).toBe(NOW - 90 * MIN);
  });
});

describe("advanceThrough / isBackfillDone", () => {
  it("moves only the groups fetched, and is done once every group with records has synced", () => {
    const r = range();
    const plan = planSync(never, r, settings);
    const partial = advanceThrough(never, plan.slice(0, 2));
    expect(partial).toEqual({ egvs: NOW, events: NOW - 2 * 3_600_000, calibrations: null });
    expect(isBackfillDone(partial, r)).toBe(false);
    expect(isBackfillDone(partial, range({ calibrations: null }))).toBe(true);
    // The interrupted group is the only one the next sync fetches, as a backfill.
    expect(planSync(partial, r, settings)).toEqual([plan[2]]);
  });
});

describe("retryDelayMs", () => {
  it("doubles from one minute to a six-hour cap, half of it jittered", () => {
    const low = () => 0;
    const high = () => 0.999_999;
    expect(retryDelayMs(1, low)).toBe(RETRY_BASE_MS / 2);
    expect(retryDelayMs(1, high)).toBeCloseTo(RETRY_BASE_MS, -1);
    expect(retryDelayMs(2, low)).toBe(RETRY_BASE_MS);
    expect(retryDelayMs(4, low)).toBe(4 * RETRY_BASE_MS);
    expect(retryDelayMs(9, low)).toBe(128 * RETRY_BASE_MS);
    expect(retryDelayMs(10, low)).toBe(RETRY_MAX_MS / 2);
    expect(retryDelayMs(50, high)).toBeLessThanOrEqual(RETRY_MAX_MS);
    expect(retryDelayMs(50, low)).toBe(RETRY_MAX_MS / 2);
  });
});

describe("API v3", () => {
  const through: SyncedThrough = { egvs: NOW, events: NOW - 2 * 3_600_000, calibrations: NOW - 30 * DAY };
  const twoGroups = range({ calibrations: null });

  it("a 90-day backfill reads three 30-day windows, one call each, up to and including the newest record", () => {
    const egvs = planSync(never, range(), settings, undefined, "v3").find((f) => f.group === "egvs");
    expect(egvs).toMatchObject({ startMs: NOW - 90 * DAY + 1000, endMs: NOW });
    expect(egvs && callsFor(egvs, 30, "v3")).toBe(3);
    const windows = egvs ? syncWindows(egvs.startMs, egvs.endMs, 30, "v3") : [];
    // Each handed to the client inclusive, one second short of the next: the client asks [start, end + 1 s).
    expect(windows).toEqual([
      { startMs: NOW - 90 * DAY + 1000, endMs: NOW - 60 * DAY },
      { startMs: NOW - 60 * DAY + 1000, endMs: NOW - 30 * DAY },
      { startMs: NOW - 30 * DAY + 1000, endMs: NOW },
    ]);
    // v2 as before: the 90 days inclusive of both ends.
    expect(planSync(never, range(), settings).find((f) => f.group === "egvs")?.startMs).toBe(NOW - 90 * DAY);
    const exact = { group: "egvs" as const, startMs: NOW - 30 * DAY, endMs: NOW, backfill: false };
    expect(callsFor(exact, 30, "v2")).toBe(1);
    expect(callsFor(exact, 30, "v3")).toBe(2);
    expect(callsFor({ ...exact, startMs: NOW - 60 * MIN }, 30, "v3")).toBe(1);
  });

  it("lastSyncTime: v3 only, once every group with data is synced, the oldest group's mark, under 30 days old", () => {
    const t = { ...through, calibrations: null };
    expect(lastSyncTimeFor("v3", t, twoGroups, NOW)).toBe(NOW - 2 * 3_600_000);
    expect(lastSyncTimeFor("v2", t, twoGroups, NOW)).toBeNull();
    // A group the service has but the sync has not backfilled: the plain dataRange gives its start.
    expect(lastSyncTimeFor("v3", t, range(), NOW)).toBeNull();
    expect(lastSyncTimeFor("v3", never, null, NOW)).toBeNull();
    // Calibrations synced 30 days ago: too old to send (notes §3.6).
    expect(lastSyncTimeFor("v3", through, range(), NOW)).toBeNull();
    expect(lastSyncTimeFor("v3", through, range(), NOW - 1)).toBe(NOW - 30 * DAY);
    expect(lastSyncTimeFor("v3", t, { egvs: null, events: null, calibrations: null }, NOW)).toBeNull();
  });

  it("a dataRange limited by lastSyncTime merges into the stored one: stored starts, newer ends", () => {
    const newer: DataRangeResponse = {
      egvs: bounds(NOW - 10 * MIN, NOW + 5 * MIN),
      events: null,
      calibrations: null,
    };
    expect(mergeDataRange(twoGroups, newer)).toEqual({
      egvs: { start: bounds(FIRST, NOW).start, end: bounds(0, NOW + 5 * MIN).end },
      events: twoGroups.events,
      calibrations: null,
    });
    // A group's first records: its range as the service gives it.
    const first: DataRangeResponse = { ...newer, calibrations: bounds(NOW, NOW) };
    expect(mergeDataRange(twoGroups, first).calibrations).toEqual(bounds(NOW, NOW));
    expect(mergeDataRange(null, newer)).toEqual(newer);
  });

  it("a deployment switched to another API version backfills again once; the same version carries on", () => {
    expect(throughFor(through, "v3", "v3")).toBe(through);
    expect(throughFor(through, null, "v2")).toBe(through);
    expect(throughFor(through, null, "v3")).toEqual(never);
    expect(throughFor(through, "v3", "v2")).toEqual(never);
    const plan = planSync(throughFor(through, null, "v3"), range(), settings, undefined, "v3");
    expect(plan.map((f) => [f.group, f.backfill])).toEqual([
      ["egvs", true],
      ["events", true],
      ["calibrations", true],
    ]);
  });
});
