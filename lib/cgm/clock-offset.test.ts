import { describe, expect, it } from "vitest";
import { clockOffsetMinutes } from "./clock-offset";

describe("clockOffsetMinutes", () => {
  it("is displayTime − systemTime in whole quarter hours", () => {
    expect(clockOffsetMinutes("2026-01-10T17:00:00", "2026-01-10T12:00:00")).toBe(-300);
    expect(clockOffsetMinutes("2026-01-10T17:00:00", "2026-01-10T12:03:10")).toBe(-300);
    // −292 min is nearer −285 than −300.
    expect(clockOffsetMinutes("2026-01-10T17:00:00", "2026-01-10T12:08:00")).toBe(-285);
    // Adelaide, +9:30, across midnight.
    expect(clockOffsetMinutes("2026-01-10T23:30:00", "2026-01-11T09:00:00")).toBe(570);
  });

  it("reads small drift as 0, not −0", () => {
    expect(clockOffsetMinutes("2026-01-10T12:00:00", "2026-01-10T11:59:30")).toBe(0);
  });

  it("is null for a DateTime that does not parse", () => {
    expect(clockOffsetMinutes("2026-02-30T12:00:00", "2026-01-10T12:00:00")).toBeNull();
    expect(clockOffsetMinutes("2026-01-10T12:00:00", "2026-01-10 12:00:00")).toBeNull();
  });
});
