import { describe, expect, it } from "vitest";
import {
  axisTicks,
  formatDisplayDay,
  formatDisplayTime,
  formatDuration,
  formatPercent,
  hoursPerDay,
  offsetAt,
  roundWallClockTicks,
  wallClockLabel,
} from "./format";

describe("formatDuration", () => {
  it("writes minutes, whole hours, and hours with minutes", () => {
    expect(formatDuration(0)).toBe("0 min");
    expect(formatDuration(45)).toBe("45 min");
    expect(formatDuration(120)).toBe("2 h");
    expect(formatDuration(209)).toBe("3 h 29 min");
  });
});

describe("hoursPerDay", () => {
  it("turns a share of the day into hours", () => {
    expect(hoursPerDay(100)).toBe(24);
    expect(hoursPerDay(70)).toBeCloseTo(16.8, 10);
    expect(hoursPerDay(4)).toBeCloseTo(0.96, 10);
    expect(hoursPerDay(0)).toBe(0);
  });
});

describe("formatPercent", () => {
  it("keeps one decimal below 1 % and whole numbers above", () => {
    expect(formatPercent(0.4)).toBe("0.4%");
    expect(formatPercent(0.64)).toBe("0.6%");
    expect(formatPercent(0)).toBe("0.0%");
    expect(formatPercent(1)).toBe("1%");
    expect(formatPercent(3.6)).toBe("4%");
    expect(formatPercent(71.4)).toBe("71%");
    expect(formatPercent(100)).toBe("100%");
  });
});

describe("axisTicks", () => {
  it("marks the measuring range and the consensus boundaries in each unit", () => {
    expect(axisTicks("mg/dL")).toEqual([40, 54, 70, 180, 250, 400]);
    // 40/18.0182 = 2.220, 54 → 2.997, 70 → 3.885, 180 → 9.990, 250 → 13.875, 400 → 22.200
    expect(axisTicks("mmol/L")).toEqual([2.2, 3.0, 3.9, 10.0, 13.9, 22.2]);
  });
});

describe("wall-clock labels", () => {
  const t = Date.UTC(2026, 10, 22, 19, 5); // 19:05 UTC
  it("shows the patient's clock, not the viewer's: UTC−5 reads 14:05", () => {
    expect(wallClockLabel(t, -300, 86_400_000)).toBe("14:05");
    expect(wallClockLabel(t, 60, 86_400_000)).toBe("20:05");
  });
  it("labels days on long spans, on the patient's calendar", () => {
    // 19:05 UTC on Sun 22 Nov is already Mon 23 Nov at UTC+9.
    expect(wallClockLabel(t, 540, 14 * 86_400_000)).toBe("Mon 23 Nov");
  });
  it("finds the offset in force at a time", () => {
    const changes = [
      { t: 100, toMinutes: -240 },
      { t: 200, toMinutes: -300 },
    ];
    expect(offsetAt(50, -300, changes)).toBe(-300);
    expect(offsetAt(100, -300, changes)).toBe(-240);
    expect(offsetAt(250, -300, changes)).toBe(-300);
  });
  it("formats a displayTime for people", () => {
    expect(formatDisplayTime("2026-11-22T14:05:00")).toBe("Sun 22 Nov, 14:05");
    expect(formatDisplayDay("2026-11-15T23:59:59")).toBe("Sun 15 Nov");
    expect(formatDisplayTime("not a time")).toBe("not a time");
  });
});

describe("roundWallClockTicks", () => {
  const H = 3_600_000;
  const D = 24 * H;
  const at = (iso: string) => Date.parse(`${iso}Z`);
  const wall = (t: number, offsetMinutes: number) =>
    new Date(t + offsetMinutes * 60_000).toISOString().slice(11, 16);

  it("puts 24 hours on whole 3-hour marks of the patient's clock (UTC−5)", () => {
    const start = at("2026-11-22T12:08:00");
    const ticks = roundWallClockTicks(start, start + D, -300, []);
    expect(ticks.map((t) => wall(t, -300))).toEqual([
      "09:00",
      "12:00",
      "15:00",
      "18:00",
      "21:00",
      "00:00",
      "03:00",
      "06:00",
    ]);
  });

  it("puts 14 days on every second midnight, counted from the first", () => {
    const start = at("2026-11-09T07:00:00");
    const ticks = roundWallClockTicks(start, start + 14 * D, 0, []);
    expect(ticks).toHaveLength(7);
    expect(ticks[0]).toBe(at("2026-11-10T00:00:00"));
    expect(ticks[1]! - ticks[0]!).toBe(2 * D);
  });

  it("keeps ticks on the wall clock's hours across a clock change (fall back, −240 → −300)", () => {
    const start = at("2026-11-01T00:00:00"); // 20:00 the evening before, EDT
    const change = { t: at("2026-11-01T06:00:00"), toMinutes: -300 };
    const ticks = roundWallClockTicks(start, start + 12 * H, -240, [change], 12);
    const labels = ticks.map((t) => wall(t, t >= change.t ? -300 : -240));
    expect(labels.every((l) => l.endsWith(":00"))).toBe(true);
    // Systemtimes strictly increase, so the line and its labels never run backwards.
    for (let i = 1; i < ticks.length; i++) expect(ticks[i]!).toBeGreaterThan(ticks[i - 1]!);
  });
});
