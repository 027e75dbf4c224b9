import { describe, expect, it } from "vitest";
import { mapWithConcurrency, mergeBySystemTime, splitWindow } from "./windows";

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
});
