import { describe, expect, it } from "vitest";
import { type EgvV2, formatDateTime, MS_PER_DAY, MS_PER_MINUTE, MS_PER_SECOND } from "@/lib/cgm";
import {
  assembleDays,
  byDay,
  daySpans,
  type FinishedDay,
  FinishedDays,
  finishedBeforeMs,
  planDaysRead,
  READING_BYTES,
} from "./finished-days";

const reading = (ms: number, value = 100): EgvV2 => ({
  systemTime: formatDateTime(ms),
  displayTime: formatDateTime(ms + 3_600_000),
  value,
  realtimeValue: value,
  smoothedValue: null,
  status: null,
  trend: "flat",
  trendRate: 0,
});

/** A day of `n` readings, 5 minutes apart from its start. */
const dayOf = (index: number, n = 288, value = 100): FinishedDay => ({
  unit: "mg/dL",
  rateUnit: "mg/dL/min",
  egvs: Array.from({ length: n }, (_, k) => reading(index * MS_PER_DAY + k * 5 * MS_PER_MINUTE, value)),
});

const a = { connectionId: "a", generation: "1" };
const b = { connectionId: "b", generation: "1" };

describe("FinishedDays", () => {
  it("keeps each connection's days apart, and a new authorization of one sees none of the old", () => {
    const days = new FinishedDays(10 * 1024 * 1024);
    days.set(a, 100, dayOf(100, 288, 111));
    days.set(b, 100, dayOf(100, 288, 222));
    expect(days.get(a, 100)?.egvs[0]?.value).toBe(111);
    expect(days.get(b, 100)?.egvs[0]?.value).toBe(222);
    expect(days.get({ connectionId: "a", generation: "2" }, 100)).toBeUndefined();
    expect(days.get({ connectionId: "c", generation: "1" }, 100)).toBeUndefined();
  });

  it("stays within its byte budget, dropping the least recently used day first", () => {
    const perDay = 288 * READING_BYTES;
    const days = new FinishedDays(3 * perDay + 1_000);
    for (const d of [1, 2, 3]) days.set(a, d, dayOf(d));
    days.get(a, 1); // used: day 2 is now the oldest
    days.set(b, 9, dayOf(9));
    expect(days.bytes).toBeLessThanOrEqual(days.budgetBytes);
    expect(days.has(a, 2)).toBe(false);
    expect([days.has(a, 1), days.has(a, 3), days.has(b, 9)]).toEqual([true, true, true]);
    // Many more days than fit: the budget holds at every step.
    for (let d = 10; d < 40; d++) {
      days.set(a, d, dayOf(d));
      expect(days.bytes).toBeLessThanOrEqual(days.budgetBytes);
    }
    expect(days.size).toBe(3);
    // A day larger than the whole budget is not kept, and pushes nothing out.
    days.set(a, 99, dayOf(99, 10_000));
    expect(days.has(a, 99)).toBe(false);
    expect(days.size).toBe(3);
  });

  it("counts a day set twice once", () => {
    const days = new FinishedDays(10 * 1024 * 1024);
    days.set(a, 1, dayOf(1));
    const once = days.bytes;
    days.set(a, 1, dayOf(1));
    expect(days.bytes).toBe(once);
  });

  it("forgets every day of a connection, under every authorization, and no other's", () => {
    const days = new FinishedDays(10 * 1024 * 1024);
    days.set(a, 1, dayOf(1));
    days.set({ connectionId: "a", generation: "2" }, 2, dayOf(2));
    days.set(b, 1, dayOf(1));
    days.forget("a");
    expect(days.size).toBe(1);
    expect(days.has(b, 1)).toBe(true);
    days.forget("b");
    expect(days.bytes).toBe(0);
  });
});

describe("planning a read with finished days", () => {
  const day = (d: number, hour = 0) => d * MS_PER_DAY + hour * 3_600_000;

  it("finished days end at the start of the day the lookback reaches back to", () => {
    expect(finishedBeforeMs(day(10, 5), 24 * 3_600_000)).toBe(day(9));
    expect(finishedBeforeMs(day(10, 0), 3_600_000)).toBe(day(9));
  });

  it("reads whole days not held, in one span, and what follows the finished days as before", () => {
    const held = new Set([3, 4]);
    const plan = planDaysRead({ startMs: day(2, 6), endMs: day(8, 12) }, day(7), (d) => held.has(d));
    expect(plan).toEqual({
      firstDay: 2,
      lastDay: 6,
      missing: { startMs: day(2), endMs: day(7) - MS_PER_SECOND },
      tail: { startMs: day(7), endMs: day(8, 12) },
    });
  });

  it("needs no read of days when all are held, nor a tail when the window ends before the unfinished days", () => {
    expect(planDaysRead({ startMs: day(2), endMs: day(4, 1) }, day(7), () => true)).toEqual({
      firstDay: 2,
      lastDay: 4,
      missing: null,
      tail: null,
    });
  });

  it("reads the whole days a window covers, even where they are longer than the window", () => {
    // 90 days from 06:00 (a report's period before on the receiver's clock): 91 whole days.
    expect(planDaysRead({ startMs: day(2, 6), endMs: day(92, 6) }, day(200), () => false)?.missing).toEqual({
      startMs: day(2),
      endMs: day(93) - MS_PER_SECOND,
    });
    // A one-day window may take its two whole days.
    expect(planDaysRead({ startMs: day(2, 6), endMs: day(3, 6) }, day(200), () => false)?.missing).toEqual({
      startMs: day(2),
      endMs: day(4) - MS_PER_SECOND,
    });
  });

  it("cuts whole days into reads no longer than the window, each of whole days, in order, none lost", () => {
    const spans = daySpans({ startMs: day(2), endMs: day(93) - MS_PER_SECOND }, 90 * MS_PER_DAY + 3_600_000);
    expect(spans).toEqual([
      { startMs: day(2), endMs: day(92) - MS_PER_SECOND },
      { startMs: day(92), endMs: day(93) - MS_PER_SECOND },
    ]);
    expect(daySpans({ startMs: day(2), endMs: day(4) - MS_PER_SECOND }, 7 * MS_PER_DAY)).toEqual([
      { startMs: day(2), endMs: day(4) - MS_PER_SECOND },
    ]);
    // Never less than a day a read, whatever the window.
    expect(daySpans({ startMs: day(2), endMs: day(4) - MS_PER_SECOND }, 3_600_000)).toHaveLength(2);
  });

  it("has nothing to do for a window of unfinished days only", () => {
    expect(planDaysRead({ startMs: day(7, 1), endMs: day(8) }, day(7), () => true)).toBeNull();
  });

  it("puts the window back together from days and tail, cut to the window's ends", () => {
    const days = [2, 3, 4].map((d) => dayOf(d));
    const window = { startMs: day(2, 6), endMs: day(5, 1) };
    const tail = dayOf(5, 24).egvs; // the first two hours of day 5
    const all = [...days.flatMap((d) => d.egvs), ...tail];
    const within = all.filter((e) => {
      const t = Date.parse(`${e.systemTime}Z`);
      return t >= window.startMs && t <= window.endMs;
    });
    expect(
      assembleDays(
        window,
        days.map((d) => d.egvs),
        tail.slice(0, 13),
      ),
    ).toEqual(within);
    const split = byDay(all);
    expect([...split.keys()]).toEqual([2, 3, 4, 5]);
    expect(split.get(3)).toEqual(days[1]?.egvs);
  });
});
