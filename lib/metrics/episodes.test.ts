import { describe, expect, it } from "vitest";
import {
  type ClockGlucose,
  cgmEpisodes,
  cleanReadings,
  type EpisodeRule,
  episodeRules,
  episodesInSegment,
  gridSegments,
  gridStepMinutes,
  interpolatedGrid,
  roundHalfEven,
  startsAtNight,
} from "./episodes";
import { median } from "./quantiles";

// Every expected number below is computed by hand from the spec (episodes-algorithm.md, iglu 4.3
// `episode_calculation` with its defaults); times are the patient's clock on the naive UTC axis.

const MIN = 60_000;
const DAY = 1440 * MIN;
/** 2026-01-01 00:00 on the patient's clock. */
const DAY1 = Date.UTC(2026, 0, 1);

/** "hh:mm" on day `day` (0 = the first day) as naive UTC ms. */
function clock(hhmm: string, day = 0): number {
  const [h, m] = hhmm.split(":").map(Number);
  return DAY1 + day * DAY + (h! * 60 + m!) * MIN;
}

/** Readings every 5 minutes from `start` ("hh:mm" on day 0, or ms). */
function every5(start: string | number, values: readonly number[]): ClockGlucose[] {
  const t0 = typeof start === "string" ? clock(start) : start;
  return values.map((mgdl, i) => ({ displayMs: t0 + i * 5 * MIN, mgdl }));
}

/** Readings at the given clock times on day 0. */
function at(...pairs: Array<[string, number]>): ClockGlucose[] {
  return pairs.map(([hhmm, mgdl]) => ({ displayMs: clock(hhmm), mgdl }));
}

const repeat = (value: number, n: number) => Array.from({ length: n }, () => value);
const UP = repeat(100, 3); // a recovery: 3 points ≥ 70 (and ≤ 180)

function episodesOf(readings: readonly ClockGlucose[]) {
  const result = cgmEpisodes(readings);
  if (result === null) throw new Error("expected a grid");
  return result;
}

describe("gridStepMinutes (2.1: the median spacing, rounded, made to fit the day)", () => {
  const spaced = (...minutes: number[]) => {
    const times = [0];
    for (const m of minutes) times.push(times[times.length - 1]! + m * MIN);
    return times;
  };
  it("a 5-minute CGM → 5", () => {
    expect(gridStepMinutes(spaced(5, 5, 5, 60, 5))).toBe(5);
  });
  it("rounds half to even like R: 2.5 → 2, 3.5 → 4", () => {
    expect(roundHalfEven(2.5)).toBe(2);
    expect(roundHalfEven(3.5)).toBe(4);
    expect(roundHalfEven(4.4)).toBe(4);
    expect(gridStepMinutes(spaced(2.5))).toBe(2);
    expect(gridStepMinutes(spaced(3.5))).toBe(4);
  });
  it("not a divisor of 1440: ≤ 20 to the nearest multiple of 5 (7 → 5, 11 → 10, 13 → 15), > 20 → 20", () => {
    expect(gridStepMinutes(spaced(7))).toBe(5);
    expect(gridStepMinutes(spaced(11))).toBe(10);
    expect(gridStepMinutes(spaced(13))).toBe(15);
    expect(gridStepMinutes(spaced(21))).toBe(20);
  });
  it("divisors of 1440 stay (9, 45)", () => {
    expect(gridStepMinutes(spaced(9))).toBe(9);
    expect(gridStepMinutes(spaced(45))).toBe(45);
  });
  it("null where iglu stops: a median over 45 minutes, a median that rounds to 0, fewer than two times", () => {
    expect(gridStepMinutes(spaced(46))).toBeNull();
    expect(gridStepMinutes(spaced(0.4))).toBeNull();
    expect(gridStepMinutes([0])).toBeNull();
    expect(gridStepMinutes([])).toBeNull();
  });
});

describe("cleanReadings (2.1)", () => {
  it("sorts by time and, of equal times, keeps the last in input order", () => {
    const clean = cleanReadings([
      { displayMs: clock("01:10"), mgdl: 3 },
      { displayMs: clock("01:05"), mgdl: 1 },
      { displayMs: clock("01:05"), mgdl: 2 },
      { displayMs: Number.NaN, mgdl: 4 },
      { displayMs: clock("01:15"), mgdl: Number.NaN },
    ]);
    expect(clean).toEqual([
      { displayMs: clock("01:05"), mgdl: 2 },
      { displayMs: clock("01:10"), mgdl: 3 },
    ]);
  });
});

describe("cleanReadings and gridStepMinutes on long series, as a straightforward reading of 2.1 gives them", () => {
  // The reference: a sorted copy, the last of equal times, the median of an array of spacings.
  const referenceClean = (readings: readonly ClockGlucose[]) => {
    const valid = readings.filter((r) => Number.isFinite(r.displayMs) && Number.isFinite(r.mgdl));
    const sorted = [...valid].sort((a, b) => a.displayMs - b.displayMs);
    return sorted.filter((r, i) => i === sorted.length - 1 || sorted[i + 1]!.displayMs !== r.displayMs);
  };
  const referenceStep = (times: readonly number[]) => {
    const m = median(times.slice(1).map((t, i) => (t - times[i]!) / MIN));
    if (m === null) return null;
    const dt0 = roundHalfEven(m);
    if (dt0 <= 0 || dt0 > 45) return null;
    if (1440 % dt0 === 0) return dt0;
    if (dt0 > 20) return 20;
    const r = dt0 % 5;
    return r <= 2 ? dt0 - r : dt0 + 5 - r;
  };
  // A deterministic pseudo-random series: 5-minute readings of three days, seconds of jitter.
  let seed = 17;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const series = Array.from({ length: 864 }, (_, i) => ({
    displayMs: DAY1 + i * 5 * MIN + Math.floor(random() * 30) * 1000,
    mgdl: 40 + Math.floor(random() * 300),
  }));
  const cases: Record<string, ClockGlucose[]> = {
    "in time order": series,
    "newest first": [...series].reverse(),
    "with repeated times": series.flatMap((r, i) => (i % 50 === 0 ? [r, { ...r, mgdl: r.mgdl + 1 }] : [r])),
    "the clock put back an hour": series.map((r, i) =>
      i < 400 ? r : { ...r, displayMs: r.displayMs - 60 * MIN },
    ),
    "with unreadable ones": series.map((r, i) => (i % 97 === 0 ? { ...r, mgdl: Number.NaN } : r)),
    shuffled: [...series].sort(() => random() - 0.5),
    "spaced 7 to 12 minutes": series.map((r, i) => ({ ...r, displayMs: DAY1 + i * (7 + (i % 6)) * MIN })),
  };
  it.each(Object.entries(cases))("%s", (_, readings) => {
    const clean = cleanReadings(readings);
    expect(clean).toEqual(referenceClean(readings));
    const times = clean.map((r) => r.displayMs);
    expect(gridStepMinutes(times)).toBe(referenceStep(times));
  });
  it("leaves the readings given as they were", () => {
    const shuffled = cases.shuffled!;
    const before = [...shuffled];
    cleanReadings(shuffled);
    expect(shuffled).toEqual(before);
  });
});

describe("interpolatedGrid (2.2)", () => {
  it("starts at 00:05 of the first day (k = 1), so the 00:00 reading is not a grid point", () => {
    const grid = interpolatedGrid(at(["00:00", 60], ["00:05", 80]), 5);
    expect(grid.times[0]).toBe(clock("00:05"));
    expect(grid.values[0]).toBe(80);
  });
  it("covers ceil(span in days + 1) days: a 5-minute span → 2 days, 576 points, last at 00:00 of day 3", () => {
    const grid = interpolatedGrid(at(["00:00", 60], ["00:05", 80]), 5);
    expect(grid.times).toHaveLength(576);
    expect(grid.times[575]).toBe(clock("00:00", 2));
  });
  it("is missing before the first reading and after the last", () => {
    const grid = interpolatedGrid(at(["01:00", 100], ["01:10", 120]), 5);
    const value = (hhmm: string) => grid.values[grid.times.indexOf(clock(hhmm))];
    expect(value("00:55")).toBeNull();
    expect([value("01:00"), value("01:05"), value("01:10")]).toEqual([100, 110, 120]);
    expect(value("01:15")).toBeNull();
  });
  it("spec example verbatim: 50 → 206 over 30 minutes gives exactly 76, 102, 128, 154, 180", () => {
    const grid = interpolatedGrid(at(["01:00", 50], ["01:30", 206]), 5);
    const i = grid.times.indexOf(clock("01:05"));
    expect(grid.values.slice(i, i + 5)).toEqual([76, 102, 128, 154, 180]);
  });
  it("readings off the grid: 100 at 01:02 and 50 at 01:07 give exactly 70 at 01:05", () => {
    const grid = interpolatedGrid(at(["01:02", 100], ["01:07", 50]), 5);
    expect(grid.values[grid.times.indexOf(clock("01:05"))]).toBe(70);
  });
  it("a gap of exactly 45 minutes is interpolated", () => {
    const grid = interpolatedGrid(at(["01:00", 60], ["01:45", 150]), 5);
    const i = grid.times.indexOf(clock("01:00"));
    expect(grid.values.slice(i, i + 10)).toEqual([60, 70, 80, 90, 100, 110, 120, 130, 140, 150]);
  });
  it("a gap of 50 minutes is missing strictly inside; its two readings keep their values", () => {
    const grid = interpolatedGrid(at(["01:00", 60], ["01:50", 160]), 5);
    const i = grid.times.indexOf(clock("01:00"));
    expect(grid.values.slice(i, i + 11)).toEqual([60, ...repeat(null as unknown as number, 9), 160]);
  });
});

describe("gridSegments (2.3)", () => {
  it("splits at every missing point", () => {
    expect(gridSegments([null, 1, 2, null, null, 3])).toEqual([
      { start: 1, values: [1, 2] },
      { start: 5, values: [3] },
    ]);
    expect(gridSegments([])).toEqual([]);
  });
});

describe("episodesInSegment (2.4: start and end runs of 3 points)", () => {
  const lv1: EpisodeRule = episodeRules(5).hypoLevel1;
  it("3 points below 70 start an episode, 2 do not", () => {
    expect(episodesInSegment([100, 65, 65, 65, ...UP], lv1)).toEqual([[1, 3]]);
    expect(episodesInSegment([100, 65, 65, ...UP], lv1)).toEqual([]);
  });
  it("70 itself is not below 70 (strict)", () => {
    expect(episodesInSegment([70, 70, 70], lv1)).toEqual([]);
  });
  it("2 points back ≥ 70 stay inside the episode; 3 end it, and are not part of it", () => {
    expect(episodesInSegment([65, 65, 65, 75, 75, 65, ...UP], lv1)).toEqual([[0, 5]]);
    expect(episodesInSegment([65, 65, 65, 75, 75, 75, 65, 65, 65], lv1)).toEqual([
      [0, 2],
      [6, 8],
    ]);
  });
  it("after an episode ends, a run of fewer than 3 below does not open another", () => {
    expect(episodesInSegment([65, 65, 65, ...UP, 65, 65, ...UP], lv1)).toEqual([[0, 2]]);
  });
  it("open at the segment's end: it closes at the last point, fewer than 3 trailing points ≥ 70 included", () => {
    expect(episodesInSegment([100, 65, 65, 65], lv1)).toEqual([[1, 3]]);
    expect(episodesInSegment([65, 65, 65, 100, 100], lv1)).toEqual([[0, 4]]);
  });
  it("extended hypoglycaemia starts on a run of 120/5 + 1 = 25 points", () => {
    const ext = episodeRules(5).hypoExtended;
    expect(ext.startPoints).toBe(25);
    expect(episodesInSegment([...repeat(65, 24), ...UP], ext)).toEqual([]);
    expect(episodesInSegment([...repeat(65, 25), ...UP], ext)).toEqual([[0, 24]]);
  });
});

describe("episodeRules (2.5)", () => {
  it("5-minute grid: 3 points to start and end, 25 to start extended; thresholds 70, 54, 180, 250", () => {
    const r = episodeRules(5);
    expect(r.hypoLevel1).toEqual({ direction: "hypo", threshold: 70, startPoints: 3, endPoints: 3 });
    expect(r.hypoLevel2).toEqual({ direction: "hypo", threshold: 54, startPoints: 3, endPoints: 3 });
    expect(r.hypoExtended).toEqual({ direction: "hypo", threshold: 70, startPoints: 25, endPoints: 3 });
    expect(r.hyperLevel1).toEqual({ direction: "hyper", threshold: 180, startPoints: 3, endPoints: 3 });
    expect(r.hyperLevel2).toEqual({ direction: "hyper", threshold: 250, startPoints: 3, endPoints: 3 });
  });
  it("a 9-minute grid: ceil(15/9) = 2 points; extended 120/9 + 1 ≈ 14.33, unrounded", () => {
    const r = episodeRules(9);
    expect(r.hypoLevel1.startPoints).toBe(2);
    expect(r.hypoExtended.startPoints).toBeCloseTo(14.333, 3);
  });
});

describe("cgmEpisodes: the minimum duration", () => {
  it("exactly 15 minutes: 3 readings below 70, 10 minutes first to last, are one 15-minute episode", () => {
    const r = episodesOf(every5("01:00", [100, 65, 65, 65, ...UP]));
    expect(r.episodes.hypoLevel1.count).toBe(1);
    expect(r.episodes.hypoLevel1.meanDurationMinutes).toBe(15);
    expect(r.episodes.hypoLevel1.meanGlucose).toBe(65);
    expect(r.lists.hypoLevel1[0]).toEqual({
      startMs: clock("01:05"),
      endMs: clock("01:15"),
      durationMinutes: 15,
      meanGlucose: 65,
    });
    // 7 valid grid points (01:00–01:30) = 35 minutes: 1 / (35 / 1440) episodes per day.
    expect(r.validGridMinutes).toBe(35);
    expect(r.episodes.hypoLevel1.perDay).toBeCloseTo(1440 / 35, 10);
  });
  it("10 minutes (2 readings below 70) is no episode", () => {
    const r = episodesOf(every5("01:00", [100, 65, 65, ...UP]));
    expect(r.episodes.hypoLevel1).toEqual({ count: 0, perDay: 0, meanDurationMinutes: 0, meanGlucose: null });
  });
});

describe("cgmEpisodes: the gap rule (45 minutes, strict)", () => {
  it("a gap of exactly 45 minutes is interpolated: 60 … 60 across it is one 50-minute episode", () => {
    const r = episodesOf(
      at(["01:00", 100], ["01:05", 60], ["01:50", 60], ["01:55", 100], ["02:00", 100], ["02:05", 100]),
    );
    expect(r.lists.hypoLevel1).toEqual([
      { startMs: clock("01:05"), endMs: clock("01:50"), durationMinutes: 50, meanGlucose: 60 },
    ]);
    expect(r.validGridMinutes).toBe(70); // 01:00–02:05, 14 points
  });
  it("a gap of 50 minutes is not: the same shape, 5 minutes longer, has no episode and 9 points fewer", () => {
    const r = episodesOf(
      at(["01:00", 100], ["01:05", 60], ["01:55", 60], ["02:00", 100], ["02:05", 100], ["02:10", 100]),
    );
    expect(r.episodes.hypoLevel1.count).toBe(0);
    expect(r.validGridMinutes).toBe(30); // 01:00, 01:05 and 01:55–02:10: 6 points
  });
  it("an episode reaching a gap ends at the last point before it and counts; after it one is counted again", () => {
    const r = episodesOf([
      ...every5("01:00", [100, 60, 60, 60]),
      // 01:15 → 02:05 is 50 minutes: 01:20–02:00 are missing.
      ...every5("02:05", [60, 60, 60, ...UP]),
    ]);
    expect(r.lists.hypoLevel1.map((e) => [e.startMs, e.endMs, e.durationMinutes])).toEqual([
      [clock("01:05"), clock("01:15"), 15],
      [clock("02:05"), clock("02:15"), 15],
    ]);
    // 4 + 6 valid points = 50 minutes: 2 / (50 / 1440) = 57.6 per day.
    expect(r.validGridMinutes).toBe(50);
    expect(r.episodes.hypoLevel1.perDay).toBeCloseTo(57.6, 10);
  });
});

describe("cgmEpisodes: an episode ending at a gap, its recovery cut short", () => {
  // 01:00 100, 01:05–01:15 three lows of 60, 01:20 and 01:25 back at 100: two points ≥ 70, one
  // short of the 3 that end an episode. Then nothing until the readings at 100 resume.
  const before = every5("01:00", [100, 60, 60, 60, 100, 100]);
  it("a 50-minute gap: the 2 points ≥ 70 before it stay in the episode, 5 points, (3·60 + 2·100) / 5 = 76", () => {
    const r = episodesOf([...before, ...every5("02:15", UP)]);
    expect(r.lists.hypoLevel1).toEqual([
      { startMs: clock("01:05"), endMs: clock("01:25"), durationMinutes: 25, meanGlucose: 76 },
    ]);
    expect(r.validGridMinutes).toBe(45); // 01:00–01:25 and 02:15–02:25: 6 + 3 points
  });
  it("a 45-minute gap is interpolated at 100: the recovery completes, the episode is the 3 lows", () => {
    const r = episodesOf([...before, ...every5("02:10", UP)]);
    expect(r.lists.hypoLevel1).toEqual([
      { startMs: clock("01:05"), endMs: clock("01:15"), durationMinutes: 15, meanGlucose: 60 },
    ]);
  });
});

describe("cgmEpisodes: the window's ends", () => {
  it("an episode touching the window's end closes at the last reading", () => {
    const r = episodesOf(every5("01:00", [100, 100, 100, 65, 65, 65]));
    expect(r.lists.hypoLevel1).toEqual([
      { startMs: clock("01:15"), endMs: clock("01:25"), durationMinutes: 15, meanGlucose: 65 },
    ]);
  });
  it("fewer than 3 points ≥ 70 at the window's end stay in the episode: 5 points, (3·65 + 2·100) / 5 = 79", () => {
    const r = episodesOf(every5("01:00", [65, 65, 65, 100, 100]));
    expect(r.lists.hypoLevel1).toEqual([
      { startMs: clock("01:00"), endMs: clock("01:20"), durationMinutes: 25, meanGlucose: 79 },
    ]);
  });
  it("an episode touching the window's start begins at the first reading", () => {
    const r = episodesOf(every5("01:00", [65, 65, 65, ...UP]));
    expect(r.lists.hypoLevel1[0]!.startMs).toBe(clock("01:00"));
    expect(r.episodes.hypoLevel1.count).toBe(1);
  });
  it("the first day's 00:00 reading is no grid point: 3 lows from 00:00 are 2 points, no episode", () => {
    const r = episodesOf(every5("00:00", [60, 60, 60, ...UP]));
    expect(r.episodes.hypoLevel1.count).toBe(0);
    expect(r.validGridMinutes).toBe(25); // 00:05–00:25
    // The same readings an hour later are an episode.
    expect(episodesOf(every5("01:00", [60, 60, 60, ...UP])).episodes.hypoLevel1.count).toBe(1);
  });
});

describe("cgmEpisodes: levels", () => {
  it("level 2 inside level 1: both counted, each with its own points", () => {
    const r = episodesOf(every5("01:00", [100, 65, 50, 50, 50, 65, ...UP]));
    expect(r.lists.hypoLevel1).toEqual([
      { startMs: clock("01:05"), endMs: clock("01:25"), durationMinutes: 25, meanGlucose: 56 },
    ]);
    expect(r.lists.hypoLevel2).toEqual([
      { startMs: clock("01:10"), endMs: clock("01:20"), durationMinutes: 15, meanGlucose: 50 },
    ]);
  });
  it("level 2 ends at 3 points ≥ 54 while level 1 goes on", () => {
    const r = episodesOf(every5("01:00", [50, 50, 50, 60, 60, 60, ...UP]));
    expect(r.lists.hypoLevel2.map((e) => e.durationMinutes)).toEqual([15]);
    expect(r.lists.hypoLevel1.map((e) => e.durationMinutes)).toEqual([30]);
  });
  it("54 is not level 2 (strict); the sentinel 39 is an ordinary value", () => {
    expect(episodesOf(every5("01:00", [54, 54, 54, ...UP])).episodes.hypoLevel2.count).toBe(0);
    expect(episodesOf(every5("01:00", [39, 39, 39, ...UP])).episodes.hypoLevel2.meanGlucose).toBe(39);
  });
  it("hyper: 181 is level 1, 180 is not; 251 is level 2 (and level 1), 250 is not; 401 is ordinary", () => {
    expect(episodesOf(every5("01:00", [181, 181, 181, ...UP])).episodes.hyperLevel1.count).toBe(1);
    expect(episodesOf(every5("01:00", [180, 180, 180, ...UP])).episodes.hyperLevel1.count).toBe(0);
    const lv2 = episodesOf(every5("01:00", [251, 251, 251, ...UP]));
    expect([lv2.episodes.hyperLevel2.count, lv2.episodes.hyperLevel1.count]).toEqual([1, 1]);
    expect(episodesOf(every5("01:00", [250, 250, 250, ...UP])).episodes.hyperLevel2.count).toBe(0);
    expect(episodesOf(every5("01:00", [401, 401, 401, ...UP])).episodes.hyperLevel2.meanGlucose).toBe(401);
  });
  it("spec example verbatim: 50 → 206 over 30 minutes is exactly 180 at +25, so 206, 206 are no hyper episode", () => {
    const r = episodesOf(
      at(["01:00", 50], ["01:30", 206], ["01:35", 206], ["01:40", 100], ["01:45", 100], ["01:50", 100]),
    );
    expect(r.episodes.hyperLevel1.count).toBe(0);
  });
});

describe("cgmEpisodes: extended hypoglycaemia (25 points, a 120-minute span)", () => {
  const run = (n: number) => episodesOf(every5("01:00", [100, ...repeat(65, n), ...UP]));
  it("24 points (115 minutes first to last): level 1 only", () => {
    const r = run(24);
    expect(r.episodes.hypoExtended.count).toBe(0);
    expect(r.episodes.hypoLevel1.meanDurationMinutes).toBe(120);
  });
  it("exactly 120 minutes first to last (25 points): extended, reported as 125 minutes", () => {
    const r = run(25);
    expect(r.episodes.hypoExtended).toMatchObject({ count: 1, meanDurationMinutes: 125, meanGlucose: 65 });
  });
  it("just over (26 points, 125 minutes): extended, 130 minutes", () => {
    expect(run(26).episodes.hypoExtended).toMatchObject({ count: 1, meanDurationMinutes: 130 });
  });
  it("one point at 70 splits the run: 12 + 13 below is no extended episode, one 130-minute level 1", () => {
    const r = episodesOf(every5("01:00", [...repeat(65, 12), 70, ...repeat(65, 13), ...UP]));
    expect(r.episodes.hypoExtended.count).toBe(0);
    expect(r.lists.hypoLevel1.map((e) => e.durationMinutes)).toEqual([130]);
  });
  it("once started it goes on through 2 points ≥ 70: 25 + 2 + 1 points = 140 minutes", () => {
    const r = episodesOf(every5("01:00", [...repeat(65, 25), 75, 75, 65, ...UP]));
    expect(r.lists.hypoExtended.map((e) => e.durationMinutes)).toEqual([140]);
  });
});

describe("cgmEpisodes: the summary (2.6)", () => {
  it("mean glucose weighs each episode the same: (60 + 40) / 2 = 50, not (3·60 + 6·40) / 9", () => {
    const r = episodesOf(every5("01:00", [60, 60, 60, ...UP, ...repeat(40, 6), ...UP]));
    expect(r.episodes.hypoLevel1).toMatchObject({ count: 2, meanDurationMinutes: 22.5, meanGlucose: 50 });
  });
  it("per day is over valid grid time: a full day of readings with one episode is 1.0 per day", () => {
    const values = repeat(100, 289); // 00:00 day 1 … 00:00 day 2
    values.splice(100, 3, 60, 60, 60);
    const r = episodesOf(every5("00:00", values));
    expect(r.validGridMinutes).toBe(1440); // 288 points, 00:05 … 00:00; not the 2 calendar days of the grid
    expect(r.episodes.hypoLevel1.perDay).toBe(1);
  });
  it("per day divides as iglu does, 1 / (11 · 5 / 60 / 24) = 26.181818181818183 (÷ 1440 at once: …18)", () => {
    const r = episodesOf(every5("01:00", [100, 65, 65, 65, ...repeat(100, 7)]));
    expect(r.validGridMinutes).toBe(55);
    expect(r.episodes.hypoLevel1.perDay).toBe(26.181818181818183);
  });
  it("per day excludes a 50-minute gap (9 points) and is not readings × 5", () => {
    const readings = every5("00:00", repeat(100, 289));
    readings.splice(100, 3, ...every5(readings[100]!.displayMs, [60, 60, 60]));
    // Drop the 9 readings 12:05–12:45: 12:00 → 12:50 is a 50-minute gap.
    const gapped = readings.filter((r) => r.displayMs < clock("12:05") || r.displayMs > clock("12:45"));
    expect(gapped).toHaveLength(280);
    const e = episodesOf(gapped);
    expect(e.validGridMinutes).toBe(279 * 5);
    expect(e.episodes.hypoLevel1.perDay).toBeCloseTo(1440 / 1395, 12);
  });
  it("equal times keep the last reading; unsorted input is sorted", () => {
    const readings = [
      ...every5("01:00", [100, 100]),
      { displayMs: clock("01:05"), mgdl: 65 }, // replaces 100 at 01:05
      ...every5("01:10", [65, 65, ...UP]),
    ];
    expect(episodesOf(readings).lists.hypoLevel1.map((e) => e.startMs)).toEqual([clock("01:05")]);
    expect(episodesOf([...readings].reverse()).episodes.hypoLevel1.count).toBe(0); // now 100 is last
  });
  it("empty input: no episodes, no valid time, no night share", () => {
    const r = episodesOf([]);
    for (const stats of Object.values(r.episodes)) {
      expect(stats).toEqual({ count: 0, perDay: 0, meanDurationMinutes: 0, meanGlucose: null });
    }
    expect(r.validGridMinutes).toBe(0);
    expect(r.stepMinutes).toBeNull();
    expect(r.nightHypo).toEqual({ count: 0, percent: null });
    expect(episodesOf(every5("01:00", [60])).episodes.hypoLevel1.count).toBe(0);
  });
  it("readings an hour apart: null, where iglu stops (median spacing over 45 minutes)", () => {
    expect(cgmEpisodes(at(["01:00", 60], ["02:00", 60], ["03:00", 60]))).toBeNull();
  });
});

describe("night: hypoglycaemia starting in [00:00, 06:00) on the patient's clock", () => {
  it("startsAtNight at the boundaries", () => {
    expect(startsAtNight(clock("00:00", 1))).toBe(true);
    expect(startsAtNight(clock("05:55", 1))).toBe(true);
    expect(startsAtNight(clock("06:00", 1))).toBe(false);
    expect(startsAtNight(clock("23:55"))).toBe(false);
  });
  it("an episode starting at 00:00 (day 2) is at night", () => {
    const r = episodesOf(every5(clock("23:50"), [100, 100, 65, 65, 65, ...UP]));
    expect(r.lists.hypoLevel1[0]!.startMs).toBe(clock("00:00", 1));
    expect(r.nightHypo).toEqual({ count: 1, percent: 100 });
  });
  it("one starting at 05:55 is at night, one at 07:10 is not (1 of 2 = 50 %); one starting at 06:00 is not", () => {
    const r = episodesOf([
      ...every5(clock("05:50", 1), [100, 65, 65, 65, ...UP]), // starts 05:55
      ...every5(clock("07:00", 1), [100, 100, 65, 65, 65, ...UP]), // 06:20 → 07:00 is a gap
    ]);
    expect(r.nightHypo).toEqual({ count: 1, percent: 50 });
    const six = episodesOf(every5(clock("05:50", 1), [100, 100, 65, 65, 65, ...UP]));
    expect(six.lists.hypoLevel1[0]!.startMs).toBe(clock("06:00", 1));
    expect(six.nightHypo).toEqual({ count: 0, percent: 0 });
  });
});
