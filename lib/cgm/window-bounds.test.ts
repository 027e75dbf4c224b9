import { describe, expect, it } from "vitest";
import { MS_PER_DAY, parseDateTime } from "./datetime";
import { DEFAULT_MAX_REQUEST_DAYS, readableWindow, windowBoundsProblem } from "./window-bounds";

const at = (text: string) => parseDateTime(text) as number;
const problem = (start: string, end: string, maxDays = DEFAULT_MAX_REQUEST_DAYS) =>
  windowBoundsProblem(at(start), at(end), maxDays);

describe("windowBoundsProblem", () => {
  it("accepts a window of exactly the limit", () => {
    const end = at("2026-11-25T00:00:00");
    expect(windowBoundsProblem(end - 90 * MS_PER_DAY, end, 90)).toBeNull();
  });

  it("refuses one second more, naming the limit and the window's length", () => {
    const end = at("2026-11-25T00:00:00");
    const message = windowBoundsProblem(end - 90 * MS_PER_DAY - 1000, end, 90);
    expect(message).toContain("at most 90 days");
    expect(message).toContain("spans 91 days");
  });

  it("uses the limit it is given", () => {
    expect(problem("2026-01-01T00:00:00", "2026-06-01T00:00:00", 180)).toBeNull();
    expect(problem("2026-01-01T00:00:00", "2026-06-01T00:00:00", 90)).toContain("at most 90 days");
  });

  it("refuses a century as too long", () => {
    expect(problem("2000-01-01T00:00:00", "2099-12-31T00:00:00")).toContain("spans 36,524 days");
  });

  it.each([
    ["0001-01-01T00:00:00", "9999-12-31T23:59:59"],
    ["0001-01-01T00:00:00", "0001-01-02T00:00:00"],
    ["9999-12-30T00:00:00", "9999-12-31T00:00:00"],
    ["1999-12-31T23:59:59", "2000-01-02T00:00:00"],
    ["2099-12-31T00:00:00", "2100-01-01T00:00:00"],
  ])("refuses dates no record can have: %s to %s", (start, end) => {
    expect(problem(start, end)).toBe("Dates must lie between 2000-01-01T00:00:00 and 2099-12-31T23:59:59.");
  });
});

describe("readableWindow", () => {
  it("cuts a window to 2000-01-01T00:00:00 … 2099-12-31T23:59:59, and leaves one inside alone", () => {
    expect(readableWindow(at("1999-12-31T10:00:00"), at("2000-01-02T14:00:00"))).toEqual({
      startMs: at("2000-01-01T00:00:00"),
      endMs: at("2000-01-02T14:00:00"),
    });
    expect(readableWindow(at("2099-12-30T10:00:00"), at("2100-01-01T14:00:00"))).toEqual({
      startMs: at("2099-12-30T10:00:00"),
      endMs: at("2099-12-31T23:59:59"),
    });
    const inside = { startMs: at("2026-11-01T00:00:00"), endMs: at("2026-11-02T00:00:00") };
    expect(readableWindow(inside.startMs, inside.endMs)).toEqual(inside);
  });
});
