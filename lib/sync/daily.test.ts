import { describe, expect, it } from "vitest";
import { formatDateTime, MS_PER_DAY } from "@/lib/cgm/datetime";
import { metricValueMgdl } from "@/lib/cgm/values";
import { groupCounts, metricsOf } from "@/lib/clinic/views/population-model";
import { reportMetrics } from "@/lib/metrics/report";
import { TARGET_PRESETS, timeInBands } from "@/lib/metrics/targets";
import { rangePercentages } from "@/lib/metrics/time-in-ranges";
import {
  type DayRollup,
  dayRollups,
  type EgvForRollup,
  emptyReadingSums,
  type ReadingSums,
  systemWindowOf,
} from "./daily";

const at = (iso: string) => new Date(`${iso}Z`);
const egv = (systemTime: string, displayTime: string, value: number, extra: Partial<EgvForRollup> = {}) => ({
  systemTime: at(systemTime),
  displayTime,
  value,
  unit: "mg/dL" as const,
  status: null,
  ...extra,
});

describe("dayRollups", () => {
  it("counts, sums and squares per displayTime date, with the sentinels as 39 and 401", () => {
    // A patient 5 hours behind UTC: 03:00 UTC on the 2nd is still the 1st on their clock.
    const days = dayRollups([
      egv("2026-03-01T10:00:00", "2026-03-01T05:00:00", 100),
      egv("2026-03-01T10:05:00", "2026-03-01T05:05:00", 39, { status: "low" }),
      egv("2026-03-02T03:00:00", "2026-03-01T22:00:00", 181),
      egv("2026-03-02T05:05:00", "2026-03-02T00:05:00", 401, { status: "high" }),
      egv("2026-03-02T05:10:00", "2026-03-02T00:10:00", 54),
    ]);
    expect(days).toEqual([
      {
        day: "2026-03-01",
        n: 3,
        veryLow: 1,
        low: 0,
        inRange: 1,
        high: 1,
        veryHigh: 0,
        below63: 1,
        above140: 1,
        tightRange: 1, // 100; 39 and 181 are outside 70–140
        sum: 100 + 39 + 181, // 320
        sumOfSquares: 10_000 + 1_521 + 32_761, // 44,282
        lastSystemTime: at("2026-03-02T03:00:00"),
        lastDisplayTime: "2026-03-01T22:00:00",
      },
      {
        day: "2026-03-02",
        n: 2,
        veryLow: 0,
        low: 1,
        inRange: 0,
        high: 0,
        veryHigh: 1,
        below63: 1,
        above140: 1,
        tightRange: 0,
        sum: 455,
        sumOfSquares: 160_801 + 2_916, // 163,717
        lastSystemTime: at("2026-03-02T05:10:00"),
        lastDisplayTime: "2026-03-02T00:10:00",
      },
    ]);
  });

  it("counts below 63 and above 140 mg/dL on the pregnancy range's own edges (63 and 140 are in range)", () => {
    const values = [53, 62, 63, 140, 141, 401];
    const [day] = dayRollups(
      values.map((v, i) =>
        egv(`2026-03-01T10:${String(i * 5).padStart(2, "0")}:00`, "2026-03-01T10:00:00", v),
      ),
    );
    expect(day).toMatchObject({ n: 6, veryLow: 1, below63: 2, above140: 2 });
  });

  it("converts mmol/L to whole mg/dL and takes its sentinels as 39 and 401", () => {
    const [day] = dayRollups([
      egv("2026-03-01T10:00:00", "2026-03-01T10:00:00", 5.5, { unit: "mmol/L" }),
      egv("2026-03-01T10:05:00", "2026-03-01T10:05:00", 2.2, { unit: "mmol/L", status: "low" }),
      egv("2026-03-01T10:10:00", "2026-03-01T10:10:00", 22.3, { unit: "mmol/L", status: "high" }),
    ]);
    // 5.5 × 18.0182 = 99.1001 → 99 mg/dL.
    expect(metricValueMgdl(5.5, "mmol/L")).toBe(99);
    expect(day).toMatchObject({
      n: 3,
      veryLow: 1,
      inRange: 1,
      veryHigh: 1,
      tightRange: 1,
      sum: 99 + 39 + 401,
    });
  });
});

describe("systemWindowOf", () => {
  it("spans the written days' readings on systemTime, whatever the device clock's offset", () => {
    // Device clock 3 days ahead of the system clock.
    const w = systemWindowOf([egv("2026-03-01T10:00:00", "2026-03-04T10:00:00", 100)]);
    // Day 2026-03-04 runs from 03-01T00:00 to 03-02T00:00 in systemTime; two days either side.
    expect(w).toEqual({ from: at("2026-02-27T00:00:00"), to: at("2026-03-04T00:00:00") });
  });
});

/**
 * A deterministic 28-day series of one patient (a 5-minute grid with gaps, some sentinels), for
 * comparing the rollup's route to the metrics with lib/metrics applied to the readings themselves.
 */
function series(): EgvForRollup[] {
  const rows: EgvForRollup[] = [];
  const start = Date.UTC(2026, 1, 1, 0, 0);
  let seed = 7;
  const random = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  for (let t = start; t < start + 28 * MS_PER_DAY; t += 5 * 60_000) {
    if (random() < 0.15) continue; // sensor gaps
    const hour = ((t / 3_600_000) % 24) + 0;
    let value = Math.round(140 + 70 * Math.sin(hour / 3.8) + 40 * (random() - 0.5));
    if (random() < 0.01) value = 39;
    if (random() < 0.01) value = 401;
    value = Math.min(401, Math.max(39, value));
    const status = value === 39 ? "low" : value === 401 ? "high" : null;
    // Display clock: UTC+2.
    rows.push({
      systemTime: new Date(t),
      displayTime: formatDateTime(t + 2 * 3_600_000),
      value,
      unit: "mg/dL",
      status,
    });
  }
  return rows;
}

const addUp = (days: DayRollup[]): ReadingSums =>
  days.reduce(
    (s, d) => ({
      n: s.n + d.n,
      veryLow: s.veryLow + d.veryLow,
      low: s.low + d.low,
      inRange: s.inRange + d.inRange,
      high: s.high + d.high,
      veryHigh: s.veryHigh + d.veryHigh,
      below63: s.below63 + d.below63,
      above140: s.above140 + d.above140,
      tightRange: s.tightRange + d.tightRange,
      sum: s.sum + d.sum,
      sumOfSquares: s.sumOfSquares + d.sumOfSquares,
    }),
    emptyReadingSums(),
  );

describe("the rollup's metrics equal lib/metrics of the raw readings", () => {
  it("over the last 14 display days of a 28-day series", () => {
    const rows = series();
    const days = dayRollups(rows).filter((d) => d.day >= "2026-02-15" && d.day <= "2026-02-28");
    expect(days).toHaveLength(14);
    const fromRollup = metricsOf(addUp(days), {
      startMs: Date.UTC(2026, 1, 15),
      endMs: Date.UTC(2026, 2, 1),
    });
    const raw = rows
      .filter((r) => r.displayTime >= "2026-02-15" && r.displayTime < "2026-03-01")
      .map((r) => metricValueMgdl(r.value, r.unit, r.status));
    const expected = reportMetrics(raw, Date.UTC(2026, 1, 15), Date.UTC(2026, 2, 1));
    expect(fromRollup.nValues).toBe(expected.nValues);
    expect(fromRollup.nValues).toBeGreaterThan(3000);
    // Counts and integer sums are exact, so these are the very same numbers.
    expect(fromRollup.timeInRanges).toEqual(expected.timeInRanges);
    expect(fromRollup.timeInTightRange).toBe(expected.timeInTightRange);
    expect(fromRollup.timeInTightRange).toBeGreaterThan(0);
    expect(fromRollup.mean).toBe(expected.mean);
    expect(fromRollup.gmi).toBe(expected.gmi);
    expect(fromRollup.gri).toBe(expected.gri);
    expect(fromRollup.sensorActivePercent).toBe(expected.sensorActivePercent);
    // One-pass against two-pass variance: equal to rounding.
    expect(fromRollup.cv).toBeCloseTo(expected.cv ?? Number.NaN, 9);
    expect(expected.timeInRanges?.veryLow).toBeGreaterThan(0);
    expect(expected.timeInRanges?.veryHigh).toBeGreaterThan(0);
    // The pregnancy group's bands (63–140 mg/dL) from the rollup's counts, as lib/metrics finds them.
    const pregnancy = timeInBands(raw, TARGET_PRESETS.pregnancy.edges);
    expect(rangePercentages(groupCounts(addUp(days), "pregnancy"))).toEqual(pregnancy);
    expect(pregnancy?.low).toBeGreaterThan(0);
    expect(pregnancy?.high).toBeGreaterThan(0);
  });
});
