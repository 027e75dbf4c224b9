import { describe, expect, it } from "vitest";
import { cgmEpisodes } from "@/lib/metrics/episodes";
import { periodOf, reportPeriodSchema } from "../period/period";
import { periodDayCount } from "../period/period-days";
import { daysOfWear, periodSummary, summaryOf } from "./summary-model";

const MIN = 60_000;
const period = reportPeriodSchema.parse({ startDate: "2026-01-01T01:00:00", endDate: "2026-01-01T01:35:00" });
// 8 readings over 35 minutes: 100, three lows of 50 (a level 2 episode), then 150, 150, 190, 39.
const values = [100, 50, 50, 50, 150, 150, 190, 39];
const readings = values.map((mgdl, i) => {
  const t = Date.UTC(2026, 0, 1, 1) + i * 5 * MIN;
  return { t, displayMs: t, mgdl };
});

describe("summaryOf", () => {
  const s = summaryOf(period, readings, "standard");

  it("counts the period's days that hold a reading as days of wear", () => {
    expect(s.daysOfWear).toBe(1);
    expect(summaryOf(period, [], "standard").daysOfWear).toBe(0);
  });

  it("answers exactly the summary API's keys", () => {
    expect(Object.keys(s).sort()).toEqual(
      [
        "startDate",
        "endDate",
        "nValues",
        "sensorActivePercent",
        "mean",
        "sd",
        "cv",
        "gmi",
        "timeInRanges",
        "timeInTightRange",
        "gri",
        "griHypo",
        "griHyper",
        "griZone",
        "lbgi",
        "hbgi",
        "episodes",
        "daysOfWear",
        "targetGroup",
        "goals",
      ].sort(),
    );
  });

  it("time in tight range by hand: 100 only of the eight (150 and 190 above, 50s and 39 below)", () => {
    expect(s.timeInTightRange).toBe(12.5);
  });

  it("episodes are those of cgmEpisodes of the same readings", () => {
    expect(s.episodes).toEqual(cgmEpisodes(readings)!.episodes);
    expect(s.episodes!.hypoLevel2.count).toBe(1);
  });

  it("goals of the standard group, {metric, value, goal, met} only, judged by hand", () => {
    expect(s.targetGroup).toBe("standard");
    // Below 70: 50, 50, 50, 39 = 50 %; below 54 the same; above 180: 190 = 12.5 %; above 250: 0;
    // in range 70–180: 100, 150, 150 = 37.5 %.
    expect(s.goals.map(({ metric, value, goal, met }) => [metric, value, goal, met])).toEqual([
      ["timeAbove250", 0, 5, true],
      ["timeAbove180", 12.5, 25, true],
      ["timeInRange", 37.5, 70, false],
      ["timeBelow70", 50, 4, false],
      ["timeBelow54", 50, 1, false],
      ["cv", s.cv, 36, s.cv! <= 36],
    ]);
    for (const g of s.goals) expect(Object.keys(g).sort()).toEqual(["goal", "met", "metric", "value"]);
  });

  it("pregnancy judges on 63–140 and has no CV goal", () => {
    const p = summaryOf(period, readings, "pregnancy");
    expect(p.targetGroup).toBe("pregnancy");
    expect(p.goals.map((g) => g.metric)).toEqual([
      "timeAbove140",
      "timeInRange",
      "timeBelow63",
      "timeBelow54",
    ]);
    expect(p.goals.find((g) => g.metric === "timeAbove140")!.value).toBe(37.5);
  });

  it("a period without readings: no goals, zero episodes", () => {
    const empty = summaryOf(period, [], "standard");
    expect(empty.goals).toEqual([]);
    expect(empty.episodes!.hypoLevel1.count).toBe(0);
    expect(empty.timeInTightRange).toBeNull();
  });

  it("periodSummary is the summary without the group and the days of wear", () => {
    const { targetGroup: _, goals: __, daysOfWear: ___, ...rest } = s;
    expect(periodSummary(period, readings)).toEqual(rest);
  });
});

describe("daysOfWear", () => {
  /** Every 5 minutes from `startMs` to `endMs`, on a receiver `offsetH` hours from UTC. */
  const every5 = (startMs: number, endMs: number, offsetH = 0) => {
    const out: Array<{ t: number; displayMs: number; mgdl: number }> = [];
    for (let t = startMs; t <= endMs; t += 5 * MIN)
      out.push({ t, displayMs: t + offsetH * 3_600_000, mgdl: 120 });
    return out;
  };

  it("is 14 for an explicit 14-day window worn throughout, on a receiver behind UTC (was 15)", () => {
    // 18:00 UTC to 18:00 UTC fourteen days later: on Chicago's clock (UTC−6) the readings touch
    // 15 calendar dates (noon of the 1st to noon of the 15th), but the period has 14 days.
    const p = reportPeriodSchema.parse({ startDate: "2026-01-01T18:00:00", endDate: "2026-01-15T18:00:00" });
    const worn = every5(p.startMs, p.endMs, -6);
    expect(periodDayCount(p)).toBe(14);
    expect(daysOfWear(p, worn)).toBe(14);
    expect(summaryOf(p, worn, "standard").daysOfWear).toBe(14);
  });

  it("is 14 for 14 receiver days across the end of daylight saving (14 days and an hour)", () => {
    // Chicago, 2026-10-25 to 2026-11-07: 05:00 UTC (CDT midnight) to 05:59:59 UTC (CST midnight − 1 s).
    const p = {
      ...periodOf(Date.UTC(2026, 9, 25, 5), Date.UTC(2026, 10, 8, 6) - 1000),
      patientDays: { firstDay: "2026-10-25", lastDay: "2026-11-07" },
    };
    expect(periodDayCount(p)).toBe(14);
    expect(daysOfWear(p, every5(p.startMs, p.endMs))).toBe(14);
  });

  it("counts only the days with readings, and none outside the period", () => {
    const p = periodOf(Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 15));
    const some = [
      ...every5(Date.UTC(2026, 0, 2), Date.UTC(2026, 0, 2, 3)),
      ...every5(Date.UTC(2026, 0, 9, 23), Date.UTC(2026, 0, 10, 1)),
      { t: Date.UTC(2025, 11, 31), displayMs: 0, mgdl: 100 },
      { t: Date.UTC(2026, 0, 16), displayMs: 0, mgdl: 100 },
    ];
    expect(daysOfWear(p, some)).toBe(3);
    // The window's inclusive end is its last day's, not a 15th day.
    expect(daysOfWear(p, [{ t: p.endMs }])).toBe(1);
    expect(daysOfWear(p, [{ t: p.endMs }, { t: p.endMs - 1000 }])).toBe(1);
  });

  it("never exceeds the period's days, whatever its length", () => {
    for (const hours of [1, 23, 24, 25, 47, 48, 24 * 14, 24 * 14 + 1, 24 * 90]) {
      const p = periodOf(Date.UTC(2026, 0, 1, 7), Date.UTC(2026, 0, 1, 7) + hours * 3_600_000);
      const n = daysOfWear(p, every5(p.startMs, p.endMs, -6));
      // The period has as many days as the identity line and the file name say (period-days.ts).
      expect(n, `${hours} h`).toBe(Math.max(1, Math.round(hours / 24)));
      expect(n).toBeLessThanOrEqual(periodDayCount(p));
    }
  });
});
