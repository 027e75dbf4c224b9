import { describe, expect, it } from "vitest";
import type { CgmAlert } from "@/lib/cgm/app-records";
import { alertsModel } from "./alerts-model";

const rec = (
  systemTime: string,
  alertName: CgmAlert["alertName"],
  alertState: CgmAlert["alertState"],
): CgmAlert => ({
  recordId: `${alertName}-${systemTime}`,
  systemTime,
  displayTime: systemTime,
  displayOffsetMinutes: 0,
  alertName,
  alertState,
  transmitterId: null,
  transmitterGeneration: "g7",
  transmitterGenerationVariant: null,
  displayDevice: "iOS",
  displayApp: "G7",
});
const data = (alerts: CgmAlert[]) => ({
  alerts,
  period: { startDate: "2026-02-24T00:00:00", endDate: "2026-03-02T12:00:00" },
  patientDays: { firstDay: "2026-02-24", lastDay: "2026-03-02" },
  latestDisplayTime: "2026-03-02T12:00:00",
});

describe("alertsModel", () => {
  it("one sounding per time an alert started, newest first, counted by kind and in the caption", () => {
    const m = alertsModel(
      data([
        rec("2026-03-01T02:00:00", "low", "activeAlarming"),
        rec("2026-03-01T02:02:30", "low", "activeSnoozed"),
        rec("2026-03-01T05:00:00", "high", "activeAlarming"),
        rec("2026-03-01T06:00:00", "urgentLow", "activeAlarming"),
      ]),
      7,
    );
    expect(m.soundings.map((s) => s.alertName)).toEqual(["urgentLow", "high", "low"]);
    expect(m.caption).toBe("3 alerts sounded, newest first");
    expect(m.counts[0]).toEqual({ label: "Urgent low", count: 1 });
    expect(m.window).toBe("2026-02-24T00:00:00_2026-03-02T12:00:00");
    expect(m.periodChoices.map((c) => [c.href, c.current])).toEqual([
      ["/dashboard/alerts?days=7", true],
      ["/dashboard/alerts", false],
      ["/dashboard/alerts?days=30", false],
      ["/dashboard/alerts?days=90", false],
    ]);
  });

  it("counts one sounding in the singular, and none as none", () => {
    expect(alertsModel(data([rec("2026-03-01T02:00:00", "low", "activeAlarming")]), 14).caption).toBe(
      "1 alert sounded, newest first",
    );
    expect(alertsModel(data([]), 14)).toMatchObject({ soundings: [], counts: [] });
  });
});
