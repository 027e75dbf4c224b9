import { describe, expect, it } from "vitest";
import { countText, formatAmount, formatClock, formatDateTimeText } from "./format";

describe("formatDateTimeText", () => {
  it("prints the receiver's wall clock as written, with the weekday", () => {
    // 2026-01-01 is a Thursday, so 1 March 2026 is a Sunday and 3 March a Tuesday.
    expect(formatDateTimeText("2026-03-03T14:05:09")).toBe("Tue 3 Mar 2026, 14:05");
    expect(formatDateTimeText("2025-01-01T00:00:00")).toBe("Wed 1 Jan 2025, 00:00");
    expect(formatDateTimeText("2025-12-31T23:59:59")).toBe("Wed 31 Dec 2025, 23:59");
  });

  it("returns text that is not a DateTime unchanged", () => {
    expect(formatDateTimeText("2026-02-30T10:00:00")).toBe("2026-02-30T10:00:00");
    expect(formatDateTimeText("2026-03-03T14:05:09Z")).toBe("2026-03-03T14:05:09Z");
  });
});

describe("formatClock", () => {
  it("drops zero seconds only", () => {
    expect(formatClock("22:00:00")).toBe("22:00");
    expect(formatClock("06:05:00")).toBe("06:05");
    expect(formatClock("07:30:15")).toBe("07:30:15");
    expect(formatClock("25:00:00")).toBe("25:00:00");
  });
});

describe("formatAmount and countText", () => {
  it("keeps at most two decimals without float noise", () => {
    expect(formatAmount(4.35)).toBe("4.35");
    expect(formatAmount(0.1 + 0.2)).toBe("0.3");
    expect(formatAmount(45)).toBe("45");
    expect(formatAmount(1.999)).toBe("2");
  });

  it("uses the singular for exactly one", () => {
    expect(countText(1, "unit", "units")).toBe("1 unit");
    expect(countText(0.5, "unit", "units")).toBe("0.5 units");
    expect(countText(0, "minute", "minutes")).toBe("0 minutes");
    expect(countText(30, "minute", "minutes")).toBe("30 minutes");
  });
});
