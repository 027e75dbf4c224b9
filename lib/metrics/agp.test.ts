import { describe, expect, it } from "vitest";
import { AGP_MIN_READINGS, agpProfile } from "./agp";

const at = (h: number, m: number, s = 0) => h * 3600 + m * 60 + s;

describe("agpProfile", () => {
  it("has a point every 15 minutes of the day, null where no readings are near", () => {
    const points = agpProfile([]);
    expect(points).toHaveLength(96);
    expect(points.every((p) => p === null)).toBe(true);
  });

  it("takes type-7 percentiles of the readings within 30 minutes either side", () => {
    // Eleven readings 100, 110, …, 200 between 07:40 and 08:20: all inside the 08:00 window
    // [07:30, 08:30). Type 7 with n = 11: h = 10p, so p5 = 100 + 0.5 × 10 = 105, p25 = 125,
    // p50 = 150, p75 = 175, p95 = 195.
    const readings = Array.from({ length: 11 }, (_, i) => ({
      secondOfDay: at(7, 40 + 4 * i),
      mgdl: 100 + 10 * i,
    }));
    const eight = agpProfile(readings)[32]!;
    expect(eight).toEqual({ minute: 480, n: 11, p5: 105, p25: 125, p50: 150, p75: 175, p95: 195 });
  });

  it("counts the window's start in and its end out: [τ − 30 min, τ + 30 min)", () => {
    const start = Array.from({ length: 5 }, () => ({ secondOfDay: at(7, 30), mgdl: 90 }));
    const end = Array.from({ length: 5 }, () => ({ secondOfDay: at(8, 30), mgdl: 300 }));
    const eight = agpProfile([...start, ...end])[32]!;
    expect(eight.n).toBe(5);
    expect(eight.p95).toBe(90);
  });

  it("wraps around midnight: 23:50 readings count for the 00:00 point", () => {
    const readings = [
      ...Array.from({ length: 3 }, () => ({ secondOfDay: at(23, 50), mgdl: 80 })),
      ...Array.from({ length: 3 }, () => ({ secondOfDay: at(0, 10), mgdl: 120 })),
    ];
    const midnight = agpProfile(readings)[0]!;
    expect(midnight.n).toBe(6);
    // Sorted 80 80 80 120 120 120: median = (80 + 120) / 2.
    expect(midnight.p50).toBe(100);
    expect(agpProfile(readings)[95]!.n).toBe(6); // 23:45 sees both sides too
  });

  it(`needs ${AGP_MIN_READINGS} readings for a point`, () => {
    const few = Array.from({ length: AGP_MIN_READINGS - 1 }, () => ({ secondOfDay: at(12, 0), mgdl: 39 }));
    expect(agpProfile(few)[48]).toBeNull();
    const enough = [...few, { secondOfDay: at(12, 0), mgdl: 401 }];
    // Sentinels take part as 39 and 401: p95 of 39 ×4, 401 → h = 3.8, 39 + 0.8 × 362.
    expect(agpProfile(enough)[48]!.p95).toBeCloseTo(39 + 0.8 * 362, 10);
  });
});
