import { describe, expect, it } from "vitest";
import { type AlertNameV3, deviceV3Schema, parseServiceTime, serviceTimeUtcMs } from "@/lib/cgm";
import type { SandboxAlert } from "../records";
import { findSandboxUser, SANDBOX_USERS, type SandboxUser } from "../users";
import {
  dataRangeV3,
  devicesV3,
  generateAlerts,
  generateEgvs,
  generateEvents,
  generateV3OnlyEvents,
  SMOOTHING_LAG_MS,
  scheduleAt,
  transmitterAt,
  transmitterTicks,
} from ".";

/** The data behind API v3 (service-v3-notes §3): transmitters, alerts, devices, v3-only events. */

const DAY = 86_400_000;
const MIN = 60_000;
const NOW = Date.UTC(2026, 10, 22, 18, 3, 27);
const user = (name: string): SandboxUser => findSandboxUser(name)!;
const withData = SANDBOX_USERS.filter((u) => u.hasData);

describe("transmitters (notes §3.1, §5 item 3)", () => {
  it("an opaque 64-hex id, the same for a record whenever it is asked", () => {
    for (const u of withData) {
      const t = transmitterAt(u, NOW - 3 * DAY);
      expect(t.id).toMatch(/^[0-9a-f]{64}$/);
      expect(transmitterAt(u, NOW - 3 * DAY)).toEqual(t);
    }
    expect(new Set(withData.map((u) => transmitterAt(u, NOW).id)).size).toBe(withData.length);
  });

  it("G7-family sensors carry their own transmitter; a G6 transmitter serves 9 sensors", () => {
    for (const name of ["SandboxUser1", "SandboxUser7", "SandboxUser2"]) {
      const u = user(name);
      const egvs = generateEgvs(u, NOW - 60 * DAY, NOW, NOW);
      const changes = egvs.slice(1).filter((e, i) => e.systemMs - egvs[i]!.systemMs === 2 * 3_600_000);
      const ids = changes.map((e) => transmitterAt(u, e.systemMs).id);
      const before = changes.map((e) => transmitterAt(u, e.systemMs - 3 * 3_600_000).id);
      const changed = ids.filter((id, i) => id !== before[i]).length;
      if (u.device.sessionsPerTransmitter === 1) expect(changed).toBe(changes.length);
      else expect(changed).toBeLessThanOrEqual(1);
    }
  });

  it("transmitterTicks are seconds since the transmitter started, 300 apart between readings", () => {
    const u = user("SandboxUser7");
    const egvs = generateEgvs(u, NOW - DAY, NOW, NOW);
    const ticks = egvs.map((e) => transmitterTicks(transmitterAt(u, e.systemMs), e.systemMs));
    for (let i = 1; i < egvs.length; i++) {
      if (transmitterAt(u, egvs[i]!.systemMs).id !== transmitterAt(u, egvs[i - 1]!.systemMs).id) continue;
      expect(ticks[i]! - ticks[i - 1]!).toBe((egvs[i]!.systemMs - egvs[i - 1]!.systemMs) / 1000);
    }
    // A 15.5-day sensor: never more than 15.5 days and the 2 h warm-up of ticks.
    for (const t of ticks) expect(t).toBeLessThanOrEqual(15.5 * 86_400 + 7200);
    expect(ticks.every((t) => t >= 7200)).toBe(true);
  });
});

/** The final v3 value (smoothed where one exists) and rate of each reading, by systemMs. */
function readingsOf(u: SandboxUser, from: number, to: number) {
  return new Map(
    generateEgvs(u, from, to, NOW).map((e) => [
      e.systemMs,
      { value: e.smoothedMgdl ?? e.realtimeMgdl, rate: e.trendRateMgdlPerMin },
    ]),
  );
}

describe("alerts (notes §3.5): generated from the glucose and the settings in force", () => {
  const from = NOW - 30 * DAY;

  it("each sounding of a glucose alert is at a reading that meets its condition", () => {
    for (const u of withData) {
      const readings = readingsOf(u, from - DAY, NOW);
      const alerts = generateAlerts(u, from, NOW, NOW);
      expect(alerts.length, u.username).toBeGreaterThan(10);
      for (const a of alerts.filter((x) => x.alertState === "activeAlarming")) {
        if (a.alertName === "outOfRange" || a.alertName === "noReadings") continue;
        const r = readings.get(a.systemMs);
        expect(r, `${u.username} ${a.alertName} at ${a.systemMs}`).toBeDefined();
        const s = scheduleAt(u, a.systemMs).values;
        const v = r!.value;
        const met: Partial<Record<AlertNameV3, boolean>> = {
          urgentLow: v < 55,
          fixedLow: v < 55,
          urgentLowSoon: v >= 55 && r!.rate !== null && v + 20 * r!.rate < 55,
          low: v < s.low,
          high: v > s.high,
          rise: r!.rate !== null && r!.rate >= s.rise,
          fall: r!.rate !== null && r!.rate <= -s.fall,
        };
        expect(met[a.alertName], `${u.username} ${a.alertName} ${v}`).toBe(true);
      }
    }
  });

  it("every urgentLow sounds at a reading below 55, and every reading below 55 is inside an urgentLow episode", () => {
    const u = user("SandboxUser2");
    const readings = readingsOf(u, from, NOW - SMOOTHING_LAG_MS);
    const urgent = generateAlerts(u, from, NOW, NOW).filter((a) => a.alertName === "urgentLow");
    for (const a of urgent.filter((x) => x.alertState === "activeAlarming"))
      expect(readings.get(a.systemMs)!.value).toBeLessThan(55);
    // Episodes: from a sounding to its inactive record.
    const episodes: Array<[number, number]> = [];
    let start: number | null = null;
    for (const a of urgent) {
      if (a.alertState === "activeAlarming" && start === null) start = a.systemMs;
      if (a.alertState === "inactive" && start !== null) {
        episodes.push([start, a.systemMs]);
        start = null;
      }
    }
    const lows = [...readings].filter(([t, r]) => r.value < 55 && t > from + DAY && t < NOW - DAY);
    expect(lows.length).toBeGreaterThan(20);
    for (const [t] of lows)
      expect(
        episodes.some(([a, b]) => t >= a && t < b),
        `reading at ${t}`,
      ).toBe(true);
  });

  it("states follow each other as an alert's life: sounding, acknowledged, sounding again, cleared", () => {
    for (const u of withData) {
      const byName = new Map<string, SandboxAlert[]>();
      for (const a of generateAlerts(u, from, NOW, NOW))
        byName.set(a.alertName, [...(byName.get(a.alertName) ?? []), a]);
      for (const [name, list] of byName) {
        // Start at the first sounding (the window may begin inside an episode).
        let state = "inactive";
        for (const a of list.slice(list.findIndex((x) => x.alertState === "activeAlarming"))) {
          const allowed =
            state === "inactive"
              ? ["activeAlarming"]
              : state === "activeAlarming"
                ? ["activeSnoozed", "inactive"]
                : ["activeAlarming", "inactive"];
          expect(allowed, `${u.username} ${name} after ${state}`).toContain(a.alertState);
          state = a.alertState;
        }
      }
    }
  });

  it("only the alerts a device has: ONE+ has no urgentLow, urgentLowSoon, rise or fall", () => {
    for (const u of withData) {
      const names = new Set(generateAlerts(u, from, NOW, NOW).map((a) => a.alertName));
      for (const n of names) expect(u.device.alertNames, u.username).toContain(n);
    }
    const onePlus = new Set(
      generateAlerts(user("SandboxUser8"), NOW - 90 * DAY, NOW, NOW).map((a) => a.alertName),
    );
    for (const n of ["urgentLow", "urgentLowSoon", "rise", "fall", "fixedLow"])
      expect(onePlus.has(n as AlertNameV3)).toBe(false);
    expect(onePlus.has("high")).toBe(true);
    // The G4/G5 users call the 55 mg/dL alarm fixedLow.
    expect(generateAlerts(user("SandboxUser3"), from, NOW, NOW).some((a) => a.alertName === "fixedLow")).toBe(
      true,
    );
  });

  it("signal loss: outOfRange sounds when no reading has come for its minutes, and clears at the next", () => {
    const u = user("SandboxUser1");
    const readings = [...readingsOf(u, from - DAY, NOW).keys()];
    const alerts = generateAlerts(u, from, NOW, NOW).filter(
      (a) => a.alertName === "outOfRange" || a.alertName === "noReadings",
    );
    expect(alerts.length).toBeGreaterThan(3);
    for (const a of alerts.filter((x) => x.alertState === "activeAlarming")) {
      const last = readings.filter((t) => t < a.systemMs).at(-1)!;
      const minutes = a.alertName === "noReadings" ? 20 : scheduleAt(u, last).values.outOfRange;
      expect(a.systemMs - last).toBeGreaterThanOrEqual(minutes * MIN);
    }
    for (const a of alerts.filter((x) => x.alertState === "inactive")) expect(readings).toContain(a.systemMs);
  });

  it("the same records whatever the window, and none newer than now less the smoothing lag", () => {
    for (const name of ["SandboxUser2", "SandboxUser4", "SandboxUser7"]) {
      const u = user(name);
      const wide = generateAlerts(u, NOW - 20 * DAY, NOW, NOW);
      const narrow = generateAlerts(u, NOW - 9 * DAY - 7 * MIN, NOW - 8 * DAY, NOW);
      expect(narrow).toEqual(
        wide.filter((a) => a.systemMs >= NOW - 9 * DAY - 7 * MIN && a.systemMs <= NOW - 8 * DAY),
      );
      expect(wide.at(-1)!.systemMs).toBeLessThanOrEqual(NOW - SMOOTHING_LAG_MS);
      // Known then, known the same way now.
      const then = NOW - 5 * DAY;
      const old = generateAlerts(u, then - 3 * DAY, then, then);
      expect(old).toEqual(
        wide.filter((a) => a.systemMs >= then - 3 * DAY && a.systemMs <= then - SMOOTHING_LAG_MS),
      );
    }
  });
});

describe("devices (notes §3.4)", () => {
  it("parse with the v3 schema; one device, as of the last upload; none for a user who never uploaded", () => {
    for (const u of SANDBOX_USERS) {
      const devices = devicesV3(u, NOW);
      if (!u.hasData) {
        expect(devices).toEqual([]);
        continue;
      }
      expect(devices).toHaveLength(1);
      const d = deviceV3Schema.strict().parse(devices[0]);
      const upload = serviceTimeUtcMs(parseServiceTime(d.lastUploadDate)!);
      // Uploaded 3–40 s after the last reading (devices.ts), never after now.
      const lastReading = generateEgvs(u, NOW - 30 * DAY, NOW, NOW).at(-1)!.systemMs;
      expect(upload).toBeLessThanOrEqual(NOW);
      expect(upload - lastReading).toBeGreaterThanOrEqual(3000);
      expect(upload - lastReading).toBeLessThanOrEqual(40_000);
      expect(d.transmitterGenerationVariant).toBe(u.device.variant);
      const def = d.alertSchedules[0]!;
      expect(def.alertScheduleSettings).toMatchObject({
        alertScheduleName: "",
        isDefaultSchedule: true,
        startTime: "00:00",
        endTime: "00:00",
      });
      for (const s of d.alertSchedules)
        expect(s.alertSettings.map((a) => a.alertName)).toEqual(u.device.alertNames);
      expect(d.alertSchedules.filter((s) => s.alertScheduleSettings.isActive)).toHaveLength(1);
      // Receivers write no offsets, phones do.
      expect(d.lastUploadDate.endsWith("Z")).toBe(u.displayDevice !== "receiver");
    }
  });

  it("SandboxUser8 (ONE+) lacks urgentLow, urgentLowSoon, rise and fall; SandboxUser7 has a vibrate override", () => {
    const [one] = devicesV3(user("SandboxUser8"), NOW);
    expect(one!.alertSchedules[0]!.alertSettings.map((a) => a.alertName)).toEqual([
      "low",
      "high",
      "noReadings",
      "outOfRange",
    ]);
    expect(one).toMatchObject({
      transmitterGeneration: "g7",
      transmitterGenerationVariant: "d1+",
      displayApp: "D1G7",
    });
    const [seven] = devicesV3(user("SandboxUser7"), NOW);
    expect(seven).toMatchObject({
      transmitterGeneration: "g715day",
      transmitterGenerationVariant: "g715day",
    });
    // 18:01 UTC on a Sunday in Berlin: no override then; on a weekday at 10:00 local it vibrates until 11:30.
    expect(seven!.alertSchedules[0]!.alertScheduleSettings.override).toEqual({
      isOverrideEnabled: false,
      mode: "vibrate",
      endTime: null,
    });
    const monday10 = Date.UTC(2026, 10, 23, 9, 0);
    const [working] = devicesV3(user("SandboxUser7"), monday10);
    expect(
      working!.alertSchedules.find((s) => s.alertScheduleSettings.isActive)!.alertScheduleSettings.override,
    ).toEqual({
      isOverrideEnabled: true,
      mode: "vibrate",
      endTime: "2026-11-23T10:30:00Z",
    });
  });

  it("the night schedule is in force on its days and hours, past midnight on the day it started", () => {
    const u = user("SandboxUser1"); // 22:00–06:00, Sunday to Thursday, New York
    const at = (y: number, mo: number, d: number, h: number) => scheduleAt(u, Date.UTC(y, mo, d, h + 5)).name;
    expect(at(2026, 10, 19, 23)).toBe("night"); // Thursday 23:00
    expect(at(2026, 10, 20, 3)).toBe("night"); // Friday 03:00: Thursday's night
    expect(at(2026, 10, 20, 23)).toBe("default"); // Friday 23:00
    expect(at(2026, 10, 21, 3)).toBe("default"); // Saturday 03:00: Friday's night is none
    expect(at(2026, 10, 22, 12)).toBe("default");
  });
});

describe("events only v3 carries (notes §3.3)", () => {
  it("fingersticks (bloodGlucose, mg/dL) and notes for users 1, 2 and 7; none for the others", () => {
    for (const u of withData) {
      const events = generateV3OnlyEvents(u, NOW - 60 * DAY, NOW, NOW);
      if (!u.profile.v3OnlyEvents) {
        expect(events, u.username).toEqual([]);
        continue;
      }
      expect(new Set(events.map((e) => e.eventType))).toEqual(new Set(["bloodGlucose", "notes"]));
      for (const e of events) {
        if (e.eventType === "bloodGlucose") {
          expect(e.unit).toBe("mg/dL");
          expect(Number(e.value)).toBeGreaterThanOrEqual(20);
        } else expect(e.value.length).toBeGreaterThan(3);
        const hour = new Date(e.displayMs).getUTCHours();
        expect(hour >= 7 && hour < 23).toBe(true);
      }
      // Their ids never meet a logged event's.
      const ids = new Set(generateEvents(u, NOW - 60 * DAY, NOW, NOW).map((e) => e.eventId));
      for (const e of events) expect(ids.has(e.eventId)).toBe(false);
    }
  });
});

describe("dataRange v3 (notes §3.6)", () => {
  it("without lastSyncTime the v2 bounds; the events group counts the v3-only events too", () => {
    const u = user("SandboxUser1");
    const r = dataRangeV3(u, NOW, null);
    const all = [
      ...generateEvents(u, r.events!.startMs, NOW, NOW),
      ...generateV3OnlyEvents(u, r.events!.startMs, NOW, NOW),
    ].map((e) => e.systemMs);
    expect(r.events!.endMs).toBe(Math.max(...all));
    expect(r.egvs!.endMs).toBe(generateEgvs(u, NOW - DAY, NOW, NOW).at(-1)!.systemMs);
  });

  it("with lastSyncTime only what is newer: the first record after it, or null", () => {
    const u = user("SandboxUser3");
    const last = NOW - 2 * DAY;
    const r = dataRangeV3(u, NOW, last);
    expect(r.egvs!.startMs).toBe(generateEgvs(u, last + 1, NOW, NOW)[0]!.systemMs);
    expect(r.egvs!.endMs).toBe(generateEgvs(u, NOW - DAY, NOW, NOW).at(-1)!.systemMs);
    expect(r.calibrations!.startMs).toBeGreaterThan(last);
    const none = dataRangeV3(u, NOW, NOW);
    expect([none.egvs, none.events, none.calibrations]).toEqual([null, null, null]);
  });
});
