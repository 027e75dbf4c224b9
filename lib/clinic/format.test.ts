import { describe, expect, it } from "vitest";
import { formatUtc } from "./format";

describe("formatUtc", () => {
  it("gives the minute in UTC, zone named", () => {
    expect(formatUtc(new Date("2026-11-23T14:05:59.999Z"))).toBe("2026-11-23 14:05 UTC");
    expect(formatUtc(new Date("2026-03-29T01:30:00+02:00"))).toBe("2026-03-28 23:30 UTC");
  });
});
