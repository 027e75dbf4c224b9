import { describe, expect, it } from "vitest";
import { statisticsDue, statisticsWindow } from "./statistics-plan";

const HOUR = 3_600_000;

describe("statisticsDue", () => {
  it("asks the first time, then once the interval has passed, not before", () => {
    const now = Date.UTC(2026, 0, 15, 12);
    expect(statisticsDue(null, now, 6)).toBe(true);
    expect(statisticsDue(now - 6 * HOUR + 1, now, 6)).toBe(false);
    expect(statisticsDue(now - 6 * HOUR, now, 6)).toBe(true);
    expect(statisticsDue(now - 5 * 60_000, now, 1)).toBe(false);
  });
});

describe("statisticsWindow", () => {
  it("covers the 14 days up to the newest reading", () => {
    const end = Date.UTC(2026, 0, 15, 11, 55);
    expect(statisticsWindow(end)).toEqual({ startMs: Date.UTC(2026, 0, 1, 11, 55), endMs: end });
  });
});
