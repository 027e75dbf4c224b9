import { describe, expect, it } from "vitest";
import { MS_PER_DAY, parseDateTime, type StatisticsV2Request, secondsOfDay } from "@/lib/cgm";
import { computeStatisticsV1, computeStatisticsV2, type ServedEgv } from "@/lib/metrics/service-statistics";
import {
  assembleResults,
  dayShare,
  FILLER_NAME,
  isolationRequests,
  isWholeDay,
  percentsOf,
  planStatistics,
  restOfDay,
  servicePercentsOf,
  summarizeWindow,
  totalOf,
  windowCounts,
} from "./model";
import { checkStatisticsRequest, requestFromWindows, targetRangeV2 } from "./windows";

const START = parseDateTime("2026-10-01T00:00:00")!;
const DAYS = 3;
const END = START + DAYS * MS_PER_DAY;

/** Every 5 minutes for three days, display = system, values sweeping 39…401 so every group is hit. */
const EGVS: ServedEgv[] = Array.from({ length: (DAYS * MS_PER_DAY) / 300_000 }, (_, i) => {
  const t = START + i * 300_000;
  return { systemMs: t, displayMs: t, value: 39 + ((i * 37) % 363) };
});

const BODY: StatisticsV2Request = {
  targetRanges: [
    targetRangeV2("Morning", "06:00:00", "12:00:00", { urgentLow: 54, low: 70, high: 180 }),
    targetRangeV2("Afternoon", "12:00:00", "22:00:00", { urgentLow: 60, low: 80, high: 160 }),
    targetRangeV2("Night", "22:00:00", "06:00:00", { urgentLow: 50, low: 90, high: 200 }),
  ],
};

const v2 = (request: StatisticsV2Request) =>
  computeStatisticsV2({
    egvs: EGVS,
    calibrationCount: 0,
    unit: "mg/dL",
    windowStartMs: START,
    windowEndMs: END,
    request,
  });

/** The window's counts by hand: its readings by displayTime, judged with its bounds. */
function direct(i: number) {
  const r = BODY.targetRanges[i]!;
  const [u, l, h] = r.egvRanges.map((e) => e.bound) as [number, number, number];
  const start = parseTime(r.startTime);
  const end = parseTime(r.endTime);
  const inside = (s: number) => (start < end ? s >= start && s < end : s >= start || s < end);
  const values = EGVS.filter((e) => inside(secondsOfDay(e.displayMs))).map((e) => e.value);
  return {
    values,
    v2: {
      urgentLow: values.filter((v) => v < u).length,
      below: values.filter((v) => v >= u && v < l).length,
      within: values.filter((v) => v >= l && v <= h).length,
      above: values.filter((v) => v > h).length,
    },
    v1: {
      urgentLow: null,
      below: values.filter((v) => v < l).length,
      within: values.filter((v) => v >= l && v <= h).length,
      above: values.filter((v) => v > h).length,
    },
  };
}

function parseTime(t: string) {
  const [h, m, s] = t.split(":").map(Number) as [number, number, number];
  return h * 3600 + m * 60 + s;
}

describe("the filler: the rest of the day", () => {
  it("runs from the window's end to its start, midnight for an end of 23:59:59", () => {
    expect(restOfDay({ startTime: "06:00:00", endTime: "22:00:00" })).toEqual({
      startTime: "22:00:00",
      endTime: "06:00:00",
    });
    expect(restOfDay({ startTime: "22:00:00", endTime: "06:00:00" })).toEqual({
      startTime: "06:00:00",
      endTime: "22:00:00",
    });
    expect(restOfDay({ startTime: "06:00:00", endTime: "23:59:59" })).toEqual({
      startTime: "00:00:00",
      endTime: "06:00:00",
    });
  });

  it("makes requests the service accepts, for every window of a valid set", () => {
    for (const version of ["v1", "v2"] as const) {
      for (let i = 0; i < BODY.targetRanges.length; i++) {
        const requests = isolationRequests(version, BODY, i);
        expect(requests).toHaveLength(2);
        for (const r of requests) {
          expect(checkStatisticsRequest(version, r).ok).toBe(true);
          expect(r.targetRanges[1]!.name).toBe(FILLER_NAME);
        }
      }
    }
    const late = {
      targetRanges: [
        targetRangeV2("Until midnight", "06:00:00", "23:59:59", { urgentLow: 1, low: 2, high: 3 }),
      ],
    };
    expect(checkStatisticsRequest("v2", isolationRequests("v2", late, 0)[0]).ok).toBe(true);
  });

  it("is not needed for a whole-day window: one request, the window alone", () => {
    expect(isWholeDay({ startTime: "00:00:00", endTime: "00:00:00" })).toBe(true);
    expect(isWholeDay({ startTime: "07:30:00", endTime: "07:30:00" })).toBe(true);
    expect(isWholeDay({ startTime: "00:00:00", endTime: "23:59:59" })).toBe(true);
    expect(isWholeDay({ startTime: "06:00:00", endTime: "22:00:00" })).toBe(false);
    const whole = requestFromWindows(
      [
        {
          name: "All",
          startTime: "00:00:00",
          endTime: "00:00:00",
          urgentLowMgdl: 54,
          lowMgdl: 70,
          highMgdl: 180,
        },
      ],
      "mg/dL",
    );
    expect(isolationRequests("v2", whole, 0)).toEqual([whole]);
  });
});

describe("a window's counts, isolated from the service's answers", () => {
  it("v2: equal counting the window's own readings with its own bounds (the sandbox's engine answers)", () => {
    for (let i = 0; i < BODY.targetRanges.length; i++) {
      const answers = isolationRequests("v2", BODY, i).map(v2);
      const counts = windowCounts(answers);
      expect(counts).toEqual(direct(i).v2);
      expect(totalOf(counts)).toBe(direct(i).values.length);
    }
  });

  it("v1: likewise, with low as min and high as max", () => {
    for (let i = 0; i < BODY.targetRanges.length; i++) {
      const answers = isolationRequests("v1", BODY, i).map((request) =>
        computeStatisticsV1({
          egvs: EGVS,
          calibrationCount: 0,
          unit: "mg/dL",
          windowStartMs: START,
          windowEndMs: END,
          request,
        }),
      );
      expect(windowCounts(answers)).toEqual(direct(i).v1);
    }
  });

  it("the windows' counts add up to the service's answer for all of them together", () => {
    const plan = planStatistics("v2", BODY);
    const together = v2(plan.together);
    const perWindow = plan.perWindow.map((rs) => rs.map(v2));
    const sums = perWindow.map(windowCounts).reduce((a, c) => ({
      urgentLow: (a.urgentLow ?? 0) + (c.urgentLow ?? 0),
      below: a.below + c.below,
      within: a.within + c.within,
      above: a.above + c.above,
    }));
    expect(sums).toEqual({
      urgentLow: together.nUrgentLow,
      below: together.nBelowRange,
      within: together.nWithinRange,
      above: together.nAboveRange,
    });
  });
});

describe("percentages", () => {
  it("of the window's own readings; none without readings", () => {
    expect(percentsOf({ urgentLow: 1, below: 1, within: 2, above: 0 })).toEqual({
      urgentLow: 25,
      below: 25,
      within: 50,
      above: 0,
    });
    expect(percentsOf({ urgentLow: null, below: 0, within: 0, above: 0 })).toBeNull();
  });

  it("of the service's answer: its own, or none when it had no readings", () => {
    const together = v2(BODY);
    expect(servicePercentsOf(together)?.within).toBe(together.percentWithinRange);
    expect(servicePercentsOf({ ...together, nValues: 0 })).toBeNull();
  });
});

describe("the dashboard's summary of a window's readings", () => {
  const readings = EGVS.map((e) => ({ displayMs: e.displayMs, mgdl: e.value }));

  it("takes the window's readings by displayTime: mean, median, SD as lib/metrics computes them", () => {
    const s = summarizeWindow(readings, BODY.targetRanges[2]!, END - START)!;
    const values = direct(2).values;
    expect(s.nValues).toBe(values.length);
    expect(s.meanMgdl).toBeCloseTo(values.reduce((a, v) => a + v, 0) / values.length, 9);
    const sorted = [...values].sort((a, b) => a - b);
    expect(s.medianMgdl).toBe(
      sorted.length % 2
        ? sorted[(sorted.length - 1) / 2]
        : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2,
    );
    const mean = s.meanMgdl;
    expect(s.sdMgdl).toBeCloseTo(
      Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length),
      9,
    );
  });

  it("sensor use: a full 5-minute grid is 100% of the window's hours; half of it 50%", () => {
    expect(dayShare({ startTime: "22:00:00", endTime: "06:00:00" })).toBeCloseTo(8 / 24, 12);
    expect(dayShare({ startTime: "00:00:00", endTime: "00:00:00" })).toBe(1);
    expect(summarizeWindow(readings, BODY.targetRanges[0]!, END - START)!.sensorUsePercent).toBe(100);
    const half = readings.filter((_, i) => i % 2 === 0);
    expect(summarizeWindow(half, BODY.targetRanges[0]!, END - START)!.sensorUsePercent).toBeCloseTo(50, 9);
  });

  it("is null for a window without readings", () => {
    expect(summarizeWindow([], BODY.targetRanges[0]!, END - START)).toBeNull();
  });
});

describe("assembleResults", () => {
  it("gives each window its service counts and the dashboard's summary, and the answer for all together", () => {
    const plan = planStatistics("v2", BODY);
    const readings = EGVS.map((e) => ({ displayMs: e.displayMs, mgdl: e.value }));
    const results = assembleResults(
      "v2",
      BODY,
      { together: v2(plan.together), perWindow: plan.perWindow.map((rs) => rs.map(v2)) },
      readings,
      END - START,
    );
    expect(results.windows.map((w) => w.name)).toEqual(["Morning", "Afternoon", "Night"]);
    expect(results.windows[1]!.bounds).toEqual({ urgentLow: 60, low: 80, high: 160 });
    for (const [i, w] of results.windows.entries()) {
      expect(w.counts).toEqual(direct(i).v2);
      expect(w.summary?.nValues).toBe(totalOf(w.counts));
    }
    expect(results.together.nValues).toBe(EGVS.length);
  });
});
