import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, inject, it } from "vitest";
import {
  type Calibration,
  calibrationsResponseSchema,
  type EgvsV2Response,
  type EventV2,
  egvsV2ResponseSchema,
  eventsV2ResponseSchema,
  parseDateTime,
} from "@/lib/cgm";
import { CALIBRATION_COLUMNS, EGV_COLUMNS, EVENT_COLUMNS } from "@/lib/reports/export/csv";
import { EXPORT_FILES } from "@/lib/reports/export/export";
import { csvRecords } from "../support/csv";
import { type DashboardSession, proxyGet, signIn } from "../support/dashboard-client";
import { bearer, connect, dt, registerApp } from "../support/sandbox-client";
import { apiVersion } from "../support/service-reference";

/**
 * GET /api/reports/export over HTTP: the zip of a signed-in patient (mg/dL and mmol/L), its four
 * files, its rows against the service's own JSON for the same window (through the dashboard's
 * proxy, and for 90 days also straight from the service in one request, so records at the 30-day
 * chunk boundaries are neither lost nor doubled), bad periods, the empty account, no session.
 */

const base = inject("baseUrl");
const DAY = 86_400_000;
/** A reading's smoothed value (and so its value) may still arrive this long after it (spec 2.1 rule 5). */
const SMOOTHING_SETTLES_MS = 20 * 60_000;

const sessions: Record<string, DashboardSession> = {};

beforeAll(async () => {
  for (const user of ["SandboxUser1", "SandboxUser3", "SandboxUser6"])
    sessions[user] = await signIn(base, user);
});

interface Download {
  res: Response;
  files: Record<string, string>;
  names: string[];
  window: { startDate: string; endDate: string };
}

async function download(session: DashboardSession, query: string): Promise<Download> {
  const res = await fetch(`${base}/api/reports/export?${query}`, { headers: { Cookie: session.cookie } });
  if (res.status !== 200) throw new Error(`export ${query}: ${res.status} ${await res.text()}`);
  const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
  const files = Object.fromEntries(Object.entries(zip).map(([name, bytes]) => [name, strFromU8(bytes)]));
  const period =
    /^Period: .*?(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}) to (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})/m.exec(
      files["methods.txt"] ?? "",
    );
  if (!period) throw new Error("methods.txt names no period");
  return { res, files, names: Object.keys(zip), window: { startDate: period[1]!, endDate: period[2]! } };
}

const windowQuery = (w: { startDate: string; endDate: string }) =>
  `startDate=${w.startDate}&endDate=${w.endDate}`;

async function serviceJson(session: DashboardSession, w: Download["window"]) {
  const get = async (group: string) => {
    const res = await proxyGet(base, session, `v2/users/self/${group}?${windowQuery(w)}`);
    expect(res.status).toBe(200);
    return res.json();
  };
  const [egvs, events, calibrations] = await Promise.all([get("egvs"), get("events"), get("calibrations")]);
  return {
    egvs: egvsV2ResponseSchema.parse(egvs) as EgvsV2Response,
    events: eventsV2ResponseSchema.parse(events).events as EventV2[],
    calibrations: calibrationsResponseSchema.parse(calibrations).calibrations as Calibration[],
  };
}

/** A field as the export must write it: the JSON value in its shortest form, null as empty. */
const cell = (v: string | number | null | undefined) => (v === null || v === undefined ? "" : String(v));

/** The same records, field by field, in systemTime order. */
function expectRowsEqual(
  records: Array<Record<string, string>>,
  json: Array<Record<string, unknown>>,
  fields: readonly string[],
  extra: Record<string, string> = {},
) {
  const sorted = [...json].sort((a, b) => String(a.systemTime).localeCompare(String(b.systemTime)));
  expect(records).toHaveLength(sorted.length);
  records.forEach((r, i) => {
    const expected = Object.fromEntries(
      fields.map((f) => [f, f in extra ? extra[f] : cell(sorted[i]![f] as string | number | null)]),
    );
    const actual = Object.fromEntries(fields.map((f) => [f, r[f]]));
    if (JSON.stringify(actual) !== JSON.stringify(expected)) expect(actual, `row ${i}`).toEqual(expected);
  });
}

describe("GET /api/reports/export", () => {
  it("answers 401 JSON without a session, private and not stored", async () => {
    const res = await fetch(`${base}/api/reports/export?days=14`);
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe("unauthenticated");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  // The files hold the records as the dashboard read them: with API v2, the service's JSON as
  // received, which these compare field by field. With v3 the records are v3's reshaped into the
  // same columns (test/http/dashboard-v3.test.ts checks those).
  it.skipIf(apiVersion() === "v3").each([
    ["SandboxUser1", 90, "mg/dL"],
    ["SandboxUser1", 14, "mg/dL"],
    ["SandboxUser3", 90, "mmol/L"],
    ["SandboxUser3", 14, "mmol/L"],
  ] as const)(
    "%s, %i days: a private zip of the four files, every record of the service's JSON once, as received",
    async (user, days, unit) => {
      const session = sessions[user]!;
      const { res, files, names, window } = await download(session, `days=${days}`);

      expect(res.headers.get("content-type")).toBe("application/zip");
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      // N days on the receiver's clock, the last the newest reading's, named in the file name.
      const onClock = /(\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2}) on the receiver's clock/.exec(
        files["methods.txt"]!,
      )!;
      const [firstDay, lastDay] = [onClock[1]!, onClock[2]!];
      const fileName = `cgm-export_Patient_${firstDay}_${lastDay}.zip`;
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="${fileName}"; filename*=UTF-8''${fileName}`,
      );
      expect(names).toEqual([...EXPORT_FILES]);
      expect((Date.parse(lastDay) - Date.parse(firstDay)) / DAY + 1).toBe(days);
      // The period ends at the newest reading.
      const range = await (await proxyGet(base, session, "v2/users/self/dataRange")).json();
      expect(lastDay).toBe(String(range.egvs.end.displayTime).slice(0, 10));
      expect(parseDateTime(window.endDate)).toBeLessThanOrEqual(parseDateTime(range.egvs.end.systemTime)!);
      expect(parseDateTime(window.endDate)).toBeGreaterThan(
        parseDateTime(range.egvs.end.systemTime)! - 15 * 60_000,
      );

      const json = await serviceJson(session, window);
      expect(json.egvs.unit).toBe(unit);

      // egvs.csv: the header of the service's names; one row per reading, none twice.
      const egvs = csvRecords(files["egvs.csv"]!);
      expect(egvs.header).toEqual(EGV_COLUMNS.map((c) => c.name));
      expect(egvs.records.length).toBe(json.egvs.egvs.length);
      expect(egvs.records.length).toBeGreaterThan(days * 288 * (user === "SandboxUser3" ? 0.6 : 0.8));
      const times = egvs.records.map((r) => r.systemTime);
      expect(new Set(times).size).toBe(times.length);
      expect([...times].sort()).toEqual(times);
      // Values as received; the newest readings' smoothed value may have arrived in between.
      const settled = parseDateTime(window.endDate)! - SMOOTHING_SETTLES_MS;
      const settledCount = egvs.records.filter((r) => parseDateTime(r.systemTime ?? "")! <= settled).length;
      expectRowsEqual(
        egvs.records.slice(0, settledCount),
        json.egvs.egvs.slice(0, settledCount),
        EGV_COLUMNS.map((c) => c.name),
        { unit: json.egvs.unit, rateUnit: json.egvs.rateUnit },
      );
      expectRowsEqual(
        egvs.records.slice(settledCount),
        json.egvs.egvs.slice(settledCount),
        ["systemTime", "displayTime", "realtimeValue", "status", "trend", "trendRate", "unit", "rateUnit"],
        { unit: json.egvs.unit, rateUnit: json.egvs.rateUnit },
      );
      // Out-of-range readings keep the service's stand-in values with their status.
      for (const r of egvs.records.filter((x) => x.status === "low" || x.status === "high")) {
        const sentinel =
          r.status === "low" ? (unit === "mg/dL" ? "39" : "2.2") : unit === "mg/dL" ? "401" : "22.3";
        expect(r.realtimeValue).toBe(sentinel);
      }

      // events.csv: deleted events included, marked.
      const events = csvRecords(files["events.csv"]!);
      expect(events.header).toEqual(EVENT_COLUMNS.map((c) => c.name));
      expectRowsEqual(events.records, json.events, events.header);
      const deleted = json.events.filter((e) => e.eventStatus === "deleted").length;
      expect(events.records.filter((r) => r.eventStatus === "deleted")).toHaveLength(deleted);
      if (days === 90) expect(deleted).toBeGreaterThan(0);
      expect(new Set(events.records.map((r) => r.eventId)).size).toBe(events.records.length);

      // calibrations.csv: SandboxUser3 (G5) calibrates twice a day, SandboxUser1 (G7) never.
      const calibrations = csvRecords(files["calibrations.csv"]!);
      expect(calibrations.header).toEqual(CALIBRATION_COLUMNS.map((c) => c.name));
      expectRowsEqual(calibrations.records, json.calibrations, calibrations.header);
      if (user === "SandboxUser3") expect(calibrations.records.length).toBeGreaterThan(days);

      // methods.txt: the header and the methods note.
      const methods = files["methods.txt"]!;
      expect(methods).toContain(`Data unit: ${unit}`);
      expect(methods).toMatch(/\b39\b/);
      expect(methods).toMatch(/\b401\b/);
      expect(methods).toContain(`the ${days} days up to the newest record`);
      expect(methods).toContain(`egvs.csv: ${egvs.records.length} readings`);
      expect(methods).toContain(`events.csv: ${events.records.length} events, ${deleted} of them deleted`);
      expect(methods).toContain("Methods — ");
    },
    90_000,
  );

  it.skipIf(apiVersion() === "v3")(
    "holds for 90 days exactly what the service answers in one 90-day request (no record lost or doubled at the chunk boundaries)",
    async () => {
      const session = sessions.SandboxUser1!;
      const app = await registerApp(base, "Export cross-check");
      const tokens = await connect(base, app, "SandboxUser1");
      const directIn = async (group: string, window: { startDate: string; endDate: string }) => {
        const res = await fetch(`${base}/sandbox/v2/users/self/${group}?${windowQuery(window)}`, {
          headers: bearer(tokens.access_token),
        });
        expect(res.status).toBe(200);
        return res.json();
      };
      // Readings near each 30-day boundary, so that a record lost or doubled there would show.
      const boundaries = (endMs: number) => [1, 2].map((k) => endMs - 90 * DAY + k * 30 * DAY);
      const nearBoundaries = (readings: readonly { systemTime?: string | null }[], endMs: number) =>
        boundaries(endMs).map(
          (b) =>
            readings.filter((r) => Math.abs(parseDateTime(r.systemTime ?? "")! - b) <= 10 * 60_000).length,
        );
      // A period that ended an hour ago or more (every smoothed value has arrived, so all fields
      // must agree), moved back an hour at a time until no sensor gap falls on a boundary.
      let endMs = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
      for (let tries = 0; tries < 12; tries++) {
        const w = { startDate: dt(endMs - 90 * DAY), endDate: dt(endMs) };
        const readings = egvsV2ResponseSchema.parse(await directIn("egvs", w)).egvs;
        if (nearBoundaries(readings, endMs).every((n) => n >= 3)) break;
        endMs -= 3_600_000;
      }
      const window = { startDate: dt(endMs - 90 * DAY), endDate: dt(endMs) };
      const { files } = await download(session, windowQuery(window));
      const direct = (group: string) => directIn(group, window);
      const egvs = egvsV2ResponseSchema.parse(await direct("egvs"));
      const events = eventsV2ResponseSchema.parse(await direct("events"));
      const exported = csvRecords(files["egvs.csv"]!).records;
      expectRowsEqual(
        exported,
        egvs.egvs as unknown as Array<Record<string, unknown>>,
        EGV_COLUMNS.map((c) => c.name),
        { unit: egvs.unit, rateUnit: egvs.rateUnit },
      );
      // Readings on both sides of each 30-day boundary are there.
      for (const [k, near] of nearBoundaries(exported, endMs).entries())
        expect(near, `readings around boundary ${k + 1}`).toBeGreaterThanOrEqual(3);
      expectRowsEqual(
        csvRecords(files["events.csv"]!).records,
        events.events as unknown as Array<Record<string, unknown>>,
        EVENT_COLUMNS.map((c) => c.name),
      );
    },
    90_000,
  );

  it("takes explicit dates, and names them in the file name", async () => {
    const { res, window } = await download(
      sessions.SandboxUser1!,
      "startDate=2026-10-01T00:00:00&endDate=2026-10-07T23:59:59",
    );
    expect(window).toEqual({ startDate: "2026-10-01T00:00:00", endDate: "2026-10-07T23:59:59" });
    expect(res.headers.get("content-disposition")).toBe(
      "attachment; filename=\"cgm-export_Patient_2026-10-01_2026-10-07.zip\"; filename*=UTF-8''cgm-export_Patient_2026-10-01_2026-10-07.zip",
    );
  });

  it.each([
    [
      "an end before the start",
      "startDate=2026-10-07T00:00:00&endDate=2026-10-01T00:00:00",
      /before endDate/,
    ],
    ["more than 90 days", "startDate=2026-06-01T00:00:00&endDate=2026-10-01T00:00:00", /at most 90 days/],
    ["a malformed date", "startDate=2026-10-01&endDate=2026-10-07T00:00:00", /startDate: must be a DateTime/],
    ["a date that does not exist", "startDate=2026-02-30T00:00:00&endDate=2026-03-07T00:00:00", /DateTime/],
    ["a start without an end", "startDate=2026-10-01T00:00:00", /endDate is required/],
    ["0 days", "days=0", /at least 1 day/],
    ["91 days", "days=91", /at most 90 days/],
    ["days that are not a number", "days=two", /whole number/],
    ["a fraction of days", "days=1.5", /whole number/],
  ])("answers 400 for %s, saying what to change", async (_name, query, message) => {
    const res = await fetch(`${base}/api/reports/export?${query}`, {
      headers: { Cookie: sessions.SandboxUser1!.cookie },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const body = await res.json();
    expect(body.error).toBe("invalid_request");
    expect(body.message).toMatch(message);
  });

  describe("an account without data (SandboxUser6)", () => {
    it("answers 404 for the last N days, which have no end to count from", async () => {
      const res = await fetch(`${base}/api/reports/export?days=14`, {
        headers: { Cookie: sessions.SandboxUser6!.cookie },
      });
      expect(res.status).toBe(404);
      const body = await res.json();
      expect(body.error).toBe("no_data");
      expect(body.message).toMatch(/nothing to export/);
    });

    it("gets header-only files for explicit dates", async () => {
      const { files } = await download(
        sessions.SandboxUser6!,
        "startDate=2026-10-01T00:00:00&endDate=2026-10-14T00:00:00",
      );
      expect(files["egvs.csv"]).toBe(`${EGV_COLUMNS.map((c) => c.name).join(",")}\r\n`);
      expect(files["events.csv"]).toBe(`${EVENT_COLUMNS.map((c) => c.name).join(",")}\r\n`);
      expect(files["calibrations.csv"]).toBe("systemTime,displayTime,value,unit\r\n");
      expect(files["methods.txt"]).toContain("egvs.csv: 0 readings");
    });
  });
});
