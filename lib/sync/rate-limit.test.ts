import { describe, expect, it } from "vitest";
import { MS_PER_HOUR as HOUR_MS } from "@/lib/cgm/datetime";
import { maxInWindow, nextTat, pacing, type RateLimit, waitMs } from "./rate-limit";

/** Callers asking at the given times, each reserving one call; returns when each call starts. */
function simulate(limit: RateLimit, asks: readonly number[]): number[] {
  const p = pacing(limit);
  let tat: number | null = null;
  return [...asks]
    .sort((a, b) => a - b)
    .map((now) => {
      tat = nextTat(tat, now, p);
      return now + waitMs(tat, now, p);
    });
}

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe("pacing", () => {
  it("keeps a minute's worth as the burst and spreads the rest over the period", () => {
    // 40,000 an hour: a burst of 666, then one call every (3,600,000 + 1% = 3,636,000) / 39,335
    // = 92.4 ms, rounded up.
    expect(pacing({ calls: 40_000, periodMs: HOUR_MS })).toEqual({ burst: 666, intervalMs: 93 });
    // Short periods: a margin of 1 s, (2,000 + 1,000) / 5 and (1,000 + 1,000) / 1.
    expect(pacing({ calls: 5, periodMs: 2_000 })).toEqual({ burst: 1, intervalMs: 600 });
    expect(pacing({ calls: 1, periodMs: 1_000 })).toEqual({ burst: 1, intervalMs: 2_000 });
  });

  it("refuses a limit that allows nothing", () => {
    expect(() => pacing({ calls: 0, periodMs: 1_000 })).toThrow(RangeError);
  });
});

describe("nextTat and waitMs", () => {
  const p = { burst: 2, intervalMs: 100 };
  it("an idle limiter lets the burst through at once, then one call per interval", () => {
    let tat: number | null = null;
    const waits = [0, 1, 2, 3].map(() => {
      tat = nextTat(tat, 1_000, p);
      return waitMs(tat, 1_000, p);
    });
    expect(waits).toEqual([0, 0, 100, 200]);
  });
  it("a tat in the past counts from now: idle time is not saved up beyond the burst", () => {
    expect(nextTat(500, 10_000, p)).toBe(10_100);
    expect(waitMs(10_100, 10_000, p)).toBe(0);
  });
});

describe("the bound", () => {
  it("all callers at once: the limit less the margin in the first period, never more in any window", () => {
    // A burst of 2, then one call every (60,000 + 1,000) / 119 = 512.6 → 513 ms.
    const limit = { calls: 120, periodMs: 60_000 };
    const starts = simulate(
      limit,
      Array.from({ length: 1_000 }, () => 0),
    );
    expect(starts.slice(0, 4)).toEqual([0, 0, 513, 1_026]);
    // 2 + 116 calls by 116 × 513 = 59,508 ms; the next at 60,021: the margin keeps two in hand.
    expect(starts.filter((s) => s < 60_000)).toHaveLength(118);
    expect(maxInWindow(starts, limit.periodMs)).toBe(118);
  });

  it("random arrivals, bursts after idle spells, several limits: never more than the limit in any window", () => {
    const next = random(42);
    for (const limit of [
      { calls: 1, periodMs: 1_000 },
      { calls: 7, periodMs: 1_000 },
      { calls: 100, periodMs: 10_000 },
      { calls: 3_000, periodMs: HOUR_MS },
    ]) {
      const asks: number[] = [];
      let t = 0;
      for (let i = 0; i < 5_000; i++) {
        // Mostly close together, sometimes after a pause longer than the period.
        t += next() < 0.02 ? limit.periodMs * 2 * next() : (limit.periodMs / limit.calls) * 3 * next();
        asks.push(t);
      }
      const starts = simulate(limit, asks);
      expect(maxInWindow(starts, limit.periodMs)).toBeLessThanOrEqual(limit.calls);
      // The pacing does not just stop: every call starts, none before it asked.
      expect(starts).toHaveLength(asks.length);
      for (const [i, s] of starts.entries()) expect(s).toBeGreaterThanOrEqual(asks[i] as number);
    }
  });
});

describe("maxInWindow", () => {
  it("counts starts in half-open windows", () => {
    expect(maxInWindow([0, 999, 1_000], 1_000)).toBe(2);
    expect(maxInWindow([0, 500, 999, 1_000, 1_001], 1_000)).toBe(4);
    expect(maxInWindow([], 1_000)).toBe(0);
    expect(maxInWindow([5, 5, 5], 1)).toBe(3);
  });
});
