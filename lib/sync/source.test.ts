import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  type Calibration,
  type CgmEvent,
  type DataRangeResponse,
  type EgvsV2Response,
  formatDateTime,
  MS_PER_DAY,
  MS_PER_HOUR,
  MS_PER_MINUTE,
  type Window,
  windowOf,
} from "@/lib/cgm";
import { FinishedDays, finishedBeforeMs } from "./finished-days";

/**
 * readEgvsByDays against a service made up here (the service client replaced): what it answers
 * with finished days kept must be what the service answers for the same window, whatever the
 * days held, the budget, the other connections, or a change of unit.
 */

const service = vi.hoisted(() => ({
  calls: [] as { connection: string; startMs: number; endMs: number }[],
  unit: new Map<string, "mg/dL" | "mmol/L">(),
}));

// Readings every 5 minutes over 120 days up to NEWEST; each connection has its own values.
const NEWEST = Date.UTC(2026, 10, 20, 13, 37, 30);
const FIRST = NEWEST - 120 * MS_PER_DAY;
const STEP = 5 * MS_PER_MINUTE;

function answer(connection: string, w: Window): EgvsV2Response {
  const mmol = service.unit.get(connection) === "mmol/L";
  const egvs = [];
  for (
    let t = FIRST + Math.ceil(Math.max(0, w.startMs - FIRST) / STEP) * STEP;
    t <= Math.min(w.endMs, NEWEST);
    t += STEP
  ) {
    const mgdl = (connection === "a" ? 60 : 150) + ((t / STEP) % 120);
    const value = mmol ? Math.round((mgdl / 18) * 10) / 10 : mgdl;
    egvs.push({
      systemTime: formatDateTime(t),
      displayTime: formatDateTime(t + MS_PER_HOUR),
      value,
      realtimeValue: value,
      smoothedValue: null,
      status: null,
      trend: "flat" as const,
      trendRate: 0,
    });
  }
  return mmol
    ? { unit: "mmol/L", rateUnit: "mmol/L/min", egvs }
    : { unit: "mg/dL", rateUnit: "mg/dL/min", egvs };
}

vi.mock("@/lib/service-client/client", () => ({
  configuredVersion: () => "v3",
  getEgvs: async (connection: string, _version: string, w: Window) => {
    service.calls.push({ connection, startMs: w.startMs, endMs: w.endMs });
    return answer(connection, w);
  },
  getEvents: async () => ({ events: [] }),
  getCalibrations: async () => ({ calibrations: [] }),
  getDataRange: async () => {
    throw new Error("not asked in these tests");
  },
}));

const { readByDays, readEgvsByDays } = await import("./source");

const finishedBefore = finishedBeforeMs(NEWEST, 24 * MS_PER_HOUR);
const ownerOf = (connectionId: string) => ({ connectionId, generation: "1" });
// Never synced: every read goes to the service, as the copy's own tests cover the copy.
const source = { newest: {} as DataRangeResponse, synced: null };

const windowOfDays = (days: number) => windowOf(NEWEST - days * MS_PER_DAY, NEWEST);

async function read(cache: FinishedDays, connection: string, w: Window) {
  return readEgvsByDays(connection, w, source, { owner: ownerOf(connection), finishedBefore }, cache);
}

beforeEach(() => {
  service.calls.length = 0;
  service.unit.clear();
});

describe("EGVs read with finished days", () => {
  it("answers every range as the service does, and a switch back reads only what is not finished", async () => {
    const cache = new FinishedDays(64 * 1024 * 1024);
    for (const days of [90, 14, 1, 90, 30]) {
      const w = windowOfDays(days);
      expect(await read(cache, "a", w)).toEqual(answer("a", w));
    }
    service.calls.length = 0;
    const w = windowOfDays(90);
    expect(await read(cache, "a", w)).toEqual(answer("a", w));
    expect(service.calls).toEqual([{ connection: "a", startMs: finishedBefore, endMs: NEWEST }]);
    // A window inside the finished days needs no call at all, its ends cut to the second.
    service.calls.length = 0;
    const inside = windowOf(NEWEST - 40 * MS_PER_DAY + 1234, NEWEST - 20 * MS_PER_DAY - 777);
    expect(await read(cache, "a", inside)).toEqual(answer("a", inside));
    expect(service.calls).toEqual([]);
  });

  it("never answers one connection with another's days", async () => {
    const cache = new FinishedDays(64 * 1024 * 1024);
    const w = windowOfDays(30);
    await read(cache, "a", w);
    expect(await read(cache, "b", w)).toEqual(answer("b", w));
    expect(await read(cache, "a", w)).toEqual(answer("a", w));
  });

  it("reads the whole window again when the patient changed unit", async () => {
    const cache = new FinishedDays(64 * 1024 * 1024);
    const w = windowOfDays(30);
    await read(cache, "a", w);
    service.unit.set("a", "mmol/L");
    const after = await read(cache, "a", w);
    expect(after.unit).toBe("mmol/L");
    expect(after).toEqual(answer("a", w));
    // And keeps the days in the new unit.
    expect(await read(cache, "a", w)).toEqual(answer("a", w));
  });

  it("answers the same within a budget far smaller than the window, and keeps to it", async () => {
    const cache = new FinishedDays(5 * 288 * 400);
    for (const days of [90, 14, 90]) {
      const w = windowOfDays(days);
      expect(await read(cache, "a", w)).toEqual(answer("a", w));
      expect(cache.bytes).toBeLessThanOrEqual(cache.budgetBytes);
    }
  });

  it("reads windows of unfinished days as before", async () => {
    const cache = new FinishedDays(64 * 1024 * 1024);
    const w = windowOf(finishedBefore + MS_PER_HOUR, NEWEST);
    expect(await read(cache, "a", w)).toEqual(answer("a", w));
    expect(cache.size).toBe(0);
  });
});

/**
 * Events and calibrations made up here: four events a day, one on each day's first second and one
 * on its last (the service's windows include both ends, to the second), two at one time (their
 * order is the service's), every seventh deleted (kept as the service sends it); a calibration
 * every 12 hours, in the connection's unit.
 */
function eventsAnswer(connection: string, w: Window): { events: CgmEvent[] } {
  const events: CgmEvent[] = [];
  const firstDay = Math.floor(FIRST / MS_PER_DAY);
  for (let d = firstDay; d * MS_PER_DAY <= NEWEST; d++)
    for (const [k, offset] of [0, 7 * MS_PER_HOUR, 7 * MS_PER_HOUR, MS_PER_DAY - 1000].entries()) {
      const t = d * MS_PER_DAY + offset;
      if (t < w.startMs || t > w.endMs || t > NEWEST) continue;
      events.push({
        systemTime: formatDateTime(t),
        displayTime: formatDateTime(t + MS_PER_HOUR),
        eventId: `${connection}-${d}-${k}`,
        eventStatus: (d + k) % 7 === 0 ? "deleted" : "created",
        eventType: "carbs",
        eventSubType: null,
        value: k + (connection === "a" ? 10 : 20),
        unit: "grams",
      });
    }
  return { events };
}

function calibrationsAnswer(connection: string, w: Window): { calibrations: Calibration[] } {
  const mmol = service.unit.get(connection) === "mmol/L";
  const calibrations: Calibration[] = [];
  for (
    let t = Math.ceil(w.startMs / (12 * MS_PER_HOUR)) * 12 * MS_PER_HOUR;
    t <= Math.min(w.endMs, NEWEST);
    t += 12 * MS_PER_HOUR
  )
    calibrations.push({
      systemTime: formatDateTime(t),
      displayTime: formatDateTime(t + MS_PER_HOUR),
      value: mmol ? 6.1 : 110,
      unit: mmol ? "mmol/L" : "mg/dL",
    });
  return { calibrations };
}

describe("events and calibrations read with finished days", () => {
  const fresh =
    <T>(answer: (connection: string, w: Window) => T) =>
    async (connection: string | object, w: Window) => {
      service.calls.push({ connection: String(connection), startMs: w.startMs, endMs: w.endMs });
      return answer(String(connection), w);
    };
  const readEventsOf = (cache: FinishedDays, connection: string, w: Window) =>
    readByDays(
      "events",
      fresh(eventsAnswer),
      connection,
      w,
      source,
      { owner: ownerOf(connection), finishedBefore },
      cache,
    );
  const readCalibrationsOf = (cache: FinishedDays, connection: string, w: Window) =>
    readByDays(
      "calibrations",
      fresh(calibrationsAnswer),
      connection,
      w,
      source,
      { owner: ownerOf(connection), finishedBefore },
      cache,
    );

  it("answers every range exactly as the service does, boundary seconds and deleted events included, reading again only the unfinished days", async () => {
    const cache = new FinishedDays(64 * 1024 * 1024);
    for (const days of [90, 14, 90, 30]) {
      const w = windowOfDays(days);
      expect(await readEventsOf(cache, "a", w)).toEqual(eventsAnswer("a", w));
    }
    // A window cut on a boundary second: the event on it is answered once.
    const boundary = windowOf(Date.UTC(2026, 9, 1), Date.UTC(2026, 9, 10) - 1000);
    const answered = await readEventsOf(cache, "a", boundary);
    expect(answered).toEqual(eventsAnswer("a", boundary));
    expect(answered.events[0]?.systemTime).toBe("2026-10-01T00:00:00");
    expect(answered.events.at(-1)?.systemTime).toBe("2026-10-09T23:59:59");
    expect(answered.events.some((e) => e.eventStatus === "deleted")).toBe(true);
    service.calls.length = 0;
    const w = windowOfDays(90);
    expect(await readEventsOf(cache, "a", w)).toEqual(eventsAnswer("a", w));
    expect(service.calls).toEqual([{ connection: "a", startMs: finishedBefore, endMs: NEWEST }]);
    // Another connection's events are its own, beside the first one's EGVs in the same cache.
    expect(await readEventsOf(cache, "b", w)).toEqual(eventsAnswer("b", w));
    expect(await read(cache, "a", w)).toEqual(answer("a", w));
    expect(await readEventsOf(cache, "a", w)).toEqual(eventsAnswer("a", w));
  });

  it("reads calibrations whole again when the patient changed unit, and keeps them in the new one", async () => {
    const cache = new FinishedDays(64 * 1024 * 1024);
    const w = windowOfDays(30);
    expect(await readCalibrationsOf(cache, "a", w)).toEqual(calibrationsAnswer("a", w));
    service.unit.set("a", "mmol/L");
    // The read after the change drops the days of the old unit; the next keeps the new ones.
    expect(await readCalibrationsOf(cache, "a", w)).toEqual(calibrationsAnswer("a", w));
    expect(await readCalibrationsOf(cache, "a", w)).toEqual(calibrationsAnswer("a", w));
    service.calls.length = 0;
    expect(await readCalibrationsOf(cache, "a", w)).toEqual(calibrationsAnswer("a", w));
    expect(service.calls).toEqual([{ connection: "a", startMs: finishedBefore, endMs: NEWEST }]);
  });
});
