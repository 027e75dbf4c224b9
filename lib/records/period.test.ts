import { describe, expect, it } from "vitest";
import { parsePeriod, windowEndingAt, windowEndingAtOrNow } from "./period";

describe("parsePeriod", () => {
  it("accepts the four periods written plainly", () => {
    expect(parsePeriod("7")).toBe(7);
    expect(parsePeriod("14")).toBe(14);
    expect(parsePeriod("30")).toBe(30);
    expect(parsePeriod("90")).toBe(90);
  });

  it("falls back to 14 days for anything else", () => {
    for (const p of [undefined, "", "15", "07", "7.0", "1e1", " 30", "abc", "-7", "365"]) {
      expect(parsePeriod(p)).toBe(14);
    }
  });

  it("reads the first of repeated values", () => {
    expect(parsePeriod(["30", "7"])).toBe(30);
    expect(parsePeriod(["x", "7"])).toBe(14);
    expect(parsePeriod([])).toBe(14);
  });
});

describe("windowEndingAt", () => {
  it("ends at the given instant and starts that many days earlier", () => {
    const w = windowEndingAt(Date.UTC(2026, 2, 14, 12, 0, 0), 14);
    expect(w.endDate).toBe("2026-03-14T12:00:00");
    // 2026 is no leap year: 14 days before 14 March is 28 February.
    expect(w.startDate).toBe("2026-02-28T12:00:00");
    expect(w.endMs - w.startMs).toBe(14 * 86_400_000);
  });

  it("crosses month and year boundaries", () => {
    expect(windowEndingAt(Date.UTC(2026, 0, 3, 5, 6, 7), 7).startDate).toBe("2025-12-27T05:06:07");
    // 31 March back 90 days: 1 March is −30, 1 February −58, 1 January −89, 31 December −90.
    expect(windowEndingAt(Date.UTC(2026, 2, 31), 90).startDate).toBe("2025-12-31T00:00:00");
  });
});

describe("windowEndingAtOrNow", () => {
  it("ends at the last record when there is one", () => {
    const w = windowEndingAtOrNow(Date.UTC(2026, 2, 14, 12), Date.UTC(2026, 2, 20), 30);
    expect([w.startDate, w.endDate]).toEqual(["2026-02-12T12:00:00", "2026-03-14T12:00:00"]);
  });

  it("ends now, on a whole second, when there is none", () => {
    const w = windowEndingAtOrNow(null, Date.UTC(2026, 2, 20, 8, 30, 15) + 789, 30);
    expect(w.endMs).toBe(Date.UTC(2026, 2, 20, 8, 30, 15));
    expect([w.startDate, w.endDate]).toEqual(["2026-02-18T08:30:15", "2026-03-20T08:30:15"]);
  });
});
