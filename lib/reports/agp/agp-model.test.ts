import { describe, expect, it } from "vitest";
import { formatDateTime, parseDateTime } from "@/lib/cgm/datetime";
import { TARGET_PRESETS } from "@/lib/metrics/targets";
import { goalLabel } from "@/lib/trace/goal-text";
import { lastDays, previousPeriod } from "../period/period";
import type { Reading } from "../period/readings";
import { bandRangeText, buildAgpReport, DAILY_PROFILE_DAYS, dailyProfiles } from "./agp-model";

const standard = TARGET_PRESETS.standard;
const pregnancy = TARGET_PRESETS.pregnancy;

/** A reading at a systemTime, its displayTime `offsetMinutes` later. */
function reading(systemTime: string, mgdl: number, offsetMinutes = 60): Reading {
  const t = parseDateTime(systemTime)!;
  const displayMs = t + offsetMinutes * 60_000;
  return { t, displayMs, displayTime: formatDateTime(displayMs), mgdl };
}

describe("band and goal labels", () => {
  it("reads as the AGP report writes them, in mg/dL", () => {
    const e = standard.edges;
    expect(
      ["veryHigh", "high", "inRange", "low", "veryLow"].map((k) => bandRangeText(k as never, e, "mg/dL")),
    ).toEqual(["above 250", "181–250", "70–180", "54–69", "below 54"]);
  });

  it("and in mmol/L, with the consensus's own mmol/L edges", () => {
    const e = standard.edges;
    expect(
      ["veryHigh", "high", "inRange", "low", "veryLow"].map((k) => bandRangeText(k as never, e, "mmol/L")),
    ).toEqual(["above 13.9", "10.1–13.9", "3.9–10.0", "3.0–3.8", "below 3.0"]);
  });

  it("gives pregnancy its 63–140 range and no very-high band", () => {
    expect(bandRangeText("inRange", pregnancy.edges, "mg/dL")).toBe("63–140");
    expect(bandRangeText("high", pregnancy.edges, "mg/dL")).toBe("above 140");
    expect(bandRangeText("low", pregnancy.edges, "mmol/L")).toBe("3.0–3.4");
    expect(pregnancy.goals.map((g) => goalLabel(g, pregnancy.edges, "mg/dL"))).toEqual([
      "Above 140 mg/dL",
      "63–140 mg/dL",
      "Below 63 mg/dL",
      "Below 54 mg/dL",
    ]);
  });
});

describe("dailyProfiles", () => {
  it("places readings by displayTime, breaks lines at gaps over 15 minutes, and keeps empty days", () => {
    const readings = [
      reading("2026-11-01T22:50:00", 100), // displayed 23:50 on 1 Nov
      reading("2026-11-01T23:00:00", 110), // 00:00 on 2 Nov
      reading("2026-11-01T23:05:00", 120),
      reading("2026-11-01T23:25:00", 130), // 20 minutes later: a new line
      reading("2026-11-03T10:00:00", 140), // 2 Nov ends without more; 3 Nov at 11:00
    ];
    const period = { ...lastDays(parseDateTime("2026-11-03T10:00:00")!, 3) };
    const days = dailyProfiles(period, readings, "mg/dL");
    expect(days.map((d) => [d.day, d.readings])).toEqual([
      ["2026-10-31", 0],
      ["2026-11-01", 1],
      ["2026-11-02", 3],
      ["2026-11-03", 1],
    ]);
    expect(days[2]!.lines).toEqual([
      [
        [0, 110],
        [5, 120],
      ],
      [[25, 130]],
    ]);
    expect(days[3]!.lines).toEqual([[[660, 140]]]);
  });

  it("starts at the period's first day even when the sensor started later", () => {
    // 7 days up to 14 Nov 12:00 (displayed 13:00): from 7 Nov; readings only on the last day.
    const period = lastDays(parseDateTime("2026-11-14T12:00:00")!, 7);
    const days = dailyProfiles(period, [reading("2026-11-14T11:00:00", 100)], "mg/dL");
    expect(days[0]!.day).toBe("2026-11-07");
    expect(days).toHaveLength(8);
    expect(days.at(-1)!.readings).toBe(1);
  });

  it("shows at most the last 14 days, with days without readings as empty days", () => {
    const readings = [reading("2026-10-01T12:00:00", 100), reading("2026-11-01T12:00:00", 100)];
    const days = dailyProfiles(lastDays(parseDateTime("2026-11-01T12:00:00")!, 90), readings, "mg/dL");
    expect(days).toHaveLength(DAILY_PROFILE_DAYS);
    expect(days[0]!.day).toBe("2026-10-19");
    expect(days.at(-1)!.day).toBe("2026-11-01");
    expect(days.filter((d) => d.readings > 0)).toHaveLength(1);
  });

  it("starts a new line where the clock jumps back (daylight saving ends)", () => {
    const readings = [reading("2026-11-01T00:55:00", 100, 60), reading("2026-11-01T01:00:00", 105, 0)];
    // 01:55 then 01:00 on the same day: joined, the line would run backwards.
    const period = lastDays(parseDateTime("2026-11-01T01:00:00")!, 1 / 24);
    expect(dailyProfiles(period, readings, "mg/dL")[0]!.lines).toHaveLength(2);
  });
});

describe("buildAgpReport", () => {
  const end = parseDateTime("2026-11-15T00:00:00")!;
  const period = lastDays(end, 14);
  // Every 5 minutes for 14 days: 50 mg/dL at 03:00–03:55 (displayed), 120 otherwise.
  const readings: Reading[] = [];
  for (let t = period.startMs; t <= period.endMs; t += 300_000) {
    const hour = new Date(t + 3_600_000).getUTCHours();
    readings.push(reading(formatDateTime(t), hour === 3 ? 50 : 120));
  }

  it("computes the panel from every reading and the chosen group's goals", () => {
    const report = buildAgpReport({
      period,
      readings,
      dataUnit: "mg/dL",
      unit: "mg/dL",
      preset: standard,
      previous: null,
    });
    // 14 × 288 + 1 readings; 14 × 12 are at 03:xx.
    expect(report.metrics.nValues).toBe(4033);
    const veryLow = (100 * 168) / 4033;
    expect(report.bands!.find((b) => b.key === "veryLow")!.percent).toBeCloseTo(veryLow, 10);
    expect(report.bands!.find((b) => b.key === "veryLow")!.minutesPerDay).toBe(60);
    const below54 = report.goals!.find((g) => g.label === "Below 54 mg/dL")!;
    expect(below54).toMatchObject({ goal: "under 1%", met: false });
    expect(report.goals!.find((g) => g.label === "70–180 mg/dL")!.met).toBe(true);
    // 14 × 24 h on systemTime, one hour ahead on the receiver: it touches 15 of the patient's days,
    // and the label counts the days it names.
    expect(report.period).toMatchObject({ firstDay: "2026-11-01", lastDay: "2026-11-15", days: 15 });
  });

  it("names in its label the days its daily profiles show", () => {
    // "The last 14 days": 14 days on the receiver's clock, ending on the newest reading's day.
    const days = { firstDay: "2026-11-02", lastDay: "2026-11-15" };
    const report = buildAgpReport({
      period: { ...period, patientDays: days },
      readings,
      dataUnit: "mg/dL",
      unit: "mg/dL",
      preset: standard,
      previous: null,
    });
    expect(report.period).toMatchObject({ ...days, days: 14 });
    const profiles = report.dailyProfiles.map((d) => d.day);
    expect([profiles[0], profiles.at(-1), profiles.length]).toEqual([days.firstDay, days.lastDay, 14]);
  });

  it("time in tight range and the episodes: one hour at 50 each night, 14 lows, all at night (issue 14)", () => {
    const report = buildAgpReport({
      period,
      readings,
      dataUnit: "mg/dL",
      unit: "mg/dL",
      preset: standard,
      previous: null,
    });
    // 120 is in 70–140; the 168 readings at 50 are not.
    expect(report.metrics.timeInTightRange).toBeCloseTo((100 * (4033 - 168)) / 4033, 10);
    // 03:00–03:55 on each of the 14 nights: 12 points of 5 minutes, 60 minutes, at 50 mg/dL.
    const low = { count: 14, meanDurationMinutes: 60, meanGlucose: 50 };
    expect(report.metrics.episodes!.hypoLevel1).toMatchObject(low);
    expect(report.metrics.episodes!.hypoLevel2).toMatchObject(low);
    expect(report.metrics.episodes!.hyperLevel1.count).toBe(0);
    expect(report.episodes!.lows).toEqual({
      count: 14,
      atNight: 14,
      atNightPercent: 100,
      meanDurationMinutes: 60,
      veryLow: 14,
      extended: 0,
    });
    expect(report.episodes!.rows[0]).toMatchObject({
      meanDurationText: "1 h",
      meanGlucoseText: "50 mg/dL",
      atNight: 14,
    });
  });

  it("draws the 03:00 dip in the profile and nowhere else", () => {
    const report = buildAgpReport({
      period,
      readings,
      dataUnit: "mg/dL",
      unit: "mg/dL",
      preset: standard,
      previous: null,
    });
    const at = (minute: number) => report.agp.find((p) => p?.minute === minute)!;
    expect(at(3 * 60 + 30)).toMatchObject({ p5: 50, p50: 50, p95: 50 });
    expect(at(12 * 60)).toMatchObject({ p5: 120, p50: 120, p95: 120 });
    // 02:45 sees 02:15–03:15: half its readings are 50 → median between, p95 = 120.
    expect(at(2 * 60 + 45).p95).toBe(120);
  });

  it("shows mmol/L when asked, with the same percentages", () => {
    const mg = buildAgpReport({
      period,
      readings,
      dataUnit: "mg/dL",
      unit: "mg/dL",
      preset: standard,
      previous: null,
    });
    const mmol = buildAgpReport({
      period,
      readings,
      dataUnit: "mg/dL",
      unit: "mmol/L",
      preset: standard,
      previous: null,
    });
    expect(mmol.bands!.map((b) => b.percent)).toEqual(mg.bands!.map((b) => b.percent));
    expect(mmol.meanText).toBe(((mg.metrics.mean ?? 0) / 18.0182).toFixed(1));
    expect(mmol.target).toEqual({ low: 3.9, high: 10 });
  });

  it("gives the GRI with its zone, and the previous period's beside it", () => {
    const before = previousPeriod(period);
    // The period before: 250 mg/dL (high, not very high) a third of the time, 120 otherwise: GRI 1.6 × 0.5 × 33.3 = 26.7, zone B.
    const earlier: Reading[] = [];
    for (let t = before.startMs, i = 0; t <= before.endMs; t += 300_000, i++) {
      earlier.push(reading(formatDateTime(t), i % 3 === 0 ? 250 : 120));
    }
    const report = buildAgpReport({
      period,
      readings,
      dataUnit: "mg/dL",
      unit: "mg/dL",
      preset: standard,
      previous: { period: before, readings: earlier },
    });
    // 168 of 4033 readings very low: hypo = 4.17 %, GRI = 3 × 4.17 = 12.5, zone A.
    const hypo = (100 * 168) / 4033;
    expect(report.gri.current).toEqual({ gri: 3 * hypo, hypoComponent: hypo, hyperComponent: 0, zone: "A" });
    const previous = report.gri.previous;
    if (previous === "unread") throw new Error("the previous period was given");
    const share = (100 * earlier.filter((r) => r.mgdl === 250).length) / earlier.length;
    expect(previous.index!.hyperComponent).toBeCloseTo(0.5 * share, 10);
    expect(previous.index!.zone).toBe("B");
    expect(previous.lastDay).toBe("2026-11-01");
    expect(
      buildAgpReport({ period, readings, dataUnit: "mg/dL", unit: "mg/dL", preset: standard, previous: null })
        .gri.previous,
    ).toBe("unread");
  });
});
