import { describe, expect, it } from "vitest";
import { parseDateTime } from "@/lib/cgm/datetime";
import { periodOf } from "./period";
import { namedPeriodDays, periodDayCount, windowDayCount } from "./period-days";

const window = (startDate: string, endDate: string) =>
  periodOf(parseDateTime(startDate)!, parseDateTime(endDate)!);

describe("namedPeriodDays", () => {
  it("names the receiver days a period was chosen as", () => {
    const p = {
      ...window("2026-11-13T06:00:00", "2026-11-27T05:59:59"),
      patientDays: { firstDay: "2026-11-13", lastDay: "2026-11-26" },
    };
    expect(namedPeriodDays(p)).toEqual({
      firstDay: "2026-11-13",
      lastDay: "2026-11-26",
      days: 14,
      clock: "receiver",
    });
  });

  it("names the readings' receiver days of an explicit window when the caller read them", () => {
    const p = window("2026-11-13T00:00:00", "2026-11-26T23:59:59");
    expect(namedPeriodDays(p, { firstDay: "2026-11-12", lastDay: "2026-11-26" })).toMatchObject({
      days: 15,
      clock: "receiver",
    });
  });

  it("names an explicit startDate/endDate window by its UTC days, and says they are UTC", () => {
    // America/Chicago: 2026-11-13T00:00:00 systemTime is the 12th on the receiver; the days named
    // are the window's own UTC days, never passed off as the receiver's.
    expect(namedPeriodDays(window("2026-11-13T00:00:00", "2026-11-26T23:59:59"))).toEqual({
      firstDay: "2026-11-13",
      lastDay: "2026-11-26",
      days: 14,
      clock: "utc",
    });
  });
});

describe("day counts", () => {
  it("counts a window's whole days, at least one", () => {
    expect(windowDayCount(0, 3_600_000)).toBe(1);
    expect(windowDayCount(0, 14 * 86_400_000 - 1000)).toBe(14);
    expect(
      periodDayCount({
        startMs: 0,
        endMs: 1,
        patientDays: { firstDay: "2026-01-01", lastDay: "2026-01-07" },
      }),
    ).toBe(7);
  });
});
