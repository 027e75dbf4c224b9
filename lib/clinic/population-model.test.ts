import { describe, expect, it } from "vitest";
import { type PatientSource, periodOf, populationRow, statusOf } from "./population-model";
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
