import { describe, expect, it } from "vitest";
import { formatDateTime, MS_PER_MINUTE } from "@/lib/cgm";
import { clockChanges } from "./clock";
import { toTracePoints } from "./points";

// US Eastern 2026: clocks go 02:00 EST → 03:00 EDT at 2026-03-08T07:00Z and 02:00 EDT → 01:00 EST
// at 2026-11-01T06:00Z (checked against the tz database by hand).
const SPRING_FORWARD = Date.UTC(2026, 2, 8, 7);
const FALL_BACK = Date.UTC(2026, 10, 1, 6);
const eastern = (ms: number) => (ms >= SPRING_FORWARD && ms < FALL_BACK ? -240 : -300);

// Readings every 5 minutes at hh:m2:30 with the receiver's clock 40 s fast, as real data looks.
function egvs(fromMs: number, toMs: number, offsetOf: (ms: number) => number) {
  const out = [];
  for (let ms = fromMs + 150_000; ms < toMs; ms += 5 * MS_PER_MINUTE) {
    out.push({
      systemTime: formatDateTime(ms),
      displayTime: formatDateTime(ms + offsetOf(ms) * MS_PER_MINUTE + 40_000),
      value: 120,
      status: null,
      trend: "flat" as const,
      trendRate: 0,
    });
  }
  return out;
}

describe("clockChanges", () => {
  it("finds spring forward: −300 → −240 at the first reading after 07:00Z", () => {
    const records = egvs(Date.UTC(2026, 2, 8, 4), Date.UTC(2026, 2, 8, 10), eastern);
    const points = toTracePoints(records.reverse(), "mg/dL", "mg/dL");
    expect(clockChanges(points)).toEqual([
      { t: Date.UTC(2026, 2, 8, 7, 2, 30), fromMinutes: -300, toMinutes: -240 },
    ]);
    // The wall clock skips 02:xx: 01:57:30 (+40 s) is followed by 03:02:30 (+40 s).
    expect(points.some((p) => p.display.startsWith("2026-03-08T02:"))).toBe(false);
    const i = points.findIndex((p) => p.t === Date.UTC(2026, 2, 8, 7, 2, 30));
    expect(points[i - 1]?.display).toBe("2026-03-08T01:58:10");
    expect(points[i]?.display).toBe("2026-03-08T03:03:10");
  });

  it("finds fall back: −240 → −300, the repeated hour present twice and t never backwards", () => {
    const records = egvs(Date.UTC(2026, 10, 1, 4), Date.UTC(2026, 10, 1, 8), eastern);
    const points = toTracePoints(records.reverse(), "mg/dL", "mg/dL");
    expect(points).toHaveLength(48);
    expect(clockChanges(points)).toEqual([
      { t: Date.UTC(2026, 10, 1, 6, 2, 30), fromMinutes: -240, toMinutes: -300 },
    ]);
    // 01:00–01:59 happens once on EDT (05:xxZ) and once on EST (06:xxZ): 12 + 12 readings.
    expect(points.filter((p) => p.display.startsWith("2026-11-01T01:"))).toHaveLength(24);
    for (let k = 1; k < points.length; k++) expect(points[k]!.t).toBeGreaterThan(points[k - 1]!.t);
    // The wall clock itself goes backwards once, which is why the chart's axis is t.
    const i = points.findIndex((p) => p.t === Date.UTC(2026, 10, 1, 6, 2, 30));
    expect(points[i - 1]?.display).toBe("2026-11-01T01:58:10");
    expect(points[i]?.display).toBe("2026-11-01T01:03:10");
  });

  it("finds travel: Paris (+60) to New York (−300)", () => {
    const landed = Date.UTC(2026, 4, 1, 20);
    const records = egvs(Date.UTC(2026, 4, 1, 18), Date.UTC(2026, 4, 1, 22), (ms) =>
      ms < landed ? 60 : -300,
    );
    const points = toTracePoints(records, "mg/dL", "mg/dL");
    expect(clockChanges(points)).toEqual([
      { t: Date.UTC(2026, 4, 1, 20, 2, 30), fromMinutes: 60, toMinutes: -300 },
    ]);
  });

  it("reports a clock set wrong and then corrected as two changes, and drift as none", () => {
    const wrongFrom = Date.UTC(2026, 4, 2, 9);
    const wrongTo = Date.UTC(2026, 4, 2, 10);
    const records = egvs(Date.UTC(2026, 4, 2, 8), Date.UTC(2026, 4, 2, 11), (ms) =>
      ms >= wrongFrom && ms < wrongTo ? -240 + 60 : -240,
    );
    expect(clockChanges(toTracePoints(records, "mg/dL", "mg/dL"))).toEqual([
      { t: Date.UTC(2026, 4, 2, 9, 2, 30), fromMinutes: -240, toMinutes: -180 },
      { t: Date.UTC(2026, 4, 2, 10, 2, 30), fromMinutes: -180, toMinutes: -240 },
    ]);
    expect(
      clockChanges(
        toTracePoints(
          egvs(0, 86_400_000, () => -240),
          "mg/dL",
          "mg/dL",
        ),
      ),
    ).toEqual([]);
  });

  it("is empty for no or one reading", () => {
    expect(clockChanges([])).toEqual([]);
    expect(clockChanges([{ t: 0, offsetMinutes: 60 }])).toEqual([]);
  });
});
