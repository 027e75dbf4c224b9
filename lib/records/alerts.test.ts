import { describe, expect, it } from "vitest";
import type { CgmAlert } from "@/lib/cgm/app-records";
import { alertSoundings, soundedAlertLabel, soundedForText, soundingCounts, soundingEndText } from "./alerts";

// A phone whose clock runs 2 hours ahead of UTC: displayTime is what the patient saw.
const rec = (
  systemTime: string,
  alertName: CgmAlert["alertName"],
  alertState: CgmAlert["alertState"],
): CgmAlert => ({
  recordId: `${alertName}-${systemTime}`,
  systemTime,
  displayTime: systemTime.replace("T0", "T1").replace("T10", "T12"),
  displayOffsetMinutes: 120,
  alertName,
  alertState,
  transmitterId: null,
  transmitterGeneration: "g7",
  transmitterGenerationVariant: null,
  displayDevice: "iOS",
  displayApp: "G7",
});

describe("alertSoundings", () => {
  it("makes each activeAlarming record a sounding, ended by the alert's next state, newest first", () => {
    const s = alertSoundings([
      // Given out of order: the service's order is not relied on.
      rec("2026-03-01T02:40:00", "low", "inactive"),
      rec("2026-03-01T02:00:00", "low", "activeAlarming"),
      rec("2026-03-01T02:02:30", "low", "activeSnoozed"),
      rec("2026-03-01T02:32:30", "low", "activeAlarming"),
      rec("2026-03-01T05:00:00", "high", "activeAlarming"),
    ]);
    expect(s.map((x) => [x.alertName, x.displayTime, x.end, x.seconds, x.snoozed, x.repeat])).toEqual([
      ["high", "2026-03-01T15:00:00", "open", null, false, false],
      ["low", "2026-03-01T12:32:30", "cleared", 450, false, true],
      ["low", "2026-03-01T12:00:00", "acknowledged", 150, true, false],
    ]);
  });

  it("keeps alerts apart, skips unknown states and unreadable times", () => {
    const s = alertSoundings([
      rec("2026-03-01T02:00:00", "urgentLow", "activeAlarming"),
      rec("2026-03-01T02:01:00", "low", "activeAlarming"),
      rec("2026-03-01T02:01:30", "urgentLow", "unknown"),
      rec("2026-03-01T02:03:00", "urgentLow", "activeSnoozed"),
      rec("not a time", "low", "inactive"),
    ]);
    expect(s.map((x) => [x.alertName, x.end, x.seconds])).toEqual([
      ["low", "open", null],
      ["urgentLow", "acknowledged", 180],
    ]);
  });

  it("ends a sounding where the next one starts when a record in between is missing", () => {
    const s = alertSoundings([
      rec("2026-03-01T02:00:00", "outOfRange", "activeAlarming"),
      rec("2026-03-01T02:10:00", "outOfRange", "activeAlarming"),
    ]);
    expect(s.map((x) => [x.end, x.seconds])).toEqual([
      ["open", null],
      ["cleared", 600],
    ]);
  });
});

describe("labels and durations", () => {
  it("names the alert that sounded in words", () => {
    expect(soundedAlertLabel("rise")).toBe("Rising fast");
    expect(soundedAlertLabel("fall")).toBe("Falling fast");
    expect(soundedAlertLabel("fixedLow")).toBe("Urgent low");
    expect(soundedAlertLabel("outOfRange")).toBe("Signal loss");
    expect(soundedAlertLabel("noReadings")).toBe("No readings");
  });

  it("says how long it sounded", () => {
    expect(soundedForText(40)).toBe("40 s");
    expect(soundedForText(120)).toBe("2 min");
    expect(soundedForText(185)).toBe("3 min 5 s");
    expect(soundedForText(3720)).toBe("1 h 2 min");
    expect(soundingEndText({ end: "acknowledged", seconds: 150 })).toBe("Acknowledged after 2 min 30 s");
    expect(soundingEndText({ end: "cleared", seconds: 600 })).toBe("Cleared after 10 min");
    expect(soundingEndText({ end: "open", seconds: null })).toBe("No later record (still sounding)");
  });

  it("counts soundings per alert, urgent first, urgent low and fixed low together", () => {
    const s = alertSoundings([
      rec("2026-03-01T01:00:00", "high", "activeAlarming"),
      rec("2026-03-01T02:00:00", "fixedLow", "activeAlarming"),
      rec("2026-03-01T03:00:00", "urgentLow", "activeAlarming"),
    ]);
    expect(soundingCounts(s)).toEqual([
      { label: "Urgent low", count: 2 },
      { label: "High", count: 1 },
    ]);
  });
});
