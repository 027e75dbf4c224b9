import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, freePort, startAppServer, UNLIMITED_CALL_BUDGET } from "../support/app-server";
import { clinicClient } from "../support/clinic-client";
import { dashboardApp } from "../support/dashboard-client";
import { basic, dt } from "../support/sandbox-client";
import { serviceReader } from "../support/service-reference";

/**
 * A deployment switched from API v2 to v3 (issue 15, item 4), on a server of its own with the
 * embedded PGlite: a clinic patient (SandboxUser3: EGVs, events and calibrations) is synced in v2,
 * the server restarted on the same data folder with CGM_API_VERSION=v3, and synced again. The
 * synced tables are then read straight from the data folder and compared with the service's v3
 * records: no reading, event or calibration doubled or lost, each with the v3 recordId, the
 * events the sandbox marks "updated" stored so, and an event the patient deleted between the two
 * syncs stored as deleted.
 */

const USER = "SandboxUser3";
const DAY_MS = 86_400_000;
const dataDir = mkdtempSync(path.join(tmpdir(), "glucose-switch-"));
let server: AppServer | undefined;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  // The same port after the restart: the redirect URIs and the sessions name it.
  env = {
    ...UNLIMITED_CALL_BUDGET,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    DATABASE_URL: undefined,
    SYNC_IN_PROCESS: "off",
  };
  server = await startAppServer({ ...env, CGM_API_VERSION: "v2" });
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Stored {
  egvs: { systemMs: number; recordId: string | null; value: number; unit: string }[];
  events: {
    eventId: string;
    systemMs: number;
    eventStatus: string;
    eventType: string;
    text: string | null;
  }[];
  calibrations: { systemMs: number; recordId: string | null; value: number; unit: string }[];
  state: {
    apiVersion: string | null;
    egvsFrom: number;
    egvsThrough: number;
    eventsFrom: number;
    eventsThrough: number;
    calibrationsFrom: number;
    calibrationsThrough: number;
  };
}

/**
 * The synced tables, read from the stopped server's data folder. The last sync is then made a
 * minute older, as if the restart had taken that long: "Sync now" answers from a sync less than
 * 30 s old without syncing (lib/sync/pass.ts SYNC_NOW_FRESH_MS).
 */
async function readStore(): Promise<Stored> {
  const { PGlite } = await import("@electric-sql/pglite");
  const pg = await PGlite.create(path.join(dataDir, "pglite"));
  try {
    await pg.query("update sync_state set last_success_at = last_success_at - interval '1 minute'");
    const ms = (d: unknown) => (d instanceof Date ? d.getTime() : Date.parse(String(d)));
    const rows = async (q: string) => (await pg.query<Record<string, unknown>>(q)).rows;
    const egvs = await rows(
      "select system_time, record_id, value, unit from synced_egvs order by system_time",
    );
    const events = await rows(
      "select event_id, system_time, event_status, event_type, text from synced_events order by system_time, event_id",
    );
    const cals = await rows(
      "select system_time, record_id, value, unit from synced_calibrations order by system_time",
    );
    const [s] = await rows("select * from sync_state");
    if (!s) throw new Error("no sync state");
    return {
      egvs: egvs.map((r) => ({
        systemMs: ms(r.system_time),
        recordId: r.record_id as string | null,
        value: Number(r.value),
        unit: String(r.unit),
      })),
      events: events.map((r) => ({
        eventId: String(r.event_id),
        systemMs: ms(r.system_time),
        eventStatus: String(r.event_status),
        eventType: String(r.event_type),
        text: r.text as string | null,
      })),
      calibrations: cals.map((r) => ({
        systemMs: ms(r.system_time),
        recordId: r.record_id as string | null,
        value: Number(r.value),
        unit: String(r.unit),
      })),
      state: {
        apiVersion: s.api_version as string | null,
        egvsFrom: ms(s.egvs_from),
        egvsThrough: ms(s.egvs_through),
        eventsFrom: ms(s.events_from),
        eventsThrough: ms(s.events_through),
        calibrationsFrom: ms(s.calibrations_from),
        calibrationsThrough: ms(s.calibrations_through),
      },
    };
  } finally {
    await pg.close();
  }
}

interface V3Record {
  recordId: string;
  systemTime: string;
  value: number | string | null;
  eventStatus?: string;
  eventType?: string;
}

/** The service's v3 records of `group` over [fromMs, throughMs], in windows of 30 days (end excluded). */
async function serviceV3(
  read: Awaited<ReturnType<typeof serviceReader>>,
  group: "egvs" | "events" | "calibrations",
  fromMs: number,
  throughMs: number,
): Promise<V3Record[]> {
  const records: V3Record[] = [];
  for (let s = fromMs; s <= throughMs; s += 30 * DAY_MS) {
    const e = Math.min(s + 30 * DAY_MS, throughMs + 1000);
    const res = await read(`v3/users/self/${group}?startDate=${dt(s)}&endDate=${dt(e)}`);
    expect(res.status).toBe(200);
    records.push(...((await res.json()) as { records: V3Record[] }).records);
  }
  return records;
}

const msOf = (systemTime: string) => Date.parse(systemTime.endsWith("Z") ? systemTime : `${systemTime}Z`);
const within = (t: number, from: number, through: number) => t >= from && t <= through;

describe("switching a deployment from API v2 to v3", () => {
  it("keeps every reading, event and calibration once, with v3's identities, edits and deletions", async () => {
    if (!server) throw new Error("no server");
    const c = clinicClient(server.url);
    const admin = await c.clinician();
    const { token, page } = await c.addPatient(admin, "Sam Switch");
    const patientId = c.patientIdIn(page, "Sam Switch");
    await c.acceptAsPatient(token, USER);
    const syncNow = async () => {
      const res = await c.post(`/api/clinic/patients/${patientId}/sync`, {}, { cookie: admin.cookie });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toContain(`&synced=synced&patient=${patientId}`);
    };

    await syncNow();
    await server.stop();
    const v2 = await readStore();
    expect(v2.state.apiVersion).toBe("v2");
    expect(v2.egvs.length).toBeGreaterThan(20_000);
    expect(v2.events.length).toBeGreaterThan(10);
    expect(v2.calibrations.length).toBeGreaterThan(100);
    expect(v2.egvs.every((e) => e.recordId === null && e.unit === "mmol/L")).toBe(true);

    server = await startAppServer({ ...env, CGM_API_VERSION: "v3" });
    // The patient deletes an event the v2 sync stored as created, well inside the backfill.
    const victim = v2.events.filter((e) => e.eventStatus === "created").at(-5);
    if (!victim) throw new Error(`${USER} has events`);
    const deleted = await fetch(`${server.url}/sandbox/developer/apps/glucose-dashboard/deleted-events`, {
      method: "POST",
      headers: { ...basic(dashboardApp(dataDir)), "Content-Type": "application/json" },
      body: JSON.stringify({ username: USER, eventId: victim.eventId, systemTime: dt(victim.systemMs) }),
    });
    expect(deleted.status).toBeLessThan(300);
    await syncNow();
    // The service as another app of the patient sees it (deletions are per app: not the victim's).
    const read = await serviceReader(server.url, USER);
    await server.stop();
    const v3 = await readStore();
    // The store is read; the sandbox answers from a running server (the reader's token is kept).
    server = await startAppServer({ ...env, CGM_API_VERSION: "v3" });
    const { state } = v3;
    expect(state.apiVersion).toBe("v3");

    // EGVs: every reading of the v3 backfill is stored once, as v3 sends it (mg/dL, its recordId);
    // the readings only v2's window held (its first minutes) are kept, none lost.
    const egvs = await serviceV3(read, "egvs", state.egvsFrom, state.egvsThrough);
    const inWindow = v3.egvs.filter((e) => within(e.systemMs, state.egvsFrom, state.egvsThrough));
    expect(inWindow.map((e) => [e.systemMs, e.recordId, e.value, e.unit])).toEqual(
      egvs.map((r) => [msOf(r.systemTime), r.recordId, Number(r.value), "mg/dL"]),
    );
    const storedTimes = new Set(v3.egvs.map((e) => e.systemMs));
    expect(storedTimes.size).toBe(v3.egvs.length);
    expect(v2.egvs.filter((e) => !storedTimes.has(e.systemMs))).toEqual([]);
    expect(v3.egvs.filter((e) => !within(e.systemMs, state.egvsFrom, state.egvsThrough)).length).toBe(
      v2.egvs.filter((e) => e.systemMs < state.egvsFrom).length,
    );

    // Calibrations: the same, by systemTime with the recordId beside.
    const cals = await serviceV3(read, "calibrations", state.calibrationsFrom, state.calibrationsThrough);
    const calsIn = v3.calibrations.filter((e) =>
      within(e.systemMs, state.calibrationsFrom, state.calibrationsThrough),
    );
    expect(calsIn.map((e) => [e.systemMs, e.recordId])).toEqual(
      cals.map((r) => [msOf(r.systemTime), r.recordId]),
    );
    const calTimes = new Set(v3.calibrations.map((e) => e.systemMs));
    expect(calTimes.size).toBe(v3.calibrations.length);
    expect(v2.calibrations.filter((e) => !calTimes.has(e.systemMs))).toEqual([]);

    // Events by recordId (v2's eventId): each once, with v3's status, the deletion applied.
    const events = await serviceV3(read, "events", state.eventsFrom, state.eventsThrough);
    const expected = events
      .map((r) => ({
        eventId: r.recordId,
        systemMs: msOf(r.systemTime),
        eventStatus: r.recordId === victim.eventId ? "deleted" : r.eventStatus,
        eventType: r.eventType,
      }))
      .sort((a, b) => a.systemMs - b.systemMs || a.eventId.localeCompare(b.eventId));
    const eventsIn = v3.events
      .filter((e) => within(e.systemMs, state.eventsFrom, state.eventsThrough))
      .map(({ text: _text, ...e }) => e);
    expect(eventsIn).toEqual(expected);
    expect(new Set(v3.events.map((e) => e.eventId)).size).toBe(v3.events.length);
    const ids = new Set(v3.events.map((e) => e.eventId));
    expect(v2.events.filter((e) => !ids.has(e.eventId))).toEqual([]);
    expect(v3.events.find((e) => e.eventId === victim.eventId)?.eventStatus).toBe("deleted");
    // Events the patient edited (v3 "updated"), stored as created by the v2 sync, now say so.
    const edited = v3.events.filter((e) => e.eventStatus === "updated");
    expect(edited.length).toBeGreaterThan(0);
    const createdInV2 = new Map(v2.events.map((e) => [e.eventId, e.eventStatus]));
    expect(edited.filter((e) => createdInV2.get(e.eventId) === "created").length).toBeGreaterThan(0);
  }, 240_000);
});
