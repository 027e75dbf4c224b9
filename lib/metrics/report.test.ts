import { describe, expect, it } from "vitest";
import { cgmEpisodes } from "./episodes";
import { periodMetrics, reportMetrics } from "./report";

describe("reportMetrics", () => {
  // One reading in each consensus band and both sentinels, over 30 minutes (6 expected readings).
  // Expected values computed by hand and re-checked in Python from the published formulas:
  //   mean = 994 / 6 = 165.667; SD (population) = 129.335; CV = 78.069 %;
  //   GMI = 3.31 + 0.02392 × 165.667 = 7.2727 %;
  //   bands: 39 very low, 54 low, 70 and 180 in range, 250 high, 401 very high → 1/6, 1/6, 2/6, 1/6, 1/6;
  //   GRI hypo = 16.667 + 0.8 × 16.667 = 30, hyper = 16.667 + 0.5 × 16.667 = 25,
  //   GRI = 3 × 30 + 1.6 × 25 = 130 → capped at 100;
  //   LBGI = 10.7365, HBGI = 14.5731 (Kovatchev, mean over all six readings).
  const values = [39, 54, 70, 180, 250, 401];
  const m = reportMetrics(values, 0, 30 * 60_000);

  it("counts readings and sensor use", () => {
    expect(m.nValues).toBe(6);
    expect(m.sensorActivePercent).toBe(100);
  });

  it("takes the sentinels as 39 and 401 in mean, SD, CV and GMI", () => {
    expect(m.mean).toBeCloseTo(165.6667, 4);
    expect(m.sd).toBeCloseTo(129.3351, 4);
    expect(m.cv).toBeCloseTo(78.0694, 4);
    expect(m.gmi).toBeCloseTo(7.27275, 5);
  });

  it("puts the band edges where the consensus does", () => {
    const third = 100 / 3;
    expect(m.timeInRanges!.veryLow).toBeCloseTo(third / 2, 10);
    expect(m.timeInRanges!.low).toBeCloseTo(third / 2, 10);
    expect(m.timeInRanges!.inRange).toBeCloseTo(third, 10);
    expect(m.timeInRanges!.high).toBeCloseTo(third / 2, 10);
    expect(m.timeInRanges!.veryHigh).toBeCloseTo(third / 2, 10);
  });

  it("caps GRI at 100 but not its components", () => {
    expect(m.griHypo).toBeCloseTo(30, 10);
    expect(m.griHyper).toBeCloseTo(25, 10);
    expect(m.gri).toBe(100);
  });

  it("time in tight range counts 70 and 140 in, 39 and 401 out: 70 and 180 of six → only 70, 1/6", () => {
    expect(m.timeInTightRange).toBeCloseTo(100 / 6, 10);
    expect(reportMetrics([70, 140, 141, 69], 0, 20 * 60_000).timeInTightRange).toBe(50);
  });

  it("names the GRI zone of the capped GRI: 100 is E; 0 is A", () => {
    expect(m.griZone).toBe("E");
    expect(reportMetrics([100, 120], 0, 10 * 60_000).griZone).toBe("A");
  });

  it("computes LBGI and HBGI over every reading", () => {
    expect(m.lbgi).toBeCloseTo(10.736458, 5);
    expect(m.hbgi).toBeCloseTo(14.5731, 4);
  });

  it("lowers only sensor use for gaps: half the expected readings, same other metrics", () => {
    const gappy = reportMetrics(values, 0, 60 * 60_000);
    expect(gappy.sensorActivePercent).toBe(50);
    expect(gappy.mean).toBe(m.mean);
    expect(gappy.timeInRanges).toEqual(m.timeInRanges);
  });

  it("gives nulls for a period without readings, and 0 % sensor use", () => {
    expect(reportMetrics([], 0, 14 * 86_400_000)).toEqual({
      nValues: 0,
      sensorActivePercent: 0,
      mean: null,
      sd: null,
      cv: null,
      gmi: null,
      timeInRanges: null,
      timeInTightRange: null,
      gri: null,
      griHypo: null,
      griHyper: null,
      griZone: null,
      lbgi: null,
      hbgi: null,
    });
  });
});

describe("periodMetrics", () => {
  const MIN = 60_000;
  // 01:00–01:35 on the patient's clock: 100, then 65 three times (a 15-minute level 1 low), then 100.
  const readings = [100, 65, 65, 65, 100, 100, 100].map((mgdl, i) => ({
    displayMs: Date.UTC(2026, 0, 1, 1) + i * 5 * MIN,
    mgdl,
  }));

  it("is the report metrics of the values plus the five kinds' episode statistics", () => {
    const p = periodMetrics(readings, 0, 35 * MIN);
    const { episodes, ...rest } = p;
    expect(rest).toEqual(
      reportMetrics(
        readings.map((r) => r.mgdl),
        0,
        35 * MIN,
      ),
    );
    expect(Object.keys(episodes!)).toEqual([
      "hypoLevel1",
      "hypoLevel2",
      "hypoExtended",
      "hyperLevel1",
      "hyperLevel2",
    ]);
    expect(episodes!.hypoLevel1).toEqual({
      count: 1,
      perDay: 1 / (35 / 60 / 24), // iglu's order of operations
      meanDurationMinutes: 15,
      meanGlucose: 65,
    });
    expect(episodes!.hypoLevel2).toEqual({ count: 0, perDay: 0, meanDurationMinutes: 0, meanGlucose: null });
    expect(episodes).toEqual(cgmEpisodes(readings)!.episodes);
  });

  it("has no episodes (null) where iglu stops: readings an hour apart", () => {
    const hourly = [60, 60, 60].map((mgdl, i) => ({ displayMs: i * 60 * MIN, mgdl }));
    expect(periodMetrics(hourly, 0, 120 * MIN).episodes).toBeNull();
  });

  it("no readings: zero episodes of each kind, not null", () => {
    expect(periodMetrics([], 0, MIN).episodes?.hyperLevel2).toEqual({
      count: 0,
      perDay: 0,
      meanDurationMinutes: 0,
      meanGlucose: null,
    });
  });
});
