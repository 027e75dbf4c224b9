import { describe, expect, it } from "vitest";
import { parseDateTime } from "@/lib/cgm/datetime";
import { windowOf } from "@/lib/cgm/window";
import { reportIdentityLines } from "./identity";
import { comparisonViewPeriod, dayViewPeriod, overviewViewPeriod, reportViewPeriod } from "./view-periods";

const ms = (t: string) => parseDateTime(t)!;

describe("view periods", () => {
  it("names a comparison's recent days and the earlier ones it is compared with", () => {
    const v = comparisonViewPeriod({
      earlier: {
        startDate: "2026-10-30T05:00:00",
        endDate: "2026-11-13T05:59:59",
        patientDays: { firstDay: "2026-10-30", lastDay: "2026-11-12" },
      },
      recent: {
        startDate: "2026-11-13T06:00:00",
        endDate: "2026-11-27T05:59:59",
        patientDays: { firstDay: "2026-11-13", lastDay: "2026-11-26" },
      },
    });
    expect(v.window.startDate).toBe("2026-10-30T05:00:00");
    expect(v.window.endDate).toBe("2026-11-27T05:59:59");
    const line = reportIdentityLines({
      viewer: "clinic",
      patientName: "A",
      period: v.period,
      generatedAtMs: 0,
      devices: [],
      targetGroup: "T",
    }).find((l) => l.key === "period");
    expect(line?.value).toBe(
      "2026-11-13 to 2026-11-26, 14 days on the patient's receiver clock; compared with 2026-10-30 to 2026-11-12, 14 days",
    );
  });

  it("names explicit dates of statistics as UTC days", () => {
    const v = reportViewPeriod(windowOf(ms("2026-11-01T00:00:00"), ms("2026-11-07T23:59:59")));
    expect(v.period).toEqual({ firstDay: "2026-11-01", lastDay: "2026-11-07", days: 7, clock: "utc" });
  });

  it("names the daily view's one day", () => {
    const w = windowOf(ms("2026-11-25T00:00:00"), ms("2026-11-27T00:00:00"));
    expect(dayViewPeriod("2026-11-26", w).period).toEqual({
      firstDay: "2026-11-26",
      lastDay: "2026-11-26",
      days: 1,
      clock: "receiver",
    });
  });

  it("names the overview's summary by the receiver days its ends fall on (Chicago, UTC−6)", () => {
    const end = ms("2026-11-26T03:00:00");
    const v = overviewViewPeriod({
      summary: { startMs: end - 14 * 86_400_000, endMs: end, days: 14 },
      latest: { displayTime: "2026-11-25T21:00:00", t: end },
    });
    expect(v.period).toMatchObject({ firstDay: "2026-11-11", lastDay: "2026-11-25", days: 14 });
  });

  it("takes the clock offset from the newest reading itself, not from the service's data end", () => {
    // The readings stop 40 h before the service's data end: the offset is still −6 h, so the
    // summary's first day is the 11th (− the data end would have made it −46 h: the 10th).
    const end = ms("2026-11-26T03:00:00");
    const v = overviewViewPeriod({
      summary: { startMs: end - 14 * 86_400_000, endMs: end, days: 14 },
      latest: { displayTime: "2026-11-24T05:00:00", t: end - 40 * 3_600_000 },
    });
    expect(v.period).toMatchObject({ firstDay: "2026-11-11", lastDay: "2026-11-24", days: 14 });
  });
});
