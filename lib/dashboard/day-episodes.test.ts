import { describe, expect, it } from "vitest";
import { toReadings } from "@/lib/cgm/reading";
import type { EgvsV2Response, EgvV2 } from "@/lib/cgm/schemas";
import { dayEpisodes } from "./day-episodes";

const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/** Readings every 5 minutes from `start` (receiver's clock, UTC−5), status LOW for 39. */
function egvs(start: string, values: number[], unit: EgvsV2Response["unit"] = "mg/dL"): EgvsV2Response {
  const t0 = Date.parse(`${start}Z`);
  const records = values.map(
    (value, i): EgvV2 => ({
      systemTime: iso(t0 + i * 5 * MIN + 300 * MIN),
      displayTime: iso(t0 + i * 5 * MIN),
      value,
      realtimeValue: value,
      smoothedValue: null,
      status: value === 39 ? "low" : null,
      trend: "flat",
      trendRate: 0,
    }),
  );
  return { unit, rateUnit: "mg/dL/min", egvs: records };
}

/** The day's episodes of a response's records, read once as readings (as buildDay does). */
const dayEpisodesOf = (day: string, response: EgvsV2Response, unit: EgvsV2Response["unit"]) =>
  dayEpisodes(day, toReadings(response.egvs, response.unit), unit);

const fill = (v: number, n: number) => Array<number>(n).fill(v);
// 23:00 on 31 Dec to 01:00 on 1 Jan: 100, then six lows of 60 from 23:50 to 00:15, then 100.
const crossing = egvs("2025-12-31T23:00:00", [...fill(100, 10), ...fill(60, 6), ...fill(100, 9)]);

describe("dayEpisodes", () => {
  it("an episode crossing midnight is listed on both days with its true start and end", () => {
    const expected = {
      kind: "hypoLevel1",
      name: "Level 1 low",
      durationText: "30 min",
      meanGlucoseText: "60 mg/dL",
      extremeLabel: "lowest",
      extremeText: "60 mg/dL",
    };
    expect(dayEpisodesOf("2026-01-01", crossing, "mg/dL")).toEqual([
      { ...expected, start: "Wed 31 Dec 23:50", end: "00:15", atNight: false },
    ]);
    expect(dayEpisodesOf("2025-12-31", crossing, "mg/dL")).toEqual([
      { ...expected, start: "23:50", end: "Thu 1 Jan 00:15", atNight: false },
    ]);
  });

  it("cut at midnight it would be wrong: the new day's readings alone give 15 minutes from 00:05", () => {
    const dayOnly = { ...crossing, egvs: crossing.egvs.filter((e) => e.displayTime >= "2026-01-01") };
    expect(dayEpisodesOf("2026-01-01", dayOnly, "mg/dL")).toMatchObject([
      { start: "00:05", end: "00:15", durationText: "15 min" },
    ]);
  });

  it("lows and highs in start order, a level 2 low inside its level 1; LOW never a number; night", () => {
    // 02:00: 100, three LOW (39) readings, 100 × 3; 14:00: three at 300, then 100 × 3.
    const night = egvs("2026-01-01T02:00:00", [100, 39, 39, 39, ...fill(100, 3)]);
    const day = egvs("2026-01-01T14:00:00", [300, 300, 300, ...fill(100, 3)]);
    // Readings 12 h apart at the median would be too sparse: fill the hours between.
    const between = egvs("2026-01-01T02:35:00", fill(100, 137));
    const list = dayEpisodesOf(
      "2026-01-01",
      { ...night, egvs: [...night.egvs, ...between.egvs, ...day.egvs] },
      "mg/dL",
    )!;
    expect(list.map((e) => [e.name, e.start, e.end, e.extremeText, e.meanGlucoseText, e.atNight])).toEqual([
      ["Level 1 low", "02:05", "02:15", "LOW", "LOW", true],
      ["Level 2 low", "02:05", "02:15", "LOW", "LOW", true],
      ["Level 1 high", "14:00", "14:10", "300 mg/dL", "300 mg/dL", false],
      ["Level 2 high", "14:00", "14:10", "300 mg/dL", "300 mg/dL", false],
    ]);
  });

  it("in mmol/L the glucose is written in mmol/L", () => {
    const list = dayEpisodesOf("2026-01-01", crossing, "mmol/L")!;
    expect(list[0]!.meanGlucoseText).toBe("3.3 mmol/L");
  });

  it("no episodes: an empty list; readings an hour apart: null", () => {
    expect(dayEpisodesOf("2026-01-01", egvs("2026-01-01T01:00:00", fill(100, 20)), "mg/dL")).toEqual([]);
    const hourly = egvs("2026-01-01T01:00:00", [60, 60, 60]);
    hourly.egvs.forEach((e, i) => {
      e.displayTime = `2026-01-01T0${1 + i}:00:00`;
    });
    expect(dayEpisodesOf("2026-01-01", hourly, "mg/dL")).toBeNull();
  });
});
