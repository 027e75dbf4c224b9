import { describe, expect, it } from "vitest";
import { formatDateTime, MS_PER_MINUTE } from "@/lib/cgm";
import { expectedReadings, groupByDisplayDay, missingReadings } from "./days";
import { toTracePoints } from "./points";

const SPRING_FORWARD = Date.UTC(2026, 2, 8, 7);
const FALL_BACK = Date.UTC(2026, 10, 1, 6);
const eastern = (ms: number) => (ms >= SPRING_FORWARD && ms < FALL_BACK ? -240 : -300);

// Every 5-minute systemTime slot from fromMs to toMs, as US Eastern readings, newest first.
function day(fromMs: number, toMs: number) {
  const records = [];
  for (let ms = fromMs; ms < toMs; ms += 5 * MS_PER_MINUTE) {
    records.push({
      systemTime: formatDateTime(ms),
      displayTime: formatDateTime(ms + eastern(ms) * MS_PER_MINUTE),
      value: 110,
      status: null,
      trend: null,
      trendRate: null,
    });
  }
  return toTracePoints(records.reverse(), "mg/dL", "mg/dL");
}

describe("expectedReadings", () => {
  it("counts 5-minute slots of systemTime", () => {
    expect(expectedReadings(0, 24 * 3_600_000)).toBe(288);
    expect(expectedReadings(0, 7 * MS_PER_MINUTE)).toBe(1);
    expect(expectedReadings(10, 5)).toBe(0);
  });
});

describe("groupByDisplayDay", () => {
  it("gives the fall-back day 25 hours of readings, in systemTime order, none missing", () => {
    // 2026-11-01 00:00 EDT is 04:00Z; 2026-11-02 00:00 EST is 05:00Z.
    const start = Date.UTC(2026, 10, 1, 4);
    const end = Date.UTC(2026, 10, 2, 5);
    const points = day(start - 3_600_000, end + 3_600_000);
    const days = groupByDisplayDay(points);
    expect([...days.keys()]).toEqual(["2026-10-31", "2026-11-01", "2026-11-02"]);
    const nov1 = days.get("2026-11-01")!;
    expect(nov1).toHaveLength(300);
    expect(nov1[0]?.t).toBe(start);
    expect(nov1.at(-1)?.t).toBe(end - 5 * MS_PER_MINUTE);
    for (let i = 1; i < nov1.length; i++) expect(nov1[i]!.t).toBeGreaterThan(nov1[i - 1]!.t);
    expect(expectedReadings(start, end)).toBe(300);
    expect(missingReadings(nov1, start, end)).toBe(0);
  });

  it("gives the spring-forward day 23 hours of readings and does not call the lost hour missing", () => {
    // 2026-03-08 00:00 EST is 05:00Z; 2026-03-09 00:00 EDT is 04:00Z.
    const start = Date.UTC(2026, 2, 8, 5);
    const end = Date.UTC(2026, 2, 9, 4);
    const mar8 = groupByDisplayDay(day(start - 3_600_000, end + 3_600_000)).get("2026-03-08")!;
    expect(mar8).toHaveLength(276);
    expect(expectedReadings(start, end)).toBe(276);
    expect(missingReadings(mar8, start, end)).toBe(0);
  });

  it("reports what is really missing", () => {
    const start = Date.UTC(2026, 2, 8, 5);
    const end = Date.UTC(2026, 2, 9, 4);
    // Readings outside the window (the hours either side) must not fill the hole inside it.
    const all = day(start - 3_600_000, end + 3_600_000);
    const withHole = all.filter((p) => p.t < start + 3_600_000 || p.t >= start + 2 * 3_600_000);
    expect(missingReadings(withHole, start, end)).toBe(12);
  });

  it("orders a travel day by systemTime although its wall clock runs backwards", () => {
    const points = [
      { t: 1_000, display: "2026-05-01T21:00:00" },
      { t: 2_000, display: "2026-05-01T15:05:00" },
      { t: 500, display: "2026-05-01T20:55:00" },
    ];
    expect(
      groupByDisplayDay(points)
        .get("2026-05-01")
        ?.map((p) => p.t),
    ).toEqual([500, 1_000, 2_000]);
  });
});
