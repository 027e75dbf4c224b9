import { describe, expect, it } from "vitest";
import { eventV2Schema, exerciseSubTypes, formatDateTime, healthSubTypes } from "@/lib/cgm";
import { findSandboxUser, SANDBOX_USERS, type SandboxUser } from "../users";
import { clearDayCache, generateCalibrations, generateEgvs, generateEvents, HISTORY_START_MS } from ".";

const DAY = 86_400_000;
const MIN = 60_000;
const NOW = Date.UTC(2026, 10, 22, 18, 3, 27);
const user = (name: string): SandboxUser => findSandboxUser(name)!;
const UNITS = { carbs: "grams", insulin: "units", exercise: "minutes", health: null } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("events", () => {
  it("every type and subtype occurs for SandboxUser1 and SandboxUser2 in every 30 days, with the right units", () => {
    for (const name of ["SandboxUser1", "SandboxUser2"]) {
      const u = user(name);
      for (let k = 0; k < 20; k++) {
        const now = NOW - k * 31 * DAY - k * 5_555_000;
        const events = generateEvents(u, now - 30 * DAY, now, now);
        const kinds = new Set(
          events.filter((e) => e.eventStatus === "created").map((e) => e.eventSubType ?? e.eventType),
        );
        for (const kind of ["carbs", "insulin", ...exerciseSubTypes, ...healthSubTypes]) {
          expect(kinds, `${name} lacks ${kind} in the 30 days to ${formatDateTime(now)}`).toContain(kind);
        }
      }
    }
  });

  it("records are well formed, ascending, with units per type and null subtypes for carbs and insulin", () => {
    // SandboxUser8's Dexcom ONE+ takes no events (below).
    for (const u of SANDBOX_USERS.filter((x) => x.hasData && x.username !== "SandboxUser8")) {
      const events = generateEvents(u, NOW - 60 * DAY, NOW, NOW);
      expect(events.length).toBeGreaterThan(60 * 3);
      for (let i = 1; i < events.length; i++)
        expect(events[i]!.systemMs).toBeGreaterThanOrEqual(events[i - 1]!.systemMs);
      for (const e of events) {
        expect(e.unit).toBe(UNITS[e.eventType]);
        if (e.eventType === "carbs" || e.eventType === "insulin") expect(e.eventSubType).toBeNull();
        if (e.eventType === "exercise") expect(exerciseSubTypes).toContain(e.eventSubType);
        if (e.eventType === "health") {
          expect(healthSubTypes).toContain(e.eventSubType);
          expect(e.value).toBeNull();
        } else {
          expect(e.value).toBeGreaterThan(0);
        }
        if (e.eventType === "carbs" || e.eventType === "exercise")
          expect(Number.isInteger(e.value)).toBe(true);
        expect(e.systemMs % 1000).toBe(0);
        expect(Math.abs((e.displayMs - e.systemMs) % MIN)).toBe(0);
        expect(e.eventId).toMatch(UUID);
        eventV2Schema.parse({
          systemTime: formatDateTime(e.systemMs),
          displayTime: formatDateTime(e.displayMs),
          eventType: e.eventType,
          eventSubType: e.eventSubType,
          value: e.value,
          unit: e.unit,
          eventId: e.eventId,
          eventStatus: e.eventStatus,
        });
      }
    }
  });

  it("meals sit at local (display) times: breakfast, lunch and dinner hours", () => {
    const u = user("SandboxUser2");
    const carbs = generateEvents(u, NOW - 60 * DAY, NOW, NOW).filter(
      (e) => e.eventType === "carbs" && (e.value ?? 0) >= 30,
    );
    const hours = carbs.map((e) => new Date(e.displayMs).getUTCHours());
    const share = (from: number, to: number) =>
      hours.filter((h) => h >= from && h < to).length / hours.length;
    expect(share(5, 10)).toBeGreaterThan(0.2);
    expect(share(11, 14)).toBeGreaterThan(0.2);
    expect(share(17, 21)).toBeGreaterThan(0.2);
  });

  it("some events are deleted (about 3%), stably, and ids are unique over the whole history", () => {
    for (const name of ["SandboxUser1", "SandboxUser2", "SandboxUser3", "SandboxUser4", "SandboxUser5"]) {
      const u = user(name);
      const all = generateEvents(u, HISTORY_START_MS, NOW, NOW);
      const deleted = all.filter((e) => e.eventStatus === "deleted");
      expect(deleted.length / all.length).toBeGreaterThan(0.01);
      expect(deleted.length / all.length).toBeLessThan(0.06);
      expect(new Set(all.map((e) => e.eventId)).size).toBe(all.length);
      // The same records (ids and statuses) from another window and a fresh cache.
      clearDayCache();
      const part = generateEvents(u, NOW - 100 * DAY, NOW - 70 * DAY, NOW + 100 * DAY);
      const byId = new Map(all.map((e) => [e.eventId, e]));
      expect(part.length).toBeGreaterThan(0);
      for (const e of part) expect(byId.get(e.eventId)).toEqual(e);
    }
    for (const name of ["SandboxUser1", "SandboxUser2"]) {
      const recent = generateEvents(user(name), NOW - 30 * DAY, NOW, NOW);
      expect(recent.some((e) => e.eventStatus === "deleted")).toBe(true);
    }
  });

  it("the window is inclusive, cut at now, and nothing precedes the history start", () => {
    const u = user("SandboxUser1");
    const events = generateEvents(u, NOW - 3 * DAY, NOW + 3 * DAY, NOW);
    expect(events.at(-1)!.systemMs).toBeLessThanOrEqual(NOW);
    const e = events[5]!;
    expect(generateEvents(u, e.systemMs, e.systemMs, NOW)).toContainEqual(e);
    expect(generateEvents(u, HISTORY_START_MS - 10 * DAY, HISTORY_START_MS - 1, NOW)).toEqual([]);
    expect(generateEvents(u, HISTORY_START_MS, HISTORY_START_MS + DAY, NOW).length).toBeGreaterThan(0);
  });

  it("SandboxUser6 and SandboxUser8 (Dexcom ONE+, which takes no events) log nothing", () => {
    expect(generateEvents(user("SandboxUser6"), HISTORY_START_MS, NOW, NOW)).toEqual([]);
    expect(generateEvents(user("SandboxUser8"), HISTORY_START_MS, NOW, NOW)).toEqual([]);
  });
});

describe("calibrations", () => {
  it("G4/G5 users calibrate about twice a day, near the true glucose; the others never", () => {
    for (const name of ["SandboxUser3", "SandboxUser4"]) {
      const u = user(name);
      const cals = generateCalibrations(u, NOW - 28 * DAY, NOW, NOW);
      expect(cals.length / 28).toBeGreaterThan(1.6);
      expect(cals.length / 28).toBeLessThan(3);
      const egvs = generateEgvs(u, NOW - 29 * DAY, NOW, NOW);
      let compared = 0;
      for (const c of cals) {
        expect(Number.isInteger(c.valueMgdl)).toBe(true);
        expect(c.valueMgdl).toBeGreaterThanOrEqual(20);
        expect(c.valueMgdl).toBeLessThanOrEqual(600);
        expect(Math.abs((c.displayMs - c.systemMs) % MIN)).toBe(0);
        const near = egvs.find((e) => Math.abs(e.systemMs - c.systemMs) <= 150_000 && e.status === null);
        if (near) {
          compared++;
          expect(Math.abs(c.valueMgdl - near.realtimeMgdl)).toBeLessThan(
            Math.max(35, 0.3 * near.realtimeMgdl),
          );
        }
      }
      expect(compared).toBeGreaterThan(cals.length * 0.6);
      for (let i = 1; i < cals.length; i++)
        expect(cals[i]!.systemMs).toBeGreaterThanOrEqual(cals[i - 1]!.systemMs);
    }
    for (const name of ["SandboxUser1", "SandboxUser2", "SandboxUser5", "SandboxUser6"])
      expect(generateCalibrations(user(name), HISTORY_START_MS, NOW, NOW)).toEqual([]);
  });

  it("two start-up calibrations end each warm-up", () => {
    const u = user("SandboxUser3");
    const egvs = generateEgvs(u, NOW - 30 * DAY, NOW, NOW);
    const cals = generateCalibrations(u, NOW - 30 * DAY, NOW, NOW);
    const starts = egvs.filter((e, i) => i > 0 && e.systemMs - egvs[i - 1]!.systemMs === 2 * 3_600_000);
    expect(starts.length).toBeGreaterThanOrEqual(3);
    for (const s of starts) {
      const before = cals.filter((c) => c.systemMs < s.systemMs && c.systemMs > s.systemMs - 10 * MIN);
      expect(before).toHaveLength(2);
    }
  });
});
