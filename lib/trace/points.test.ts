import { describe, expect, it } from "vitest";
import { type EgvV1, type EgvV2, formatDateTime, parseDateTime } from "@/lib/cgm";
import { toTracePoints } from "./points";

const v1 = (systemTime: string, value: number, extra: Partial<EgvV1> = {}): EgvV1 => ({
  systemTime,
  displayTime: formatDateTime(parseDateTime(systemTime)! - 5 * 3_600_000),
  value,
  status: null,
  trend: "flat",
  trendRate: 0.4,
  ...extra,
});

describe("toTracePoints", () => {
  it("orders newest-first input by systemTime and keeps displayTime as received", () => {
    const points = toTracePoints(
      [v1("2026-01-10T17:10:00", 130), v1("2026-01-10T17:05:00", 125), v1("2026-01-10T17:00:00", 120)],
      "mg/dL",
      "mg/dL",
    );
    expect(points.map((p) => p.t)).toEqual([
      Date.UTC(2026, 0, 10, 17, 0),
      Date.UTC(2026, 0, 10, 17, 5),
      Date.UTC(2026, 0, 10, 17, 10),
    ]);
    expect(points[0]).toEqual({
      t: Date.UTC(2026, 0, 10, 17),
      display: "2026-01-10T12:00:00",
      offsetMinutes: -300,
      value: 120,
      sentinel: null,
      trend: "flat",
      rate: 0.4,
    });
  });

  it("converts and rounds for the target unit", () => {
    const [a, b] = toTracePoints(
      [v1("2026-01-10T17:00:00", 180), v1("2026-01-10T17:05:00", 97, { trendRate: 1.8 })],
      "mg/dL",
      "mmol/L",
    );
    // 180 / 18.0182 = 9.9899 → 10.0; 97 / 18.0182 = 5.383 → 5.4; 1.8 / 18.0182 = 0.09990
    expect(a?.value).toBe(10);
    expect(b?.value).toBe(5.4);
    expect(b?.rate).toBeCloseTo(0.0999, 4);
    // 5.5 × 18.0182 = 99.1 → 99
    expect(toTracePoints([v1("2026-01-10T17:00:00", 5.5)], "mmol/L", "mg/dL")[0]?.value).toBe(99);
  });

  it("converts the rate from the envelope's rateUnit when it differs from unit", () => {
    const [p] = toTracePoints(
      [v1("2026-01-10T17:00:00", 100, { trendRate: 0.1 })],
      "mg/dL",
      "mg/dL",
      "mmol/L/min",
    );
    expect(p?.rate).toBeCloseTo(1.80182, 5);
    const [q] = toTracePoints(
      [v1("2026-01-10T17:00:00", 100, { trendRate: null, trend: null })],
      "mg/dL",
      "mg/dL",
    );
    expect(q?.rate).toBeNull();
    expect(q?.trend).toBeNull();
  });

  it("consumes value, which the spec makes equal to smoothedValue when there is one", () => {
    const smoothed: EgvV2 = { ...v1("2026-01-10T17:00:00", 120), realtimeValue: 117, smoothedValue: 120 };
    const realtime: EgvV2 = { ...v1("2026-01-10T17:05:00", 118), realtimeValue: 118, smoothedValue: null };
    expect(toTracePoints([smoothed, realtime], "mg/dL", "mg/dL").map((p) => p.value)).toEqual([120, 118]);
  });

  it("flags 39 and 401 as sentinels at the chart edge, in either unit", () => {
    const records = [v1("2026-01-10T17:00:00", 39), v1("2026-01-10T17:05:00", 401)];
    expect(toTracePoints(records, "mg/dL", "mg/dL").map((p) => [p.value, p.sentinel])).toEqual([
      [39, "low"],
      [401, "high"],
    ]);
    // 39 / 18.0182 → 2.2, 401 / 18.0182 → 22.3
    expect(toTracePoints(records, "mg/dL", "mmol/L").map((p) => [p.value, p.sentinel])).toEqual([
      [2.2, "low"],
      [22.3, "high"],
    ]);
  });

  it("trusts status in mmol/L, and reads a 2.2 without one as LOW (39 and 40 mg/dL both round to 2.2)", () => {
    const records = [
      v1("2026-01-10T17:00:00", 2.2, { status: "low" }),
      v1("2026-01-10T17:05:00", 22.3, { status: "high" }),
      v1("2026-01-10T17:10:00", 2.2),
    ];
    expect(toTracePoints(records, "mmol/L", "mg/dL").map((p) => [p.value, p.sentinel])).toEqual([
      [39, "low"],
      [401, "high"],
      [39, "low"],
    ]);
  });

  it("does not flag the ends of the measuring range", () => {
    const points = toTracePoints(
      [v1("2026-01-10T17:00:00", 40), v1("2026-01-10T17:05:00", 400)],
      "mg/dL",
      "mg/dL",
    );
    expect(points.map((p) => p.sentinel)).toEqual([null, null]);
  });

  it("skips records without a value", () => {
    const missing = { ...v1("2026-01-10T17:05:00", 0), value: null } as unknown as EgvV1;
    const points = toTracePoints([v1("2026-01-10T17:00:00", 100), missing], "mg/dL", "mg/dL");
    expect(points.map((p) => p.value)).toEqual([100]);
  });
});
