import { describe, expect, it } from "vitest";
import {
  formatDateTime,
  formatTime,
  MS_PER_DAY,
  MS_PER_HOUR,
  MS_PER_MINUTE,
  MS_PER_SECOND,
  parseDateTime,
  parseServiceTime,
  parseTime,
  SECONDS_PER_DAY,
  secondsOfDay,
} from "./datetime";

describe("DateTime (YYYY-MM-DDThh:mm:ss, no zone)", () => {
  it("parses on the naive UTC axis and formats back", () => {
    expect(parseDateTime("2026-11-20T08:12:00")).toBe(Date.UTC(2026, 10, 20, 8, 12, 0));
    expect(formatDateTime(Date.UTC(2026, 10, 20, 8, 12, 0))).toBe("2026-11-20T08:12:00");
  });

  it.each([
    "2026-11-20T08:12:00Z",
    "2026-11-20T08:12:00+01:00",
    "2026-11-20T08:12:00.000",
    "2026-11-20 08:12:00",
    "2026-11-20",
    "2026-13-01T00:00:00",
    "2026-02-30T00:00:00",
    "2026-02-29T00:00:00",
    "2026-01-01T24:00:00",
    "2026-01-01T23:60:00",
    "2026-01-01T23:59:60",
    "2026-01-01T2a:00:00",
    "2026-01-01T-1:00:00",
    "2026-1a-01T00:00:00",
    "2026-01-01X00:00:00",
    "2026-01-01T00-00:00",
    "２０２６-01-01T00:00:00",
    "2026-00-10T00:00:00",
    "",
  ])("refuses %j", (text) => {
    expect(parseDateTime(text)).toBeNull();
  });

  it("accepts a leap day", () => {
    expect(parseDateTime("2028-02-29T12:00:00")).toBe(Date.UTC(2028, 1, 29, 12));
  });
});

describe("DateTimes read one after another (the last two dates are remembered)", () => {
  it("each reads as it does alone, whatever came before: other days, wrong dates, other shapes", () => {
    const texts = [
      "2026-02-28T23:55:00",
      "2026-02-28T18:55:00",
      "2026-03-01T00:00:00",
      "2026-02-28T19:00:00",
      "2026-02-30T00:00:00",
      "2026-02-30T00:05:00",
      "2026-02-28T19:05:00",
      "2026-02-30T00:10:00",
      "2026-03-01T00:05:00",
      "2026-03-01T24:05:00",
      "2026-03-01",
      "2026-03-01T00:10:00",
      "\0\0\0\0\0\0\0\0\0\0T00:00:00",
      "2026-03-01T00:15:00",
    ];
    const alone = (text: string) => {
      const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(text);
      if (!m) return null;
      const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
      const ms = Date.UTC(y, mo - 1, d, h, mi, s);
      const date = new Date(ms);
      return date.getUTCDate() === d && date.getUTCHours() === h && h < 24 && mi < 60 && s < 60 ? ms : null;
    };
    for (const order of [texts, [...texts].reverse()]) {
      for (const text of order) expect(parseDateTime(text), text).toBe(alone(text));
    }
  });
});

describe("Time (hh:mm:ss)", () => {
  it("parses to seconds since midnight and formats back", () => {
    expect(parseTime("22:00:00")).toBe(79_200);
    expect(parseTime("00:00:00")).toBe(0);
    expect(parseTime("23:59:59")).toBe(86_399);
    expect(formatTime(79_200)).toBe("22:00:00");
    expect(formatTime(86_400)).toBe("00:00:00");
  });

  it.each(["24:00:00", "6:00:00", "06:00", "06:00:60"])("refuses %j", (text) => {
    expect(parseTime(text)).toBeNull();
  });

  it("reads the clock of a DateTime", () => {
    expect(secondsOfDay(Date.UTC(2026, 0, 1, 6, 30, 15))).toBe(6 * 3600 + 30 * 60 + 15);
  });
});

describe("formatDateTime", () => {
  it("matches toISOString for times across years, days and seconds", () => {
    for (const ms of [
      0,
      1,
      999,
      86_399_999,
      Date.UTC(2024, 1, 29, 23, 59, 59),
      Date.UTC(2026, 10, 22, 7, 5, 3, 500),
      -1000,
    ]) {
      expect(formatDateTime(ms)).toBe(new Date(ms).toISOString().slice(0, 19));
    }
  });
});

describe("the time units", () => {
  it("are the milliseconds of a second, minute, hour and day", () => {
    expect([MS_PER_SECOND, MS_PER_MINUTE, MS_PER_HOUR, MS_PER_DAY]).toEqual([
      1_000, 60_000, 3_600_000, 86_400_000,
    ]);
    expect(MS_PER_DAY / MS_PER_SECOND).toBe(SECONDS_PER_DAY);
  });
});

describe("parseServiceTime: the service's own shape read by character, every other shape as before", () => {
  const at = (iso: string) => Date.parse(`${iso}Z`);
  it.each([
    ["2026-11-01T08:05:00Z", at("2026-11-01T08:05:00"), 0],
    ["2026-11-01T08:05:00z", at("2026-11-01T08:05:00"), 0],
    ["2026-11-01T08:05:00", at("2026-11-01T08:05:00"), null],
    ["2026-11-01T08:05:00-05:00", at("2026-11-01T08:05:00"), -300],
    ["2026-11-01T08:05:00+05:30", at("2026-11-01T08:05:00"), 330],
    ["2026-11-01T08:05:00+18:00", at("2026-11-01T08:05:00"), 1080],
    // -00:00 is UTC, never a negative zero.
    ["2026-11-01T08:05:00-00:00", at("2026-11-01T08:05:00"), 0],
    // Shapes the canonical reading leaves to the lenient one.
    ["2026-11-01T08:05:60Z", at("2026-11-01T08:05:59"), 0],
    ["2026-11-01 08:05:00Z", at("2026-11-01T08:05:00"), 0],
    ["2026-11-01t08:05:00-05:00", at("2026-11-01T08:05:00"), -300],
    [" 2026-11-01T08:05:00Z ", at("2026-11-01T08:05:00"), 0],
    ["2026-11-01T08:05:00 +05:30", at("2026-11-01T08:05:00"), 330],
    ["2026-11-01T08:05:00-0500", at("2026-11-01T08:05:00"), -300],
    ["2026-11-01T08:05:00-06:59:59", at("2026-11-01T08:05:00"), -420],
    ["2026-11-01T08:05:00.123Z", at("2026-11-01T08:05:00"), 0],
    ["2026-11-1T8:05Z", at("2026-11-01T08:05:00"), 0],
  ])("%s", (text, clockMs, offsetMinutes) => {
    const t = parseServiceTime(text);
    expect(t).toEqual({ clockMs, offsetMinutes });
    expect(Object.is(t?.offsetMinutes, -0)).toBe(false);
  });

  it.each([
    "2026-02-30T08:05:00Z",
    "2026-13-01T08:05:00Z",
    "2026-11-01T24:05:00Z",
    "2026-11-01T08:60:00Z",
    "2026-11-01T08:05:00+19:00",
    "2026-11-01T08:05:00+05:60",
    "2026-11-01T08:05:00Q",
    "2026-11-01T08:05:00+05-30",
    "2026-11-01X08:05:00Z",
    "20a6-11-01T08:05:00Z",
    "",
  ])("refuses %j", (text) => expect(parseServiceTime(text)).toBeNull());
});
