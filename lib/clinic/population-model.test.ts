import { describe, expect, it } from "vitest";
import { groupCounts, type PatientSource, periodOf, populationRow, statusOf } from "./population-model";
import { CONSENSUS_TRIAGE } from "./triage";

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
  ...over,
});

describe("periodOf: the last 14 days on the patient's clock", () => {
  it("ends with the patient's today, counted from its midnight to now", () => {
    // UTC: the 15th, 03:00.
    expect(periodOf(NOW, 0)).toEqual({
      firstDay: "2026-03-02",
      lastDay: "2026-03-15",
      previousFirstDay: "2026-02-16",
      sensorWindow: { startMs: Date.UTC(2026, 2, 2), endMs: NOW },
    });
    // Five hours behind UTC it is still the 14th, 22:00, on the patient's clock.
    const behind = periodOf(NOW, -5 * HOUR);
    expect(behind).toMatchObject({
      firstDay: "2026-03-01",
      lastDay: "2026-03-14",
      previousFirstDay: "2026-02-15",
    });
    expect(behind.sensorWindow).toEqual({ startMs: Date.UTC(2026, 2, 1), endMs: Date.UTC(2026, 2, 14, 22) });
  });
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
  /** 30 % of readings at 150 mg/dL and 70 % at 100, in both periods. */
  const period = (n: number) => ({
    n,
    veryLow: 0,
    low: 0,
    inRange: n,
    high: 0,
    veryHigh: 0,
    below63: 0,
    above140: n * 0.3,
    tightRange: n * 0.7,
    sum: n * 115,
    sumOfSquares: n * (0.3 * 150 ** 2 + 0.7 * 100 ** 2),
  });
  const sums = { lastSystemMs: NOW - HOUR, clockOffsetMs: 0, current: period(3780), previous: period(4032) };

  it("flags the same readings on the pregnancy goals where the standard goals flag nothing", () => {
    // 30 % at 150 mg/dL: in range 70–180, above the pregnancy range's 140 (goal: under 25 %).
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
