import { describe, expect, it } from "vitest";
import { cgmEpisodes } from "@/lib/metrics/episodes";
import { reportPeriodSchema } from "../period/period";
import { periodSummary, summaryOf } from "./summary-model";

const MIN = 60_000;
const period = reportPeriodSchema.parse({ startDate: "2026-01-01T01:00:00", endDate: "2026-01-01T01:35:00" });
// 8 readings over 35 minutes: 100, three lows of 50 (a level 2 episode), then 150, 150, 190, 39.
const values = [100, 50, 50, 50, 150, 150, 190, 39];
const readings = values.map((mgdl, i) => ({ displayMs: Date.UTC(2026, 0, 1, 1) + i * 5 * MIN, mgdl }));

describe("summaryOf", () => {
  const s = summaryOf(period, readings, "standard");

  it("counts the receiver-clock days that hold a reading as days of wear", () => {
    expect(s.daysOfWear).toBe(1);
    const twoDays = [...readings, { displayMs: Date.UTC(2026, 0, 3, 23, 59), mgdl: 120 }];
    expect(summaryOf(period, twoDays, "standard").daysOfWear).toBe(2);
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
