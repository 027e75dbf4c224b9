import { describe, expect, it } from "vitest";
import type { PeriodEpisodes } from "@/lib/sync/period-episodes";
import { CONSENSUS_TRIAGE } from "../domain/triage";
import { groupCounts, type PatientSource, populationRow, statusOf, weeklyEpisodes } from "./population-model";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 2, 15, 3, 0); // 2026-03-15 03:00 UTC

const patient = (over: Partial<PatientSource> = {}): PatientSource => ({
  id: "p1",
  name: "Ada",
  birthDate: null,
  connectionId: "c1",
  connectionStatus: "active",
  acceptedAt: new Date(NOW - 30 * 24 * HOUR),
  withdrawnAt: null,
  inviteExpiresAt: null,
  lastSyncAt: new Date(NOW - HOUR),
  hypoglycemiaRisk: "low",
  riskFetchedAt: new Date(NOW - 2 * HOUR),
  targetGroup: "standard",
  episodes: null,
  ...over,
});

describe("populationRow", () => {
  const sums = (n: number, inRange: number, previousInRange: number, previousN = 100) => ({
    lastSystemMs: NOW - 50 * HOUR,
    clockOffsetMs: 0,
    current: {
      n,
      veryLow: 0,
      low: 0,
      inRange,
      high: n - inRange,
      veryHigh: 0,
      below63: 0,
      above140: n - inRange,
      tightRange: Math.round(n / 4),
      sum: 150 * n,
      sumOfSquares: 22_500 * n,
    },
    previous: {
      n: previousN,
      veryLow: 0,
      low: 0,
      inRange: previousInRange,
      high: previousN - previousInRange,
      veryHigh: 0,
      below63: 0,
      above140: previousN - previousInRange,
      tightRange: 0,
      sum: 0,
      sumOfSquares: 0,
    },
  });

  it("measures a connected patient: metrics, previous time in range, days since data, flags", () => {
    // 13 days and 3 hours expect 3780 readings; 2646 present is 70 % exactly.
    const row = populationRow(patient(), sums(2646, 1852, 85), CONSENSUS_TRIAGE, NOW);
    expect(row.status).toBe("connected");
    expect(row.firstDay).toBe("2026-03-02");
    expect(row.metrics?.sensorActivePercent).toBeCloseTo(70, 10);
    // 1852 / 2646 = 69.99 %: in range below 70, and 15.01 points under the previous 85 %.
    expect(row.metrics?.timeInRanges?.inRange).toBeCloseTo(69.9924, 4);
    // 662 of 2646 readings in 70–140 (issue 14).
    expect(row.metrics?.timeInTightRange).toBeCloseTo((100 * 662) / 2646, 12);
    expect(row.metrics?.mean).toBe(150);
    expect(row.metrics?.cv).toBe(0);
    expect(row.metrics?.gmi).toBeCloseTo(3.31 + 0.02392 * 150, 10);
    expect(row.previousInRange).toBe(85);
    expect(row.daysSinceLastData).toBe(2);
    expect(row.flags).toEqual(["high", "inRange", "inRangeDrop"]);
    expect(row.hypoglycemiaRisk).toBe("low");
    expect(row.riskKnown).toBe(true);
    // The consensus goals, cumulative: 30 % above 180 misses "under 25%", 69.99 % misses "over 70%".
    expect(row.metrics?.goals.map((g) => [g.metric, g.met])).toEqual([
      ["timeAbove250", true],
      ["timeAbove180", false],
      ["timeInRange", false],
      ["timeBelow70", true],
      ["timeBelow54", true],
      ["cv", true],
    ]);
  });

  it("shows a patient to reconnect with the data synced so far", () => {
    const row = populationRow(
      patient({ connectionStatus: "needs_reconnect" }),
      sums(3000, 2200, 90),
      CONSENSUS_TRIAGE,
      NOW,
    );
    expect(row.status).toBe("reconnect_needed");
    expect(row.metrics?.nValues).toBe(3000);
    // 26.7 % above 180, and 73.3 % in range after 90 %.
    expect(row.flags).toEqual(["high", "inRangeDrop"]);
  });

  it("flags a synced patient without readings for sensor use only", () => {
    const row = populationRow(
      patient({ riskFetchedAt: null, hypoglycemiaRisk: null }),
      undefined,
      CONSENSUS_TRIAGE,
      NOW,
    );
    expect(row.metrics?.nValues).toBe(0);
    expect(row.metrics?.sensorActivePercent).toBe(0);
    expect(row.metrics?.timeInRanges).toBeNull();
    expect(row.daysSinceLastData).toBeNull();
    expect(row.flags).toEqual(["sensor"]);
    expect(row.riskKnown).toBe(false);
  });

  it("measures nobody invited, withdrawn or not yet synced", () => {
    for (const [p, status] of [
      [
        patient({
          connectionId: null,
          connectionStatus: null,
          acceptedAt: null,
          inviteExpiresAt: new Date(NOW + HOUR),
        }),
        "invited",
      ],
      [patient({ connectionId: null, connectionStatus: null, acceptedAt: null }), "invitation_expired"],
      [patient({ connectionId: null, connectionStatus: null }), "not_connected"],
      [patient({ connectionId: null, withdrawnAt: new Date(NOW - HOUR) }), "withdrawn"],
      [patient({ lastSyncAt: null }), "not_synced"],
    ] as const) {
      expect(statusOf(p, NOW)).toBe(status);
      const row = populationRow(p, undefined, CONSENSUS_TRIAGE, NOW);
      expect(row).toMatchObject({
        status,
        metrics: null,
        flags: [],
        hypoglycemiaRisk: null,
        riskKnown: false,
      });
    }
  });
});

describe("populationRow by the patient's target group", () => {
  /** 29 % of readings at 150 mg/dL and 71 % at 100, in both periods (over the 70 % in range goal). */
  const period = (n: number) => ({
    n,
    veryLow: 0,
    low: 0,
    inRange: n,
    high: 0,
    veryHigh: 0,
    below63: 0,
    above140: n * 0.29,
    tightRange: n * 0.71,
    sum: n * (0.29 * 150 + 0.71 * 100),
    sumOfSquares: n * (0.29 * 150 ** 2 + 0.71 * 100 ** 2),
  });
  const sums = { lastSystemMs: NOW - HOUR, clockOffsetMs: 0, current: period(3780), previous: period(4032) };

  it("flags the same readings on the pregnancy goals where the standard goals flag nothing", () => {
    // 29 % at 150 mg/dL: in range 70–180, above the pregnancy range's 140 (goal: under 25 %).
    const standard = populationRow(patient({ targetGroup: "standard" }), sums, CONSENSUS_TRIAGE, NOW);
    const pregnancy = populationRow(patient({ targetGroup: "pregnancy" }), sums, CONSENSUS_TRIAGE, NOW);
    expect(standard.flags).toEqual([]);
    expect(pregnancy.flags).toEqual(["high"]);
    expect(pregnancy.targetGroup).toBe("pregnancy");
    // The columns stay the consensus ranges, the same for both; their goal marks are the group's,
    // and pregnancy's in-range goal (63–140) is not the 70–180 column's, so it marks none there.
    expect({ ...pregnancy.metrics, goals: [] }).toEqual({ ...standard.metrics, goals: [] });
    expect(pregnancy.metrics?.goals.map((g) => [g.metric, g.met])).toEqual([
      ["timeAbove140", false],
      ["timeBelow63", true],
      ["timeBelow54", true],
    ]);
    expect(standard.metrics?.goals.every((g) => g.met)).toBe(true);
  });

  it("splits the consensus counts into the pregnancy bands", () => {
    expect(
      groupCounts(
        { ...period(100), veryLow: 2, low: 5, inRange: 80, high: 10, veryHigh: 3, below63: 4, above140: 30 },
        "pregnancy",
      ),
    ).toEqual({ veryLow: 2, low: 2, inRange: 66, high: 30, veryHigh: 0 });
  });
});

// ---- Level 2 hypoglycaemia episodes (issue 14) ----

const MARCH = { firstDay: "2026-03-02", lastDay: "2026-03-15" };

describe("weeklyEpisodes: shown only for the row's own days and readings", () => {
  const stored: PeriodEpisodes = {
    ...MARCH,
    nValues: 3000,
    hypoLevel2Count: 6,
    hypoLevel2PerDay: 6 / 10.5,
    validGridMinutes: 10.5 * 1440,
  };

  it("is the summary API's rate per day × 7, with the count and the days of sensor time", () => {
    const w = weeklyEpisodes(stored, MARCH, 3000);
    expect(w).toEqual({ state: "known", perWeek: (6 / 10.5) * 7, count: 6, sensorDays: 10.5 });
    expect(weeklyEpisodes({ ...stored, hypoLevel2Count: 0, hypoLevel2PerDay: 0 }, MARCH, 3000)).toMatchObject(
      {
        perWeek: 0,
        count: 0,
      },
    );
  });

  it("waits for the next sync when the count is of other days or other readings, or not made yet", () => {
    expect(weeklyEpisodes(null, MARCH, 3000)).toEqual({ state: "pending" });
    expect(weeklyEpisodes(stored, { firstDay: "2026-03-03", lastDay: "2026-03-16" }, 3000)).toEqual({
      state: "pending",
    });
    expect(weeklyEpisodes(stored, MARCH, 3001)).toEqual({ state: "pending" });
  });

  it("says when no count can be made, and shows nothing without readings", () => {
    const sparse = { ...stored, hypoLevel2Count: null, hypoLevel2PerDay: null, validGridMinutes: null };
    expect(weeklyEpisodes(sparse, MARCH, 3000)).toEqual({ state: "sparse" });
    expect(weeklyEpisodes(stored, MARCH, 0)).toBeNull();
  });

  it("reaches the row of its own patient", () => {
    const counts = {
      n: 3000,
      veryLow: 0,
      low: 0,
      inRange: 3000,
      high: 0,
      veryHigh: 0,
      below63: 0,
      above140: 0,
      tightRange: 0,
      sum: 3000 * 100,
      sumOfSquares: 3000 * 100 ** 2,
    };
    const sums = { lastSystemMs: NOW - HOUR, clockOffsetMs: 0, current: counts, previous: counts };
    const row = populationRow(patient({ episodes: stored }), sums, CONSENSUS_TRIAGE, NOW);
    expect(row.veryLowEpisodes).toMatchObject({ state: "known", count: 6 });
    // Stored for the days before the patient's clock turned: a day later, another period.
    const later = populationRow(patient({ episodes: stored }), sums, CONSENSUS_TRIAGE, NOW + 24 * HOUR);
    expect(later.veryLowEpisodes).toEqual({ state: "pending" });
    const invited = populationRow(
      patient({ connectionId: null, connectionStatus: null, acceptedAt: null, episodes: stored }),
      undefined,
      CONSENSUS_TRIAGE,
      NOW,
    );
    expect(invited.veryLowEpisodes).toBeNull();
  });
});
