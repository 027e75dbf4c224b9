import { describe, expect, it } from "vitest";
import {
  fetchAheadInOrder,
  mapWithConcurrency,
  mergeBySystemTime,
  splitWindow,
  splitWindowEndExclusive,
} from "./windows";

const DAY = 86_400_000;
const t0 = Date.UTC(2026, 0, 1);

describe("splitWindow", () => {
  it("keeps a window within the limit whole", () => {
    expect(splitWindow(t0, t0 + 30 * DAY, 30)).toEqual([{ startMs: t0, endMs: t0 + 30 * DAY }]);
  });

  it("cuts 75 days into 30 + 30 + 15 with one second between chunks", () => {
    expect(splitWindow(t0, t0 + 75 * DAY, 30)).toEqual([
      { startMs: t0, endMs: t0 + 30 * DAY - 1000 },
      { startMs: t0 + 30 * DAY, endMs: t0 + 60 * DAY - 1000 },
      { startMs: t0 + 60 * DAY, endMs: t0 + 75 * DAY },
    ]);
  });

  it("gives nothing for a reversed window", () => {
    expect(splitWindow(t0 + 1000, t0, 30)).toEqual([]);
  });
});

describe("splitWindowEndExclusive (API v3: start included, end excluded)", () => {
  it("asks one second past the window's end, so a record exactly at its end is read", () => {
    expect(splitWindowEndExclusive(t0, t0 + DAY, 30)).toEqual([{ startMs: t0, endMs: t0 + DAY + 1000 }]);
  });

  it("cuts 75 days into chunks of 30 days at most, each starting where the last ended", () => {
    expect(splitWindowEndExclusive(t0, t0 + 75 * DAY, 30)).toEqual([
      { startMs: t0, endMs: t0 + 30 * DAY },
      { startMs: t0 + 30 * DAY, endMs: t0 + 60 * DAY },
      { startMs: t0 + 60 * DAY, endMs: t0 + 75 * DAY + 1000 },
    ]);
  });

  it("never asks more than the limit: exactly 30 days takes a last chunk of one second", () => {
    const chunks = splitWindowEndExclusive(t0, t0 + 30 * DAY, 30);
    expect(chunks).toEqual([
      { startMs: t0, endMs: t0 + 30 * DAY },
      { startMs: t0 + 30 * DAY, endMs: t0 + 30 * DAY + 1000 },
    ]);
    for (const c of splitWindowEndExclusive(t0, t0 + 90 * DAY - 1000, 30))
      expect(c.endMs - c.startMs).toBeLessThanOrEqual(30 * DAY);
  });

  it("a window of one instant is one second; a reversed one nothing", () => {
    expect(splitWindowEndExclusive(t0, t0, 30)).toEqual([{ startMs: t0, endMs: t0 + 1000 }]);
    expect(splitWindowEndExclusive(t0 + 1000, t0, 30)).toEqual([]);
  });
});

describe("mergeBySystemTime", () => {
  it("keeps order and drops a record seen in an earlier chunk", () => {
    const a = { systemTime: "2026-01-01T00:00:00", v: 1 };
    const b = { systemTime: "2026-01-01T00:05:00", v: 2 };
    const bAgain = { systemTime: "2026-01-01T00:05:00", v: 3 };
    const c = { systemTime: "2026-01-01T00:10:00", v: 4 };
    expect(
      mergeBySystemTime([
        [a, b],
        [bAgain, c],
      ]),
    ).toEqual([a, b, c]);
  });

  it("uses the given key, so two events at the same time both stay", () => {
    const e1 = { systemTime: "2026-01-01T00:00:00", eventId: "x" };
    const e2 = { systemTime: "2026-01-01T00:00:00", eventId: "y" };
    expect(mergeBySystemTime([[e1], [e2, e1]], (e) => e.eventId)).toEqual([e1, e2]);
  });
});

describe("mapWithConcurrency", () => {
  it("never runs more than the limit at once and keeps the order of results", async () => {
    let running = 0;
    let peak = 0;
    const out = await mapWithConcurrency([30, 10, 20, 5, 1], 2, async (ms, i) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
      return i;
    });
    expect(out).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
  });

  it("starts no task once one has failed, and rejects with that failure", async () => {
    const started: number[] = [];
    const run = mapWithConcurrency([0, 1, 2, 3, 4, 5, 6, 7], 3, async (i) => {
      started.push(i);
      await new Promise((r) => setTimeout(r, i === 1 ? 5 : 20));
      if (i === 1) throw new Error("chunk 1 failed");
      return i;
    });
    await expect(run).rejects.toThrow("chunk 1 failed");
    await new Promise((r) => setTimeout(r, 50));
    // 0, 1, 2 were under way; 0 and 2 finished and took nothing new after 1 failed.
    expect(started.sort()).toEqual([0, 1, 2]);
  });
});

describe("fetchAheadInOrder", () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("consumes in order, one at a time, with the next fetches in flight meanwhile", async () => {
    const log: string[] = [];
    let inFlight = 0;
    let peak = 0;
    let consuming = 0;
    await fetchAheadInOrder(
      [30, 5, 20, 1, 10],
      3,
      async (ms) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await sleep(ms);
        inFlight--;
        return ms;
      },
      async (ms) => {
        consuming++;
        expect(consuming).toBe(1);
        log.push(`consume ${ms} (fetching ${inFlight})`);
        await sleep(15);
        consuming--;
      },
    );
    expect(log.map((l) => l.split(" (")[0])).toEqual([
      "consume 30",
      "consume 5",
      "consume 20",
      "consume 1",
      "consume 10",
    ]);
    expect(peak).toBe(3);
    // While the first result was written, the fourth fetch had already started.
    expect(log[0]).toBe("consume 30 (fetching 1)");
  });

  it("stops at the first failure, and what was started later does not reject unhandled", async () => {
    const consumed: number[] = [];
    const fetched: number[] = [];
    const run = fetchAheadInOrder(
      [1, 2, 3, 4, 5],
      2,
      async (n) => {
        fetched.push(n);
        await sleep(5);
        if (n >= 2) throw new Error(`fetch ${n} failed`);
        return n;
      },
      async (n) => {
        consumed.push(n);
      },
    );
    await expect(run).rejects.toThrow("fetch 2 failed");
    await sleep(20);
    expect(consumed).toEqual([1]);
    expect(fetched).toEqual([1, 2, 3]);
  });
});
