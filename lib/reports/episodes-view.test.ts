import { describe, expect, it } from "vitest";
import { cgmEpisodes } from "@/lib/metrics/episodes";
import {
  episodeRule,
  episodeShortRule,
  episodesView,
  lowsAtNightText,
  meanGlucoseText,
} from "./episodes-view";

const MIN = 60_000;
/** Readings every 5 minutes from hh:mm on 2026-01-01 (receiver's clock). */
const every5 = (h: number, m: number, values: number[]) =>
  values.map((mgdl, i) => ({ displayMs: Date.UTC(2026, 0, 1, h, m) + i * 5 * MIN, mgdl }));
const up = [100, 100, 100];

describe("episodesView", () => {
  // 01:00 a level 2 low of three LOW readings (39), 08:00 a level 1 low of four at 65,
  // 12:00 a high of three at 260 (level 2 too).
  const readings = [
    ...every5(0, 55, [100, 39, 39, 39, ...up]),
    ...every5(1, 25, Array(79).fill(100)),
    ...every5(8, 0, [65, 65, 65, 65, ...up]),
    ...every5(8, 35, Array(47).fill(100)),
    ...every5(12, 30, [260, 260, 260, ...up]),
  ];
  const view = episodesView(cgmEpisodes(readings), "mg/dL")!;

  it("the overview's numbers: 2 lows, 1 at night, average (15 + 20) / 2 = 17.5 min; 1 level 2; 1 high", () => {
    expect(view.lows).toEqual({
      count: 2,
      atNight: 1,
      atNightPercent: 50,
      meanDurationMinutes: 17.5,
      veryLow: 1,
      extended: 0,
    });
    expect(view.highs).toEqual({ count: 1, meanDurationMinutes: 15, veryHigh: 1 });
  });

  it("rows in kind order; a mean of 39 reads LOW, never a number; highs have no night count", () => {
    expect(view.rows.map((r) => [r.kind, r.count, r.meanDurationText, r.meanGlucoseText, r.atNight])).toEqual(
      [
        ["hypoLevel1", 2, "18 min", "52 mg/dL", 1],
        ["hypoLevel2", 1, "15 min", "LOW", 1],
        ["hypoExtended", 0, null, null, 0],
        ["hyperLevel1", 1, "15 min", "260 mg/dL", null],
        ["hyperLevel2", 1, "15 min", "260 mg/dL", null],
      ],
    );
  });

  it("in mmol/L: rules and means in the unit on screen", () => {
    const mmol = episodesView(cgmEpisodes(readings), "mmol/L")!;
    expect(mmol.rows[0]!.rule).toBe("below 3.9 mmol/L for 15 min or more");
    expect(mmol.rows[3]!.meanGlucoseText).toBe("14.4 mmol/L");
    expect(episodeRule("hypoExtended", "mg/dL")).toBe("below 70 mg/dL for over 2 h");
  });

  it("the night share in words, of level 1 lows (level 2 inside them not counted twice)", () => {
    expect(lowsAtNightText(view.lows)).toBe("1 of 2 lows (50%) started at night");
    const one = episodesView(cgmEpisodes(every5(8, 0, [65, 65, 65, 65, ...up])), "mg/dL")!;
    expect(lowsAtNightText(one.lows)).toBe("0 of 1 low started at night");
    const none = episodesView(cgmEpisodes(every5(8, 0, [...up, ...up])), "mg/dL")!;
    expect(lowsAtNightText(none.lows)).toBeNull();
  });

  it("the printed AGP's short rules: the limit in the unit on screen, the unit left to the header", () => {
    expect(view.rows.map((r) => r.shortRule)).toEqual(["<70", "<54", "<70 over 2 h", ">180", ">250"]);
    expect(episodeShortRule("hypoLevel2", "mmol/L")).toBe("<3.0");
    expect(episodeShortRule("hyperLevel2", "mmol/L")).toBe(">13.9");
  });

  it("null where episodes cannot be computed", () => {
    expect(episodesView(null, "mg/dL")).toBeNull();
  });

  it("meanGlucoseText: 401 reads HIGH", () => {
    expect(meanGlucoseText(401, "mg/dL")).toBe("HIGH");
    expect(meanGlucoseText(70, "mmol/L")).toBe("3.9 mmol/L");
  });
});
