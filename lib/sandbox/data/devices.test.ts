import { describe, expect, it } from "vitest";
import { deviceV1Schema, deviceV2Schema, parseDateTime } from "@/lib/cgm";
import { findSandboxUser, SANDBOX_USERS, type SandboxUser } from "../users";
import {
  dataRange,
  devicesV1,
  devicesV2,
  generateCalibrations,
  generateEgvs,
  generateEvents,
  HISTORY_START_MS,
} from ".";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22, 18, 3, 27);
const user = (name: string): SandboxUser => findSandboxUser(name)!;
const wholeDays = (startMs: number, endMs: number): [number, number] => [
  Math.floor(startMs / DAY) * DAY,
  Math.floor(endMs / DAY) * DAY + DAY - 1,
];

describe("devices", () => {
  it("v1 and v2 records parse with the lib/cgm schemas for every user with data", () => {
    for (const u of SANDBOX_USERS.filter((x) => x.hasData)) {
      const [s, e] = wholeDays(NOW - 30 * DAY, NOW);
      const v1 = devicesV1(u, s, e, NOW);
      const v2 = devicesV2(u, s, e, NOW);
      expect(v1).toHaveLength(1);
      expect(v2).toHaveLength(1);
      const d1 = deviceV1Schema.parse(v1[0]);
      const d2 = deviceV2Schema.parse(v2[0]);
      expect(d1.model).toBe(u.model);
      expect(d2.transmitterGeneration).toBe(u.generation);
      expect(d2.displayDevice).toBe(u.displayDevice);
      // Last upload: after the last EGV, never after now.
      const last = generateEgvs(u, s, e, NOW).at(-1)!;
      const upload = parseDateTime(d1.lastUploadDate)!;
      expect(upload).toBeGreaterThanOrEqual(last.systemMs);
      expect(upload).toBeLessThanOrEqual(NOW);
      expect(d2.lastUploadDate).toBe(d1.lastUploadDate);
      // Settings are as of the last upload: adjusted before it.
      for (const a of d1.alertSettings ?? [])
        expect(parseDateTime(a.systemTime)!).toBeLessThanOrEqual(upload);
      const def = d2.alertScheduleList.find((x) => x.alertScheduleSettings.isDefaultSchedule)!;
      expect(def.alertScheduleSettings).toMatchObject({
        alertScheduleName: "Default",
        startTime: "00:00:00",
        endTime: "00:00:00",
      });
      expect(def.alertScheduleSettings.daysOfWeek).toHaveLength(7);
      const fixedLow = def.alertSettings!.find((a) => a.alertName === "fixedLow")!;
      expect(fixedLow).toMatchObject({ value: 55, unit: "mg/dL", enabled: true });
      expect(def.alertSettings!.find((a) => a.alertName === "outOfRange")!.unit).toBe("minutes");
      for (const a of def.alertSettings!) expect(a).not.toHaveProperty("delay");
      const night = d2.alertScheduleList.find((x) => x.alertScheduleSettings.alertScheduleName === "Night");
      if (u.alerts.night) {
        expect(night?.alertScheduleSettings).toMatchObject({
          isEnabled: true,
          isDefaultSchedule: false,
          startTime: u.alerts.night.startTime,
          endTime: u.alerts.night.endTime,
        });
        expect(night?.alertSettings?.length).toBe(6);
      } else expect(night).toBeUndefined();
    }
    // User1 and User2 have the "Night" schedule of 22:00–06:00 (and User7 one of its own).
    expect(
      SANDBOX_USERS.filter((u) => u.alerts.night?.startTime === "22:00:00").map((u) => u.username),
    ).toEqual(["SandboxUser1", "SandboxUser2"]);
  });

  it("a device appears only when it contributed EGVs; lastUploadDate may lie after the window", () => {
    const u5 = user("SandboxUser5");
    // Find a whole day without readings and one with.
    let empty = 0;
    let worn = 0;
    for (let d = Math.floor(NOW / DAY) - 1; d > Math.floor(NOW / DAY) - 40 && (!empty || !worn); d--) {
      const n = generateEgvs(u5, d * DAY, d * DAY + DAY - 1, NOW).length;
      if (n === 0 && !empty) empty = d;
      if (n > 200 && !worn) worn = d;
    }
    expect(devicesV1(u5, empty * DAY, empty * DAY + DAY - 1, NOW)).toEqual([]);
    expect(devicesV2(u5, empty * DAY, empty * DAY + DAY - 1, NOW)).toEqual([]);
    expect(devicesV1(u5, worn * DAY, worn * DAY + DAY - 1, NOW)).toHaveLength(1);
    const u1 = user("SandboxUser1");
    const [s, e] = wholeDays(NOW - 10 * DAY, NOW - 8 * DAY);
    const last = generateEgvs(u1, s, e, NOW).at(-1)!;
    const upload = parseDateTime(devicesV1(u1, s, e, NOW)[0]!.lastUploadDate)!;
    expect(upload - last.systemMs).toBeGreaterThanOrEqual(3000);
    expect(upload - last.systemMs).toBeLessThanOrEqual(40_000);
    for (const name of ["SandboxUser6"]) {
      expect(devicesV1(user(name), HISTORY_START_MS, NOW, NOW)).toEqual([]);
      expect(devicesV2(user(name), HISTORY_START_MS, NOW, NOW)).toEqual([]);
    }
  });

  it("SandboxUser4's v1 alert settings span the spec's value ranges over time", () => {
    const u = user("SandboxUser4");
    const seen: Record<string, Set<number>> = {};
    const enabled: Record<string, Set<boolean>> = {};
    for (let k = 1; k <= 60; k++) {
      const [s, e] = wholeDays(NOW - k * DAY, NOW - k * DAY);
      const [device] = devicesV1(u, s, e, NOW);
      const parsed = deviceV1Schema.parse(device);
      expect(parsed.model).toBe("G4 with Sharing Receiver");
      const names = parsed.alertSettings!.map((a) => a.alertName).sort();
      expect(names).toEqual(["fall", "fixedLow", "high", "low", "outOfRange", "rise"]);
      for (const a of parsed.alertSettings!) {
        seen[a.alertName] = (seen[a.alertName] ?? new Set()).add(a.value);
        enabled[a.alertName] = (enabled[a.alertName] ?? new Set()).add(a.enabled);
        expect(Number.isInteger(a.snooze) && Number.isInteger(a.delay)).toBe(true);
        const unitFor = {
          high: "mg/dL",
          low: "mg/dL",
          fixedLow: "mg/dL",
          rise: "mg/dL/min",
          fall: "mg/dL/min",
          outOfRange: "minutes",
        };
        expect(a.unit).toBe(unitFor[a.alertName]);
      }
    }
    const range = (from: number, to: number, step: number) =>
      new Set(Array.from({ length: (to - from) / step + 1 }, (_, i) => from + i * step));
    expect(seen.high).toEqual(range(120, 400, 10));
    expect(seen.low).toEqual(range(60, 100, 5));
    expect(seen.rise).toEqual(new Set([2, 3]));
    expect(seen.fall).toEqual(new Set([2, 3]));
    expect(seen.outOfRange).toEqual(range(20, 240, 5));
    expect(seen.fixedLow).toEqual(new Set([55]));
    expect(enabled.fixedLow).toEqual(new Set([true]));
    expect(enabled.rise).toEqual(new Set([true, false]));
  });

  it("devices ignore the time of day (whole days give the same answer)", () => {
    const u = user("SandboxUser1");
    const dayStart = Math.floor((NOW - 10 * DAY) / DAY) * DAY;
    const a = devicesV2(u, ...wholeDays(dayStart + 3_600_000, dayStart + 5 * DAY), NOW);
    const b = devicesV2(u, ...wholeDays(dayStart + 23 * 3_600_000, dayStart + 5 * DAY + 60_000), NOW);
    expect(a).toEqual(b);
  });
});

describe("dataRange", () => {
  it("equals the first and last records of a full-history generation", () => {
    for (const name of ["SandboxUser3", "SandboxUser5"]) {
      const u = user(name);
      for (const now of [NOW, NOW - 123 * DAY - 4_321_000]) {
        const r = dataRange(u, now);
        const egvs = generateEgvs(u, HISTORY_START_MS, now, now);
        const events = generateEvents(u, HISTORY_START_MS, now, now);
        const cals = generateCalibrations(u, HISTORY_START_MS, now, now);
        const expectBounds = (b: typeof r.egvs, rows: Array<{ systemMs: number; displayMs: number }>) => {
          if (rows.length === 0) return expect(b).toBeNull();
          expect(b).toEqual({
            startMs: rows[0]!.systemMs,
            endMs: rows.at(-1)!.systemMs,
            startDisplayMs: rows[0]!.displayMs,
            endDisplayMs: rows.at(-1)!.displayMs,
          });
          expect(r.displayOf(rows[0]!.systemMs)).toBe(rows[0]!.displayMs);
        };
        expectBounds(r.egvs, egvs);
        expectBounds(r.events, events);
        expectBounds(r.calibrations, cals);
      }
    }
  }, 30_000);

  it("SandboxUser1 has ≥ 365 days of history and SandboxUser6 none", () => {
    const r = dataRange(user("SandboxUser1"), NOW);
    expect(r.egvs!.endMs - r.egvs!.startMs).toBeGreaterThanOrEqual(365 * DAY);
    expect(NOW - r.egvs!.endMs).toBeLessThan(3 * 3_600_000);
    expect(r.calibrations).toBeNull();
    const six = dataRange(user("SandboxUser6"), NOW);
    expect([six.egvs, six.events, six.calibrations]).toEqual([null, null, null]);
  });

  it("is cheap", () => {
    const t0 = performance.now();
    for (const u of SANDBOX_USERS) dataRange(u, NOW + 3_600_000);
    console.log(`dataRange of all users (mostly cached days): ${(performance.now() - t0).toFixed(1)} ms`);
  });
});
