import { describe, expect, it } from "vitest";
import { formatInstant, formatUtc } from "./format";

describe("formatUtc", () => {
  it("gives the minute in UTC, zone named", () => {
    expect(formatUtc(new Date("2026-11-23T14:05:59.999Z"))).toBe("2026-11-23 14:05 UTC");
    expect(formatUtc(new Date("2026-03-29T01:30:00+02:00"))).toBe("2026-03-28 23:30 UTC");
    expect(formatUtc(new Date("2026-03-29T00:00:30Z"))).toBe("2026-03-29 00:00 UTC");
  });
});

describe("formatInstant", () => {
  it("gives the minute on the reader's clock, its zone named", () => {
    const at = new Date("2026-11-23T14:05:00Z");
    expect(formatInstant(at, "America/Chicago")).toBe("2026-11-23 08:05 CST");
    expect(formatInstant(new Date("2026-07-01T03:30:00Z"), "America/New_York")).toBe("2026-06-30 23:30 EDT");
    // Zones without an English abbreviation are named by their offset.
    expect(formatInstant(at, "Asia/Kolkata")).toBe("2026-11-23 19:35 GMT+5:30");
  });
});
