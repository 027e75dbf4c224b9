import { describe, expect, it } from "vitest";
import { parseDateTime } from "@/lib/cgm/datetime";
import { lastDays, parsePeriodChoice, parsePeriodRequest, previousPeriod } from "./period";

const query = (q: Record<string, string>) => parsePeriodRequest((name) => q[name]);

describe("report periods", () => {
  it("defaults to the last 14 days of data", () => {
    expect(query({})).toEqual({ ok: true, value: { kind: "days", days: 14 } });
  });

  it("takes explicit dates as the service writes them", () => {
    const r = query({ startDate: "2026-11-01T00:00:00", endDate: "2026-11-15T00:00:00" });
    expect(r.ok && r.value.kind === "dates" && r.value.period.endDate).toBe("2026-11-15T00:00:00");
  });

  it.each([
    [
      { startDate: "2026-11-15T00:00:00", endDate: "2026-11-01T00:00:00" },
      "startDate must be before endDate",
    ],
    [{ startDate: "2026-11-01", endDate: "2026-11-15T00:00:00" }, "startDate"],
    [{ endDate: "2026-11-15T00:00:00" }, "startDate is required"],
    [{ startDate: "2026-01-01T00:00:00", endDate: "2026-11-15T00:00:00" }, "at most 90 days"],
    [{ startDate: "0001-01-01T00:00:00", endDate: "0001-01-02T00:00:00" }, "Dates must lie between"],
    [{ days: "0" }, "at least 1 day"],
    [{ days: "91" }, "at most 90 days"],
    [{ days: "1.5" }, "whole number"],
    [{ days: "x" }, "whole number"],
  ])("refuses %o, saying %s", (q, message) => {
    const r = query(q);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toContain(message);
  });

  it("allows exactly 90 days", () => {
    expect(query({ startDate: "2026-08-17T00:00:00", endDate: "2026-11-15T00:00:00" }).ok).toBe(true);
  });

  it("puts the previous period just before, ending a second before the current one starts", () => {
    const current = lastDays(parseDateTime("2026-11-15T00:00:00")!, 14);
    const previous = previousPeriod(current);
    expect(previous.startDate).toBe("2026-10-17T23:59:59");
    expect(previous.endDate).toBe("2026-10-31T23:59:59");
    expect(previous.endMs - previous.startMs).toBe(current.endMs - current.startMs);
  });
});

describe("parsePeriodChoice", () => {
  it("accepts the four periods written plainly", () => {
    expect(parsePeriodChoice("7")).toBe(7);
    expect(parsePeriodChoice("14")).toBe(14);
    expect(parsePeriodChoice("30")).toBe(30);
    expect(parsePeriodChoice("90")).toBe(90);
  });

  it("falls back to 14 days for anything else", () => {
    for (const p of [undefined, "", "15", "07", "7.0", "1e1", " 30", "abc", "-7", "365"]) {
      expect(parsePeriodChoice(p)).toBe(14);
    }
  });

  it("reads the first of repeated values", () => {
    expect(parsePeriodChoice(["30", "7"])).toBe(30);
    expect(parsePeriodChoice(["x", "7"])).toBe(14);
    expect(parsePeriodChoice([])).toBe(14);
  });
});
