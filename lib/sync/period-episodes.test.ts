import { describe, expect, it } from "vitest";
import { formatDateTime, MS_PER_MINUTE } from "@/lib/cgm/datetime";
import { periodMetrics } from "@/lib/metrics/report";
import { type EpisodeReading, periodEpisodes, periodOf } from "./period-episodes";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 2, 15, 3, 0); // 2026-03-15 03:00 UTC

describe("periodOf: the last 14 days on the patient's clock", () => {
  it("ends with the patient's today, counted from its midnight to now", () => {
    // UTC: the 15th, 03:00.
    expect(periodOf(NOW, 0)).toEqual({
      firstDay: "2026-03-02",
      lastDay: "2026-03-15",
      previousFirstDay: "2026-02-16",
      sensorWindow: { startMs: Date.UTC(2026, 2, 2), endMs: NOW },
    });
    // Five hours behind UTC it is still the 14th, 22:00, on the patient's clock.
    const behind = periodOf(NOW, -5 * HOUR);
    expect(behind).toMatchObject({
      firstDay: "2026-03-01",
      lastDay: "2026-03-14",
      previousFirstDay: "2026-02-15",
    });
    expect(behind.sensorWindow).toEqual({ startMs: Date.UTC(2026, 2, 1), endMs: Date.UTC(2026, 2, 14, 22) });
  });
});

// ---- Level 2 hypoglycaemia episodes (issue 14) ----

/** Readings every 5 minutes from `start` (the patient's clock, naive), one per value. */
function readingsFrom(start: string, values: readonly number[]): EpisodeReading[] {
  const t0 = Date.parse(`${start}Z`);
  return values.map((metricMgdl, i) => ({
    displayTime: formatDateTime(t0 + i * 5 * MS_PER_MINUTE),
    metricMgdl,
  }));
}

const steady = (n: number, v = 120) => Array.from({ length: n }, () => v);
const MARCH = { firstDay: "2026-03-02", lastDay: "2026-03-15" };

describe("periodEpisodes: the level 2 lows of the population view's period", () => {
  it("counts a low across midnight once (it cannot be summed from days)", () => {
    // 23:00 on the 5th to 01:00 on the 6th, below 54 from 23:40 to 00:20 (9 readings).
    const rows = readingsFrom("2026-03-05T23:00:00", [...steady(8), ...steady(9, 45), ...steady(8)]);
    const e = periodEpisodes(rows, MARCH);
    expect(e).toMatchObject({ ...MARCH, nValues: 25, hypoLevel2Count: 1 });
    // Each day alone would make two episodes of it.
    const byDay = ["2026-03-05", "2026-03-06"].map(
      (d) => periodEpisodes(rows, { firstDay: d, lastDay: d }).hypoLevel2Count,
    );
    expect(byDay).toEqual([1, 1]);
  });

  it("gives the summary API's count and rate for the same readings", () => {
    // Four days, a low each afternoon, one short dip (10 minutes) that is no episode, a 50-minute gap.
    const day = (d: string, lowMinutes: number) =>
      readingsFrom(`2026-03-${d}T00:00:00`, [
        ...steady(180),
        ...steady(lowMinutes / 5, 48),
        ...steady(288 - 180 - lowMinutes / 5),
      ]);
    const rows = [
      ...day("10", 30),
      ...day("11", 10),
      ...day("12", 60).filter((_, i) => i < 20 || i > 29),
      ...day("13", 15),
    ];
    const e = periodEpisodes(rows, MARCH);
    const summary = periodMetrics(
      rows.map((r) => ({ displayMs: Date.parse(`${r.displayTime}Z`), mgdl: r.metricMgdl })),
      0,
      1,
    ).episodes?.hypoLevel2;
    expect(e.hypoLevel2Count).toBe(3);
    expect(e.hypoLevel2Count).toBe(summary?.count);
    expect(e.hypoLevel2PerDay).toBe(summary?.perDay);
    expect(e.nValues).toBe(rows.length);
  });

  it("leaves out readings of other days, whatever it is given", () => {
    const before = readingsFrom("2026-03-01T12:00:00", [...steady(3), ...steady(6, 40), ...steady(3)]);
    const after = readingsFrom("2026-03-16T12:00:00", [...steady(3), ...steady(6, 40), ...steady(3)]);
    const inside = readingsFrom("2026-03-08T12:00:00", steady(12));
    expect(periodEpisodes([...before, ...inside, ...after], MARCH)).toMatchObject({
      nValues: 12,
      hypoLevel2Count: 0,
      hypoLevel2PerDay: 0,
    });
  });

  it("has no count where iglu stops: readings more than 45 minutes apart at the median", () => {
    const hourly = Array.from({ length: 10 }, (_, i) => ({
      displayTime: formatDateTime(Date.parse("2026-03-08T00:00:00Z") + i * 60 * MS_PER_MINUTE),
      metricMgdl: 40,
    }));
    expect(periodEpisodes(hourly, MARCH)).toMatchObject({
      nValues: 10,
      hypoLevel2Count: null,
      hypoLevel2PerDay: null,
      validGridMinutes: null,
    });
  });
});
