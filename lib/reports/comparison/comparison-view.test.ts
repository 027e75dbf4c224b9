import { describe, expect, it } from "vitest";
import { MS_PER_DAY, parseDateTime } from "@/lib/cgm/datetime";
import { reportMetrics } from "@/lib/metrics/report";
import { lastDays, previousPeriod } from "../period/period";
import type { Reading } from "../period/readings";
import { compareReadings } from "./comparison";
import {
  blockRows,
  changeWords,
  comparisonRows,
  formDates,
  parseComparisonRequest,
  periodDays,
  sensorShortfalls,
} from "./comparison-view";

const query = (q: Record<string, string>) => (name: string) => q[name];
const summary = (values: number[], startMs = 0, endMs = values.length * 300_000) => ({
  startDate: "2026-01-01T00:00:00",
  endDate: "2026-01-02T00:00:00",
  ...reportMetrics(values, startMs, endMs),
  episodes: null,
});
const row = (rows: ReturnType<typeof comparisonRows>, key: string) => rows.find((r) => r.key === key)!;

describe("parseComparisonRequest", () => {
  it("defaults to 14 days; takes days", () => {
    expect(parseComparisonRequest(query({}))).toEqual({ ok: true, value: { kind: "days", days: 14 } });
    expect(parseComparisonRequest(query({ days: "30" }))).toEqual({
      ok: true,
      value: { kind: "days", days: 30 },
    });
  });

  it("reads plain dates as the patient's days (receiver's clock), DateTimes as given", () => {
    const r = parseComparisonRequest(query({ startDate: "2026-11-01", endDate: "2026-11-14" }));
    expect(r).toEqual({
      ok: true,
      value: { kind: "patientDays", patientDays: { firstDay: "2026-11-01", lastDay: "2026-11-14" } },
    });
    const exact = parseComparisonRequest(
      query({ startDate: "2026-11-01T06:00:00", endDate: "2026-11-02T06:00:00" }),
    );
    expect(exact.ok && exact.value.kind === "dates" && exact.value.period.endDate).toBe(
      "2026-11-02T06:00:00",
    );
  });

  it("takes a period whose earlier period starts on the first readable day", () => {
    const r = parseComparisonRequest(query({ startDate: "2000-01-08", endDate: "2000-01-14" }));
    expect(r.ok).toBe(true);
    const exact = parseComparisonRequest(
      query({ startDate: "2000-01-08T00:00:00", endDate: "2000-01-14T23:59:59" }),
    );
    expect(exact.ok && exact.value.kind === "dates" && previousPeriod(exact.value.period).startDate).toBe(
      "2000-01-01T00:00:00",
    );
  });

  it("treats empty fields as absent", () => {
    expect(parseComparisonRequest(query({ startDate: "", endDate: "", days: "7" }))).toEqual({
      ok: true,
      value: { kind: "days", days: 7 },
    });
  });

  it.each([
    [{ days: "0" }, /at least 1 day/],
    [{ days: "91" }, /at most 90 days/],
    [{ days: "two" }, /whole number/],
    [{ startDate: "2026-11-01" }, /both a first and a last day/],
    [{ startDate: "2026-11-14", endDate: "2026-11-01" }, /must not be before the first/],
    [{ startDate: "2026-01-01", endDate: "2026-06-01" }, /at most 90 days/],
    [{ startDate: "2026-02-30", endDate: "2026-03-02" }, /not a date/],
    [{ startDate: "2026-11-01T00:00:00" }, /endDate is required/],
    // Both dates allowed, but the period compared with them starts before 2000: said in words.
    [
      { startDate: "2000-01-20", endDate: "2000-03-01" },
      /^the period before 2000-01-20, which this period is compared with, would start on 1999-12-09, before 2000-01-01; choose a later period$/,
    ],
    [{ startDate: "2000-01-07", endDate: "2000-01-13" }, /would start on 1999-12-31, before 2000-01-01/],
    [{ startDate: "2000-01-01T00:00:00", endDate: "2000-01-01T00:00:01" }, /would start on 1999-12-31/],
  ])("refuses %o with a message", (q, message) => {
    const r = parseComparisonRequest(query(q));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(message);
  });
});

describe("periods", () => {
  it("names lengths in whole days; the form offers whole days of the same length", () => {
    const p = lastDays(Date.UTC(2026, 10, 23, 13, 5), 14);
    expect(periodDays(p)).toBe(14);
    expect(formDates(p)).toEqual({ start: "2026-11-10", end: "2026-11-23" });
    // 2026-11-01T00:00:00 to 2026-11-14T23:59:59 is 14 days less a second: 14 days.
    const chosen = { startDate: "2026-11-01T00:00:00", endDate: "2026-11-14T23:59:59" };
    expect(
      periodDays({ startMs: parseDateTime(chosen.startDate)!, endMs: parseDateTime(chosen.endDate)! }),
    ).toBe(14);
    expect(formDates(chosen)).toEqual({ start: "2026-11-01", end: "2026-11-14" });
    // A period chosen as the patient's days offers those days, whatever its systemTime bounds.
    const days = { firstDay: "2026-11-10", lastDay: "2026-11-23" };
    const onClock = { ...lastDays(Date.UTC(2026, 10, 23, 19, 5), 14), patientDays: days };
    expect(periodDays(onClock)).toBe(14);
    expect(formDates(onClock)).toEqual({ start: "2026-11-10", end: "2026-11-23" });
  });
});

describe("comparisonRows", () => {
  // Earlier [100, 200] (in range 50 %, above 180 50 %), recent [100, 100, 100, 60] (in range 75 %,
  // below 70 25 %); means 150 and 90 mg/dL.
  const c = { earlier: summary([100, 200]), recent: summary([100, 100, 100, 60]) };
  const rows = comparisonRows(c, "mg/dL");

  it("time in range up 25 points: better", () => {
    expect(row(rows, "inRange")).toEqual({
      key: "inRange",
      label: "Time in range (70–180 mg/dL)",
      note: null,
      earlier: "50.0%",
      recent: "75.0%",
      change: { direction: "up", amount: "25.0 points", judgement: "better" },
    });
    expect(changeWords(row(rows, "inRange").change!)).toBe("up 25.0 points, better");
  });

  it("time in tight range: 100s are in 70–140, 200 and 60 are not; 50 % → 75 %, better (issue 14)", () => {
    expect(row(rows, "timeInTightRange")).toEqual({
      key: "timeInTightRange",
      label: "Time in tight range (70–140 mg/dL)",
      note: null,
      earlier: "50.0%",
      recent: "75.0%",
      change: { direction: "up", amount: "25.0 points", judgement: "better" },
    });
    expect(row(comparisonRows(c, "mmol/L"), "timeInTightRange").label).toBe(
      "Time in tight range (3.9–7.8 mmol/L)",
    );
  });

  it("time below 70 up: worse; above 180 down: better", () => {
    expect(row(rows, "belowRange")).toMatchObject({
      label: "Time below 70 mg/dL",
      note: "below 54 mg/dL included",
      change: { direction: "up", amount: "25.0 points", judgement: "worse" },
    });
    expect(row(rows, "aboveRange").change).toEqual({
      direction: "down",
      amount: "50.0 points",
      judgement: "better",
    });
  });

  it("the GRI with its zone: 40 is the top of B, 60 the top of C", () => {
    // Earlier: 50 % high → hyper 25, GRI 1.6 × 25 = 40. Recent: 25 % low → hypo 20, GRI 60.
    expect(row(rows, "gri")).toMatchObject({ earlier: "40.0 · zone B", recent: "60.0 · zone C" });
    expect(row(rows, "gri").change).toEqual({ direction: "up", amount: "20.0", judgement: "worse" });
  });

  it("the mean changes without a judgement, in the display unit", () => {
    expect(row(rows, "mean")).toMatchObject({ earlier: "150 mg/dL", recent: "90 mg/dL" });
    expect(row(rows, "mean").change).toEqual({ direction: "down", amount: "60 mg/dL", judgement: null });
    const mmol = comparisonRows(c, "mmol/L");
    // 150 / 18.0182 = 8.32 → 8.3; 90 → 4.99 → 5.0; difference 60 → 3.33 → 3.3.
    expect(row(mmol, "mean")).toMatchObject({ earlier: "8.3 mmol/L", recent: "5.0 mmol/L" });
    expect(row(mmol, "mean").change?.amount).toBe("3.3 mmol/L");
    expect(row(mmol, "inRange").label).toBe("Time in range (3.9–10.0 mmol/L)");
  });

  it("CV down is better; GMI is not judged", () => {
    expect(row(rows, "cv").change?.judgement).toBe("better");
    expect(row(rows, "gmi").change).toMatchObject({ direction: "down", judgement: null });
  });

  it("a change too small to call is stated but not judged", () => {
    // 1 of 200 readings below 70: +0.5 points, under the 1 point from which shares are judged.
    const small = comparisonRows(
      { earlier: summary(Array(200).fill(100)), recent: summary([...Array(199).fill(100), 60]) },
      "mg/dL",
    );
    expect(row(small, "belowRange").change).toEqual({
      direction: "up",
      amount: "0.5 points",
      judgement: null,
    });
    expect(row(small, "inRange").change).toEqual({
      direction: "down",
      amount: "0.5 points",
      judgement: null,
    });
  });

  it("a change that rounds to nothing is no change, neither better nor worse", () => {
    const same = comparisonRows({ earlier: summary([100, 200]), recent: summary([100, 200.2]) }, "mg/dL");
    expect(row(same, "mean").change).toEqual({ direction: "same", amount: "", judgement: null });
    expect(changeWords(row(same, "mean").change!)).toBe("no change");
    expect(row(same, "inRange").change).toEqual({ direction: "same", amount: "", judgement: null });
  });

  it("a mean below the measuring range is LOW, never 39", () => {
    const low = comparisonRows({ earlier: summary([39, 39]), recent: summary([100]) }, "mg/dL");
    expect(row(low, "mean").earlier).toBe("LOW");
    const high = comparisonRows({ earlier: summary([401]), recent: summary([100]) }, "mmol/L");
    expect(row(high, "mean").earlier).toBe("HIGH");
  });

  it("an empty period: no values, no changes (readings still counted)", () => {
    const e = comparisonRows({ earlier: summary([], 0, MS_PER_DAY), recent: summary([100]) }, "mg/dL");
    expect(row(e, "inRange")).toMatchObject({ earlier: null, recent: "100.0%", change: null });
    expect(row(e, "nValues")).toMatchObject({
      earlier: "0",
      recent: "1",
      change: { direction: "up", amount: "1" },
    });
  });
});

describe("sensorShortfalls", () => {
  it("names each period below 70 % sensor active time", () => {
    // 2 readings of 288 expected in a day: 0.7 %; 202 of 288: 70.1 %.
    const low = summary([100, 100], 0, MS_PER_DAY);
    const ok = summary(Array(202).fill(100), 0, MS_PER_DAY);
    expect(sensorShortfalls({ earlier: low, recent: ok })).toEqual([
      { which: "earlier", percent: (100 * 2) / 288 },
    ]);
    expect(sensorShortfalls({ earlier: ok, recent: ok })).toEqual([]);
    expect(sensorShortfalls({ earlier: low, recent: low }).map((s) => s.which)).toEqual([
      "earlier",
      "recent",
    ]);
  });
});

describe("blockRows", () => {
  it("time in range per block, the blocks' parts of the readings, and the contributions", () => {
    const at = (day: number, hour: number, mgdl: number): Reading => {
      const displayMs = Date.UTC(2026, 0, 10 + day, hour, 30);
      return { t: displayMs, displayTime: "", displayMs, mgdl };
    };
    const recent = lastDays(Date.UTC(2026, 0, 20), 14);
    const c = compareReadings(previousPeriod(recent), [at(-5, 1, 60), at(-5, 13, 120)], recent, [
      at(5, 1, 120),
      at(5, 13, 120),
    ]);
    const rows = blockRows(c.blocks);
    expect(rows).toHaveLength(8);
    expect(rows[0]).toEqual({
      label: "00:00–03:00",
      earlierInRange: 0,
      recentInRange: 100,
      earlierText: "0.0%",
      recentText: "100.0%",
      earlierWeight: "50.0%",
      recentWeight: "50.0%",
      contribution: "+50.0",
    });
    expect(rows[1]).toMatchObject({ earlierText: null, recentText: null, contribution: "0.0" });
  });
});
