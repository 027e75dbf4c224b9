import { describe, expect, it } from "vitest";
import { ARROW_TRENDS, type ArrowTrend, trendForRate } from "@/lib/cgm";
import type { SandboxEgv } from "../records";
import { findSandboxUser, SANDBOX_USERS, type SandboxUser } from "../users";
import { clearDayCache, generateEgvs, HISTORY_START_MS, SMOOTHING_LAG_MS } from ".";

const DAY = 86_400_000;
const MIN = 60_000;
const NOW = Date.UTC(2026, 10, 22, 18, 3, 27);
const user = (name: string): SandboxUser => findSandboxUser(name)!;
const withData = SANDBOX_USERS.filter((u) => u.hasData);
const isArrow = (t: string | null): t is ArrowTrend => ARROW_TRENDS.includes(t as ArrowTrend);

function last30(u: SandboxUser, now = NOW) {
  return generateEgvs(u, now - 30 * DAY, now, now);
}

describe("window semantics and determinism", () => {
  it("returns readings in [start, end] up to now, ascending", () => {
    const u = user("SandboxUser1");
    const start = NOW - 2 * DAY + 123_456;
    const end = NOW + 5 * DAY;
    const egvs = generateEgvs(u, start, end, NOW);
    expect(egvs.length).toBeGreaterThan(400);
    expect(egvs[0]!.systemMs).toBeGreaterThanOrEqual(start);
    expect(egvs.at(-1)!.systemMs).toBeLessThanOrEqual(NOW);
    for (let i = 1; i < egvs.length; i++) expect(egvs[i]!.systemMs).toBeGreaterThan(egvs[i - 1]!.systemMs);
    // Inclusive bounds: a window on exactly two readings returns both.
    const a = egvs[10]!.systemMs;
    const b = egvs[11]!.systemMs;
    expect(generateEgvs(u, a, b, NOW).map((e) => e.systemMs)).toEqual([a, b]);
  });

  it("nothing before the history start and nothing after now", () => {
    const u = user("SandboxUser2");
    expect(generateEgvs(u, HISTORY_START_MS - 30 * DAY, HISTORY_START_MS - 1, NOW)).toEqual([]);
    expect(generateEgvs(u, NOW + 1, NOW + DAY, NOW)).toEqual([]);
  });

  it("the same record whatever the window, after a cache reset too (another process)", () => {
    for (const u of withData) {
      const wide = generateEgvs(u, NOW - 20 * DAY, NOW - 5 * DAY, NOW);
      const narrow = generateEgvs(u, NOW - 12 * DAY - 7 * MIN, NOW - 9 * DAY + 3 * MIN, NOW);
      clearDayCache();
      const fresh = generateEgvs(u, NOW - 11 * DAY, NOW - 2 * DAY, NOW);
      const byTime = new Map(wide.map((e) => [e.systemMs, e]));
      for (const e of narrow) expect(byTime.get(e.systemMs)).toEqual(e);
      for (const e of fresh) if (byTime.has(e.systemMs)) expect(byTime.get(e.systemMs)).toEqual(e);
      const [from, to] = [narrow[0]!.systemMs, narrow.at(-1)!.systemMs];
      const inWide = wide.filter((e) => e.systemMs >= from && e.systemMs <= to);
      expect(inWide).toEqual(narrow);
    }
  });

  it("a record served long ago equals the same record served now (only smoothing arrives later)", () => {
    const u = user("SandboxUser1");
    const then = NOW - 40 * DAY;
    const old = generateEgvs(u, then - DAY, then, then);
    const later = generateEgvs(u, then - DAY, then, NOW);
    expect(later.length).toBe(old.length);
    old.forEach((e, i) => {
      const l = later[i]!;
      if (e.systemMs > then - SMOOTHING_LAG_MS) expect({ ...l, smoothedMgdl: null }).toEqual(e);
      else expect(l).toEqual(e);
    });
  });
});

describe("the 5-minute grid, sessions and gaps", () => {
  it("every reading is on the user's grid and values are integers in 39…401", () => {
    for (const u of withData) {
      const egvs = last30(u);
      const off = egvs.filter(
        (e) =>
          (e.systemMs - u.sensor.gridOffsetSeconds * 1000) % (5 * MIN) !== 0 ||
          !Number.isInteger(e.realtimeMgdl) ||
          e.realtimeMgdl < 39 ||
          e.realtimeMgdl > 401 ||
          e.displayMs % 1000 !== 0,
      );
      expect(off).toEqual([]);
    }
  });

  it("continuous wear: session changes leave exactly 2 h; signal loss 15–90 min, a few per week", () => {
    for (const u of withData.filter((x) => x.sensor.wear === "continuous")) {
      const egvs = generateEgvs(u, NOW - 60 * DAY, NOW, NOW);
      const gaps = egvs.slice(1).map((e, i) => e.systemMs - egvs[i]!.systemMs);
      const sessionChanges = egvs.slice(1).filter((_, i) => gaps[i]! > 90 * MIN);
      const losses = gaps.filter((g) => g > 5 * MIN && g <= 90 * MIN);
      for (const g of gaps) expect(g === 2 * 3_600_000 || (g >= 5 * MIN && g <= 90 * MIN)).toBe(true);
      for (const g of losses) expect(g).toBeGreaterThanOrEqual(15 * MIN);
      // 60 days hold 5–6 (10-day) or 7–9 (7-day) sensor changes, one every session length + 2 h.
      const period = u.sensor.sessionDays * DAY + 2 * 3_600_000;
      expect(sessionChanges.length).toBeGreaterThanOrEqual(Math.floor((60 * DAY) / period) - 1);
      expect(sessionChanges.length).toBeLessThanOrEqual(Math.ceil((60 * DAY) / period));
      for (let i = 1; i < sessionChanges.length; i++)
        expect(sessionChanges[i]!.systemMs - sessionChanges[i - 1]!.systemMs).toBe(period);
      expect(losses.length).toBeGreaterThan(60 / 7); // > 1 per week
      expect(losses.length).toBeLessThan((60 / 7) * 7); // < 7 per week
    }
  });

  it("is live: the newest reading is minutes old unless a sensor warms up", () => {
    const u = user("SandboxUser1");
    for (let k = 0; k < 40; k++) {
      const now = NOW - k * 7_777_777;
      const newest = generateEgvs(u, now - 6 * 3_600_000, now, now).at(-1)!;
      expect(now - newest.systemMs).toBeLessThan(2 * 3_600_000 + 5 * MIN);
      expect(newest.smoothedMgdl).toBeNull();
    }
  });
});

describe("trend and trendRate (spec 2.1 table)", () => {
  it("match the table for every reading of 30 days of every user", () => {
    for (const u of withData) {
      const egvs = last30(u);
      const counts: Record<string, number> = {};
      egvs.forEach((e, i) => {
        counts[String(e.trend)] = (counts[String(e.trend)] ?? 0) + 1;
        if (isArrow(e.trend) && i >= 2) {
          expect(e.trendRateMgdlPerMin).not.toBeNull();
          const rate = e.trendRateMgdlPerMin!;
          expect(trendForRate(rate)).toBe(e.trend);
          expect(Math.round(rate * 10) / 10).toBe(rate);
          // The rate is the slope over the last three readings.
          const v2 = egvs[i - 2]!;
          expect(e.systemMs - v2.systemMs).toBe(10 * MIN);
          expect(rate).toBeCloseTo((e.realtimeMgdl - v2.realtimeMgdl) / 10, 10);
        } else if (!isArrow(e.trend)) {
          expect(e.trendRateMgdlPerMin).toBeNull();
        }
        if (e.status !== null) expect(e.trend).toBe("notComputable");
        // After a gap or at a session start, no arrow can be computed.
        const prev = egvs[i - 1];
        if (prev && e.systemMs - prev.systemMs > 5 * MIN) expect(e.trend).toBe("notComputable");
      });
      expect(counts.flat).toBeGreaterThan(egvs.length * 0.5);
      expect(counts.notComputable).toBeGreaterThan(0);
      if (u.generation === "g4") expect(counts.none).toBeGreaterThan(0);
      else expect(counts.none).toBeUndefined();
    }
  });

  it("rateOutOfRange (rate null) occurs, rarely", () => {
    let seen = 0;
    let total = 0;
    for (const u of withData) {
      const egvs = generateEgvs(u, NOW - 120 * DAY, NOW, NOW);
      total += egvs.length;
      seen += egvs.filter((e) => e.trend === "rateOutOfRange" && e.trendRateMgdlPerMin === null).length;
    }
    expect(seen).toBeGreaterThan(0);
    expect(seen / total).toBeLessThan(0.001);
  });
});

describe("smoothing (spec 2.1 rules 1–5)", () => {
  it("G4 and G5 never have a smoothed value", () => {
    for (const name of ["SandboxUser3", "SandboxUser4"]) {
      const egvs = generateEgvs(user(name), NOW - 30 * DAY, NOW, NOW + 365 * DAY);
      expect(egvs.length).toBeGreaterThan(7000);
      expect(egvs.every((e) => e.smoothedMgdl === null)).toBe(true);
    }
  });

  it("smoothed = rounded mean of the three consecutive realtime values, null at edges and gaps", () => {
    for (const u of withData.filter((x) => x.generation === "g6" || x.generation === "g7")) {
      const egvs = last30(u);
      let smoothed = 0;
      egvs.forEach((e, i) => {
        // The first and last reading of the window have neighbours outside it.
        if (i === 0 || i === egvs.length - 1) return;
        const prev = egvs[i - 1];
        const next = egvs[i + 1];
        const contiguous =
          prev !== undefined &&
          next !== undefined &&
          e.systemMs - prev.systemMs === 5 * MIN &&
          next.systemMs - e.systemMs === 5 * MIN;
        if (!contiguous) expect(e.smoothedMgdl).toBeNull();
        if (e.smoothedMgdl === null) return;
        smoothed++;
        expect(e.smoothedMgdl).toBe(
          Math.round((prev!.realtimeMgdl + e.realtimeMgdl + next!.realtimeMgdl) / 3),
        );
        expect(e.smoothedMgdl).toBeGreaterThanOrEqual(40);
        expect(e.smoothedMgdl).toBeLessThanOrEqual(400);
        expect(e.status).toBeNull();
      });
      expect(smoothed).toBeGreaterThan(egvs.length * 0.9);
    }
  });

  it("the newest readings (< 15 min) get their smoothed value later; realtime never changes", () => {
    const u = user("SandboxUser2");
    for (let k = 0; k < 10; k++) {
      const now = NOW - k * 86_399_000;
      const early = generateEgvs(u, now - 3 * 3_600_000, now, now);
      for (const e of early) if (e.systemMs > now - SMOOTHING_LAG_MS) expect(e.smoothedMgdl).toBeNull();
      const late = generateEgvs(u, now - 3 * 3_600_000, now, now + SMOOTHING_LAG_MS);
      const byTime = new Map(late.map((e) => [e.systemMs, e]));
      let arrived = 0;
      for (const e of early) {
        const l = byTime.get(e.systemMs)!;
        expect(l.realtimeMgdl).toBe(e.realtimeMgdl);
        expect(l.trend).toBe(e.trend);
        if (e.smoothedMgdl !== null) expect(l.smoothedMgdl).toBe(e.smoothedMgdl);
        if (e.smoothedMgdl === null && l.smoothedMgdl !== null) arrived++;
      }
      // Exactly at systemMs + 15 min the value is there.
      const target = early.find((e) => e.systemMs > now - SMOOTHING_LAG_MS);
      if (target) {
        const at = generateEgvs(u, target.systemMs, target.systemMs, target.systemMs + SMOOTHING_LAG_MS)[0]!;
        const before = generateEgvs(
          u,
          target.systemMs,
          target.systemMs,
          target.systemMs + SMOOTHING_LAG_MS - 1,
        )[0]!;
        expect(before.smoothedMgdl).toBeNull();
        if (byTime.get(target.systemMs)!.smoothedMgdl !== null) expect(at.smoothedMgdl).not.toBeNull();
      }
      expect(arrived).toBeGreaterThanOrEqual(0);
    }
  });
});

describe("sentinels", () => {
  const history = (u: SandboxUser): SandboxEgv[] => generateEgvs(u, HISTORY_START_MS, NOW, NOW);

  it("39 (status low) and 401 (status high) occur; every other reading has status null", () => {
    let lows = 0;
    let highs = 0;
    let wrong = 0;
    for (const u of withData) {
      for (const e of history(u)) {
        if (e.realtimeMgdl === 39) {
          lows++;
          if (e.status !== "low") wrong++;
        } else if (e.realtimeMgdl === 401) {
          highs++;
          if (e.status !== "high") wrong++;
        } else if (e.status !== null || e.realtimeMgdl < 40 || e.realtimeMgdl > 400) wrong++;
      }
    }
    expect(wrong).toBe(0);
    expect(lows).toBeGreaterThan(0);
    expect(highs).toBeGreaterThan(0);
  }, 60_000);

  it("SandboxUser2 reads 39 on some nights in every 30 days", () => {
    const u = user("SandboxUser2");
    for (let k = 0; k < 6; k++) {
      const egvs = last30(u, NOW - k * 61 * DAY);
      const nights = new Set(
        egvs
          .filter((e) => e.realtimeMgdl === 39)
          .map((e) => Math.floor((e.displayMs - 12 * 3_600_000) / DAY)),
      );
      expect(nights.size).toBeGreaterThanOrEqual(2);
    }
  });
});

describe("glycemic profiles", () => {
  function lbgi(values: number[]): number {
    let s = 0;
    for (const v of values) {
      const f = 1.509 * (Math.log(v) ** 1.084 - 5.381);
      if (f < 0) s += 10 * f * f;
    }
    return s / values.length;
  }
  const values = (egvs: SandboxEgv[]) => egvs.map((e) => e.smoothedMgdl ?? e.realtimeMgdl);

  it("SandboxUser1 is well controlled: ≥ 80% in 70–180 in every 14 days", () => {
    for (let k = 0; k < 12; k++) {
      const end = NOW - k * 29 * DAY;
      const v = values(generateEgvs(user("SandboxUser1"), end - 14 * DAY, end, NOW));
      expect(v.filter((x) => x >= 70 && x <= 180).length / v.length).toBeGreaterThanOrEqual(0.8);
    }
  });

  it("SandboxUser2's LBGI is moderate or high (≥ 2.5) in every 14 days", () => {
    for (let k = 0; k < 12; k++) {
      const end = NOW - k * 29 * DAY;
      const egvs = generateEgvs(user("SandboxUser2"), end - 14 * DAY, end, NOW);
      const v = values(egvs);
      expect(lbgi(v)).toBeGreaterThanOrEqual(2.5);
      expect(v.filter((x) => x < 54).length).toBeGreaterThan(0);
    }
  });
});

describe("time zones", () => {
  const offsetMin = (e: SandboxEgv) => (e.displayMs - e.systemMs) / MIN;

  it("displayMs follows DST at home (New York −300 in January, −240 in July; Berlin +60/+120)", () => {
    const jan = Date.UTC(2026, 0, 20, 12);
    const jul = Date.UTC(2026, 6, 20, 12);
    const at = (name: string, t: number) => generateEgvs(user(name), t, t + 3_600_000, NOW).map(offsetMin);
    // SandboxUser1 is at home on these dates (its trips: 6 days every 30 from 2025-01-09).
    expect(new Set(at("SandboxUser1", jan))).toEqual(new Set([-300]));
    expect(new Set(at("SandboxUser1", jul))).toEqual(new Set([-240]));
    expect(new Set(at("SandboxUser2", jan))).toEqual(new Set([60]));
    expect(new Set(at("SandboxUser2", jul))).toEqual(new Set([120]));
    expect(new Set(at("SandboxUser3", jan))).toEqual(new Set([0]));
    expect(new Set(at("SandboxUser3", jul))).toEqual(new Set([60]));
  });

  it("the DST switch happens at the right instant (2026-03-08 08:00 UTC in Chicago)", () => {
    const egvs = generateEgvs(user("SandboxUser4"), Date.UTC(2026, 2, 8, 6), Date.UTC(2026, 2, 8, 10), NOW);
    for (const e of egvs) expect(offsetMin(e)).toBe(e.systemMs < Date.UTC(2026, 2, 8, 8) ? -360 : -300);
  });

  it("SandboxUser1: exactly one trip (≥ 6 h away and back) in every 30 days ending now", () => {
    const u = user("SandboxUser1");
    // Home is New York: −300 in standard time, −240 in daylight time.
    const homeOffsets = new Set([-300, -240]);
    let completeChecked = 0;
    for (let k = 0; k < 25; k++) {
      const now = NOW - k * 13 * DAY - k * 3_777_000;
      const egvs = last30(u, now);
      const away = egvs.map((e) => !homeOffsets.has(offsetMin(e)));
      let departures = 0;
      let returns = 0;
      for (let i = 1; i < egvs.length; i++) {
        if (!away[i - 1] && away[i]) departures++;
        if (away[i - 1] && !away[i]) returns++;
      }
      expect(departures).toBe(1);
      for (const e of egvs)
        if (!homeOffsets.has(offsetMin(e))) {
          const diffs = [...homeOffsets].map((h) => Math.abs(offsetMin(e) - h));
          expect(Math.min(...diffs)).toBeGreaterThanOrEqual(360);
        }
      // At home now (the trip is over): the whole trip lies in the window, and nothing else.
      if (!away.at(-1) && !away[0]) {
        expect(returns).toBe(1);
        completeChecked++;
      }
    }
    expect(completeChecked).toBeGreaterThan(10);
  });
});

describe("SandboxUser5 never meets the hypoglycemia-risk minimum data (spec 2.6)", () => {
  it("no window has enough days with ≥ 66% utilization", () => {
    const u = user("SandboxUser5");
    const egvs = generateEgvs(u, HISTORY_START_MS, NOW, NOW);
    for (const axis of ["system", "display"] as const) {
      const perDay = new Map<number, number>();
      for (const e of egvs) {
        const d = Math.floor((axis === "system" ? e.systemMs : e.displayMs) / DAY);
        perDay.set(d, (perDay.get(d) ?? 0) + 1);
      }
      const first = Math.floor(HISTORY_START_MS / DAY);
      const last = Math.floor(NOW / DAY);
      const good = (d: number) => ((perDay.get(d) ?? 0) / 288 >= 0.66 ? 1 : 0);
      const worn = [...perDay.keys()].length / (last - first + 1);
      expect(worn).toBeGreaterThan(0.2);
      expect(worn).toBeLessThan(0.45);
      for (const len of [12, 14, 19, 20, 21, 25, 30, 45, 60, 90]) {
        for (let s = first; s + len - 1 <= last; s++) {
          let n = 0;
          for (let d = s; d < s + len; d++) n += good(d);
          if (len < 20) expect(n).toBeLessThan(12);
          else expect(n).toBeLessThan(0.6 * len);
        }
      }
    }
  });
});

describe("SandboxUser6", () => {
  it("has no readings at all", () => {
    expect(generateEgvs(user("SandboxUser6"), HISTORY_START_MS, NOW, NOW)).toEqual([]);
  });
});

describe("speed", () => {
  it("90 days (logged, not asserted)", () => {
    const u = user("SandboxUser1");
    const start = NOW - 200 * DAY;
    clearDayCache();
    let t0 = performance.now();
    const first = generateEgvs(u, start, start + 90 * DAY, NOW);
    const uncached = performance.now() - t0;
    t0 = performance.now();
    const again = generateEgvs(u, start, start + 90 * DAY, NOW);
    const cached = performance.now() - t0;
    expect(again).toEqual(first);
    console.log(
      `90 days of SandboxUser1 (${first.length} readings): uncached ${uncached.toFixed(1)} ms, cached ${cached.toFixed(1)} ms`,
    );
  });
});
