import { beforeAll, describe, expect, inject, it } from "vitest";
import {
  alertsV3ResponseSchema,
  alertV3Schema,
  calibrationsV3ResponseSchema,
  calibrationV3Schema,
  dataRangeResponseSchema,
  dataRangeV3ResponseSchema,
  devicesV3ResponseSchema,
  deviceV3Schema,
  type EgvV3,
  egvsV2ResponseSchema,
  egvsV3ReadSchema,
  egvsV3ResponseSchema,
  egvV3Schema,
  eventsV2ResponseSchema,
  eventsV3ResponseSchema,
  eventV3Schema,
  parseServiceTime,
  serviceTimeUtcMs,
  statisticsV2ResponseSchema,
  toMgdl,
} from "@/lib/cgm";
import {
  basic,
  bearer,
  connect,
  DAY_NIGHT_STATISTICS,
  dt,
  type RegisteredApp,
  registerApp,
} from "../support/sandbox-client";

/**
 * The sandbox's API v3 over HTTP (shared/spec/service-v3-notes.md): the envelope, every field and
 * type, record identity, windows, limits, the users only v3 serves, and alerts that agree with the
 * glucose. Tokens come through the real OAuth flow.
 */

const base = inject("baseUrl");
const DAY = 86_400_000;
const MIN = 60_000;
const USERS = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => `SandboxUser${i}`);
let app: RegisteredApp;
let other: RegisteredApp;
const tokens: Record<string, string> = {};
let otherToken: string;

async function get(user: string, path: string, query = "", token = tokens[user]!): Promise<Response> {
  return fetch(`${base}/sandbox${path}${query ? `?${query}` : ""}`, { headers: bearer(token) });
}
async function json(user: string, path: string, query = ""): Promise<unknown> {
  const res = await get(user, path, query);
  expect(res.status, `${user} ${path}?${query}: ${res.status}`).toBe(200);
  return res.json();
}
const win = (startMs: number, endMs: number) => `startDate=${dt(startMs)}&endDate=${dt(endMs)}`;
/** The UTC instant of a v3 time. */
const ms = (t: string) => serviceTimeUtcMs(parseServiceTime(t)!);
// A fixed past window: its records never change, so tests compare exact values.
const PAST_END = Date.UTC(2026, 9, 15, 12);
const PAST_START = PAST_END - 7 * DAY;
const WINDOWED = ["egvs", "calibrations", "events", "alerts"].map((p) => `/v3/users/self/${p}`);

beforeAll(async () => {
  app = await registerApp(base, "v3 suite");
  other = await registerApp(base, "v3 suite, another app");
  for (const user of USERS) tokens[user] = (await connect(base, app, user)).access_token;
  otherToken = (await connect(base, other, "SandboxUser1")).access_token;
});

describe("the envelope (notes §2)", () => {
  it("every endpoint: singular recordType, recordVersion 3.0, the same userId, records strictly of the v3 fields", async () => {
    const q = win(PAST_START, PAST_END);
    const egvs = egvsV3ResponseSchema.strict().parse(await json("SandboxUser1", "/v3/users/self/egvs", q));
    const cals = calibrationsV3ResponseSchema
      .strict()
      .parse(await json("SandboxUser3", "/v3/users/self/calibrations", q));
    const events = eventsV3ResponseSchema
      .strict()
      .parse(await json("SandboxUser1", "/v3/users/self/events", q));
    const devices = devicesV3ResponseSchema
      .strict()
      .parse(await json("SandboxUser1", "/v3/users/self/devices"));
    const alerts = alertsV3ResponseSchema
      .strict()
      .parse(await json("SandboxUser1", "/v3/users/self/alerts", q));
    const range = dataRangeV3ResponseSchema
      .strict()
      .parse(await json("SandboxUser1", "/v3/users/self/dataRange"));
    expect([egvs, cals, events, devices, alerts, range].map((b) => [b.recordType, b.recordVersion])).toEqual([
      ["egv", "3.0"],
      ["calibration", "3.0"],
      ["event", "3.0"],
      ["device", "3.0"],
      ["alert", "3.0"],
      ["dataRange", "3.0"],
    ]);
    expect(new Set([egvs, events, devices, alerts, range].map((b) => b.userId)).size).toBe(1);
    expect(egvs.records.length).toBeGreaterThan(1500);
    expect(cals.records.length).toBeGreaterThan(10);
    expect(events.records.length).toBeGreaterThan(20);
    expect(alerts.records.length).toBeGreaterThan(5);
    for (const r of egvs.records) egvV3Schema.strict().parse(r);
    for (const r of cals.records) calibrationV3Schema.strict().parse(r);
    for (const r of events.records) eventV3Schema.strict().parse(r);
    for (const r of devices.records) deviceV3Schema.strict().parse(r);
    for (const r of alerts.records) alertV3Schema.strict().parse(r);
  });

  it("userId is the same for an account in one app, different in another (unique per account per client app)", async () => {
    const q = win(PAST_START, PAST_START + DAY);
    const a = egvsV3ResponseSchema.parse(await json("SandboxUser1", "/v3/users/self/egvs", q));
    const again = egvsV3ResponseSchema.parse(await json("SandboxUser1", "/v3/users/self/egvs", q));
    const b = egvsV3ResponseSchema.parse(
      await (await get("SandboxUser1", "/v3/users/self/egvs", q, otherToken)).json(),
    );
    const user2 = egvsV3ResponseSchema.parse(await json("SandboxUser2", "/v3/users/self/egvs", q));
    expect(again.userId).toBe(a.userId);
    expect(b.userId).not.toBe(a.userId);
    expect(user2.userId).not.toBe(a.userId);
    // The records themselves are the account's: the same in both apps.
    expect(b.records).toEqual(a.records);
  });

  it("the sandbox's answers read through the lenient reader unchanged in value and without drops", async () => {
    const body = await json("SandboxUser7", "/v3/users/self/egvs", win(PAST_START, PAST_START + DAY));
    const strict = egvsV3ResponseSchema.parse(body);
    const read = egvsV3ReadSchema.parse(body);
    expect(read.dropped).toEqual([]);
    expect(read.records.map((r) => [r.recordId, r.value, r.trend])).toEqual(
      strict.records.map((r) => [r.recordId, r.value, r.trend]),
    );
    expect(read.records.map((r) => r.systemTime)).toEqual(
      strict.records.map((r) => r.systemTime.slice(0, 19)),
    );
  });
});

describe("records", () => {
  it("recordId is stable across calls and windows, and unique", async () => {
    const wide = egvsV3ResponseSchema.parse(
      await json("SandboxUser2", "/v3/users/self/egvs", win(PAST_START, PAST_END)),
    );
    const narrow = egvsV3ResponseSchema.parse(
      await json(
        "SandboxUser2",
        "/v3/users/self/egvs",
        win(PAST_START + 2 * DAY + 7 * MIN, PAST_START + 3 * DAY),
      ),
    );
    const byTime = new Map(wide.records.map((r) => [r.systemTime, r.recordId]));
    expect(narrow.records.length).toBeGreaterThan(250);
    for (const r of narrow.records) expect(byTime.get(r.systemTime)).toBe(r.recordId);
    expect(new Set(wide.records.map((r) => r.recordId)).size).toBe(wide.records.length);
    const alertsA = alertsV3ResponseSchema.parse(
      await json("SandboxUser2", "/v3/users/self/alerts", win(PAST_START, PAST_END)),
    );
    const alertsB = alertsV3ResponseSchema.parse(
      await json("SandboxUser2", "/v3/users/self/alerts", win(PAST_START, PAST_END)),
    );
    expect(alertsB.records.map((r) => r.recordId)).toEqual(alertsA.records.map((r) => r.recordId));
  });

  it("the v3 value of a reading is its v2 value (the smoothed value where one exists), in mg/dL always", async () => {
    const q = win(PAST_START, PAST_START + 2 * DAY);
    for (const user of ["SandboxUser1", "SandboxUser2", "SandboxUser3"]) {
      const v2 = egvsV2ResponseSchema.parse(await json(user, "/v2/users/self/egvs", q));
      const v3 = egvsV3ResponseSchema.parse(await json(user, "/v3/users/self/egvs", q));
      expect(v3.records.map((r) => dt(ms(r.systemTime)))).toEqual(v2.egvs.map((e) => e.systemTime));
      v3.records.forEach((r, i) => {
        const e = v2.egvs[i]!;
        expect([r.unit, r.rateUnit]).toEqual(["mg/dL", "mg/dL/min"]);
        if (v2.unit === "mg/dL") {
          expect(r.value).toBe(e.value);
          expect(r.trendRate).toBe(e.trendRate);
        } else if (!e.status) {
          // SandboxUser3 reads mmol/L in v2, to one decimal: v3 has the mg/dL behind it.
          expect(Math.abs(toMgdl(e.value, "mmol/L") - r.value!)).toBeLessThanOrEqual(1);
        }
        expect(r.status).toBe(e.status);
        expect(r.trend).toBe(e.trend);
      });
      if (user !== "SandboxUser3")
        expect(v2.egvs.filter((e) => e.smoothedValue !== null).length).toBeGreaterThan(400);
    }
  });

  it("39 and 401 carry status low and high", async () => {
    const statusOf = async (user: string) => {
      const now = Date.now();
      const body = egvsV3ResponseSchema.parse(
        await json(user, "/v3/users/self/egvs", win(now - 30 * DAY, now)),
      );
      return body.records.filter((r) => r.status !== null);
    };
    const lows = await statusOf("SandboxUser2");
    const highs = await statusOf("SandboxUser4");
    expect(lows.some((r) => r.value === 39)).toBe(true);
    expect(highs.some((r) => r.value === 401)).toBe(true);
    for (const r of [...lows, ...highs])
      expect([r.value, r.status]).toEqual(r.value === 39 ? [39, "low"] : [401, "high"]);
  });

  it("phones write UTC offsets, receivers none; the transmitter fields name the device", async () => {
    const q = win(PAST_START, PAST_START + DAY);
    const phone = egvsV3ResponseSchema.parse(await json("SandboxUser2", "/v3/users/self/egvs", q))
      .records[0]!;
    const receiver = egvsV3ResponseSchema.parse(await json("SandboxUser4", "/v3/users/self/egvs", q))
      .records[0]!;
    expect(phone.systemTime).toMatch(/Z$/);
    expect(phone.displayTime).toMatch(/\+0[12]:00$/); // Berlin
    expect(receiver.systemTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(receiver.displayTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(phone).toMatchObject({
      displayDevice: "android",
      transmitterGeneration: "g6",
      transmitterGenerationVariant: "g6",
      displayApp: "G6",
    });
    expect(receiver).toMatchObject({
      displayDevice: "receiver",
      transmitterGeneration: "g4",
      transmitterGenerationVariant: null,
      displayApp: "receiver",
    });
    expect(phone.transmitterId).toMatch(/^[0-9a-f]{64}$/);
    expect(phone.transmitterTicks).toBeGreaterThan(0);
  });

  it("events: value a string, recordId the v2 eventId, created, updated and deleted; bloodGlucose and notes only in v3", async () => {
    const now = Date.now();
    const q = win(now - 30 * DAY, now);
    const v2 = eventsV2ResponseSchema.parse(await json("SandboxUser1", "/v2/users/self/events", q));
    const v3 = eventsV3ResponseSchema.parse(await json("SandboxUser1", "/v3/users/self/events", q));
    const byId = new Map(v3.records.map((r) => [r.recordId, r]));
    for (const e of v2.events) {
      const r = byId.get(e.eventId)!;
      expect(r, e.eventId).toBeDefined();
      expect(dt(ms(r.systemTime))).toBe(e.systemTime);
      expect(r.value).toBe(e.value === null ? null : String(e.value));
      expect(r.eventType).toBe(e.eventType);
      if (e.eventStatus === "deleted") expect(r.eventStatus).toBe("deleted");
      else expect(["created", "updated"]).toContain(r.eventStatus);
    }
    expect(new Set(v3.records.map((r) => r.eventStatus))).toEqual(new Set(["created", "updated", "deleted"]));
    const onlyV3 = v3.records.filter((r) => !v2.events.some((e) => e.eventId === r.recordId));
    expect(new Set(onlyV3.map((r) => r.eventType))).toEqual(new Set(["bloodGlucose", "notes"]));
    for (const r of v3.records) {
      if (r.eventType === "insulin") expect(r.eventSubType).toBe("fastActing");
      if (r.eventType === "health") expect([r.value, r.unit]).toEqual([null, null]);
      if (r.eventType === "bloodGlucose") expect(r.unit).toBe("mg/dL");
    }
  });

  it("an event deleted through the developer control is deleted in v3 too", async () => {
    const q = win(PAST_START, PAST_END);
    const before = eventsV3ResponseSchema.parse(await json("SandboxUser2", "/v3/users/self/events", q));
    const target = before.records.find((r) => r.eventStatus === "created" && r.eventType === "carbs")!;
    const res = await fetch(`${base}/sandbox/developer/apps/${app.client_id}/deleted-events`, {
      method: "POST",
      headers: { ...basic(app), "Content-Type": "application/json" },
      body: JSON.stringify({
        username: "SandboxUser2",
        eventId: target.recordId,
        systemTime: dt(ms(target.systemTime)),
      }),
    });
    expect(res.status).toBe(201);
    const after = eventsV3ResponseSchema.parse(await json("SandboxUser2", "/v3/users/self/events", q));
    expect(after.records.find((r) => r.recordId === target.recordId)!.eventStatus).toBe("deleted");
  });
});

describe("windows (notes §1.2)", () => {
  it("start inclusive, end exclusive, on systemTime; a zone and a fraction of a second are read", async () => {
    const day = egvsV3ResponseSchema.parse(
      await json("SandboxUser1", "/v3/users/self/egvs", win(PAST_START, PAST_START + DAY)),
    );
    const first = day.records[10]!;
    const last = day.records[20]!;
    const exact = (start: string, end: string) =>
      json(
        "SandboxUser1",
        "/v3/users/self/egvs",
        `startDate=${encodeURIComponent(start)}&endDate=${encodeURIComponent(end)}`,
      ).then((b) => egvsV3ResponseSchema.parse(b).records);
    const plain = await exact(dt(ms(first.systemTime)), dt(ms(last.systemTime)));
    expect(plain.map((r) => r.recordId)).toEqual(day.records.slice(10, 20).map((r) => r.recordId));
    const withZone = await exact(`${dt(ms(first.systemTime))}Z`, `${dt(ms(last.systemTime))}.000Z`);
    expect(withZone).toEqual(plain);
    // The same instants written in another zone.
    const shifted = (t: number) => `${dt(t + 2 * 3_600_000)}+02:00`;
    expect(await exact(shifted(ms(first.systemTime)), shifted(ms(last.systemTime)))).toEqual(plain);
  });

  it("at most 30 days: 30 days answer, a second more is a 400 that says so", async () => {
    for (const path of WINDOWED) {
      const ok = await get("SandboxUser1", path, win(PAST_END - 30 * DAY, PAST_END));
      expect(ok.status, path).toBe(200);
      const res = await get("SandboxUser1", path, win(PAST_END - 30 * DAY - 1000, PAST_END));
      expect(res.status, path).toBe(400);
      const body = await res.json();
      expect(body.error).toBe("invalid_request");
      expect(body.message).toMatch(/longer than 30 days/);
    }
  });

  it.each([
    ["no parameters", "", /startDate is required/],
    ["no endDate", "startDate=2026-10-01T00:00:00", /endDate is required/],
    ["a date only", "startDate=2026-10-01&endDate=2026-10-02T00:00:00", /YYYY-MM-DDThh:mm:ss/],
    ["an impossible date", "startDate=2026-02-30T00:00:00&endDate=2026-03-02T00:00:00", /calendar date/],
    ["a reversed window", "startDate=2026-10-02T00:00:00&endDate=2026-10-01T00:00:00", /before endDate/],
    ["an empty window", "startDate=2026-10-02T00:00:00&endDate=2026-10-02T00:00:00", /before endDate/],
  ])("refuses %s with a 400 that says what is wrong", async (_label, query, message) => {
    for (const path of WINDOWED) {
      const res = await get("SandboxUser1", path, query);
      expect(res.status, path).toBe(400);
      expect((await res.json()).message).toMatch(message);
    }
  });

  it("devices take no parameters; any sent are ignored", async () => {
    const plain = await json("SandboxUser1", "/v3/users/self/devices");
    const withWindow = await json("SandboxUser1", "/v3/users/self/devices", win(PAST_START, PAST_END));
    expect(withWindow).toEqual(plain);
  });

  it("401 without a token or with a wrong one, on every v3 data path", async () => {
    for (const path of [...WINDOWED, "/v3/users/self/devices", "/v3/users/self/dataRange"]) {
      const none = await fetch(`${base}/sandbox${path}?${win(PAST_START, PAST_END)}`);
      expect(none.status, path).toBe(401);
      expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
      const wrong = await get("SandboxUser1", path, win(PAST_START, PAST_END), "not-a-token");
      expect(wrong.status, path).toBe(401);
    }
  });

  it("there are no statistics in v3: 404", async () => {
    for (const method of ["GET", "POST"]) {
      const res = await fetch(`${base}/sandbox/v3/users/self/statistics?${win(PAST_START, PAST_END)}`, {
        method,
        headers: { ...bearer(tokens.SandboxUser1!), "Content-Type": "application/json" },
        body: method === "POST" ? "{}" : undefined,
      });
      expect(res.status, method).toBe(404);
      expect((await res.json()).message).toMatch(/no statistics/);
    }
  });
});

describe("dataRange (notes §3.6)", () => {
  it("its bounds are the first and last records of each group", async () => {
    for (const user of ["SandboxUser1", "SandboxUser3"]) {
      const range = dataRangeV3ResponseSchema.parse(await json(user, "/v3/users/self/dataRange"));
      for (const [group, path] of [
        ["egvs", "egvs"],
        ["events", "events"],
        ["calibrations", "calibrations"],
      ] as const) {
        const bounds = range[group];
        if (user === "SandboxUser1" && group === "calibrations") {
          expect(bounds).toBeNull();
          continue;
        }
        const start = ms(bounds!.start.systemTime);
        const end = ms(bounds!.end.systemTime);
        const head = (await json(user, `/v3/users/self/${path}`, win(start - DAY, start + DAY))) as {
          records: EgvV3[];
        };
        expect(head.records[0]!.systemTime, `${user} ${group}`).toBe(bounds!.start.systemTime);
        expect(head.records[0]!.displayTime).toBe(bounds!.start.displayTime);
        const tail = (await json(user, `/v3/users/self/${path}`, win(end - DAY, end + 1000))) as {
          records: EgvV3[];
        };
        expect(tail.records.at(-1)!.systemTime, `${user} ${group}`).toBe(bounds!.end.systemTime);
        expect(tail.records.at(-1)!.displayTime).toBe(bounds!.end.displayTime);
      }
    }
  });

  it("lastSyncTime: only what is newer; a time without a zone is a 400", async () => {
    const all = dataRangeV3ResponseSchema.parse(await json("SandboxUser3", "/v3/users/self/dataRange"));
    const since = ms(all.egvs!.end.systemTime) - 3 * 3_600_000;
    const newer = dataRangeV3ResponseSchema.parse(
      await json("SandboxUser3", "/v3/users/self/dataRange", `lastSyncTime=${dt(since)}Z`),
    );
    expect(ms(newer.egvs!.start.systemTime)).toBeGreaterThan(since);
    // The first reading after it: five minutes later at most, unless the sensor was off (a new
    // sensor warms up for two hours), so the readings themselves say which it is.
    const after = egvsV3ResponseSchema.parse(
      await json(
        "SandboxUser3",
        "/v3/users/self/egvs",
        win(since + 1000, ms(all.egvs!.end.systemTime) + 1000),
      ),
    ).records;
    expect(newer.egvs!.start.systemTime).toBe(after[0]!.systemTime);
    if (after.length >= 36) expect(ms(newer.egvs!.start.systemTime) - since).toBeLessThanOrEqual(5 * MIN);
    expect(newer.egvs!.end).toEqual(all.egvs!.end);
    const future = dataRangeV3ResponseSchema.parse(
      await json("SandboxUser3", "/v3/users/self/dataRange", `lastSyncTime=${dt(Date.now() + DAY)}Z`),
    );
    expect([future.egvs, future.events, future.calibrations]).toEqual([null, null, null]);
    const res = await get("SandboxUser3", "/v3/users/self/dataRange", `lastSyncTime=${dt(since)}`);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/lastSyncTime: must carry a zone/);
  });
});

describe("alerts (notes §3.5) agree with the glucose", () => {
  it("every urgentLow sounds at a reading below 55; every high and low at a reading beyond its setting", async () => {
    const now = Date.now();
    for (const user of ["SandboxUser2", "SandboxUser7"]) {
      const q = win(now - 30 * DAY, now);
      const egvs = egvsV3ResponseSchema.parse(await json(user, "/v3/users/self/egvs", q)).records;
      const alerts = alertsV3ResponseSchema.parse(await json(user, "/v3/users/self/alerts", q)).records;
      const device = devicesV3ResponseSchema.parse(await json(user, "/v3/users/self/devices")).records[0]!;
      const settings = device.alertSchedules.flatMap((s) => s.alertSettings);
      const loosest = (name: string, pick: (a: number, b: number) => number) =>
        settings
          .filter((s) => s.alertName === name && s.enabled)
          .map((s) => s.value!)
          .reduce((a, b) => pick(a, b));
      const valueAt = new Map(egvs.map((r) => [r.systemTime, r.value!]));
      const sounding = alerts.filter((a) => a.alertState === "activeAlarming");
      const urgent = sounding.filter((a) => a.alertName === "urgentLow");
      // SandboxUser2's nights go below 55 every week.
      if (user === "SandboxUser2") expect(urgent.length).toBeGreaterThan(0);
      for (const a of urgent) expect(valueAt.get(a.systemTime), `${user} ${a.systemTime}`).toBeLessThan(55);
      for (const a of sounding.filter((x) => x.alertName === "low"))
        expect(valueAt.get(a.systemTime)!).toBeLessThan(loosest("low", Math.max));
      for (const a of sounding.filter((x) => x.alertName === "high"))
        expect(valueAt.get(a.systemTime)!).toBeGreaterThan(loosest("high", Math.min));
      // Each alert's life: it sounds before it is acknowledged or cleared.
      for (const name of new Set(alerts.map((a) => a.alertName))) {
        const states = alerts.filter((a) => a.alertName === name).map((a) => a.alertState);
        const from = states.indexOf("activeAlarming");
        for (let i = from + 1; i < states.length; i++) {
          if (states[i] === "activeSnoozed") expect(states[i - 1]).toBe("activeAlarming");
          if (states[i - 1] === "inactive") expect(states[i]).toBe("activeAlarming");
        }
      }
    }
  });
});

describe("SandboxUser7: G7 15-day on a phone in Berlin, served only through v3", () => {
  it("variant g715day, 15.5-day sessions, a new transmitter each", async () => {
    const now = Date.now();
    const egvs: EgvV3[] = [];
    for (const start of [now - 60 * DAY, now - 30 * DAY])
      egvs.push(
        ...egvsV3ResponseSchema.parse(
          await json("SandboxUser7", "/v3/users/self/egvs", win(start, start + 30 * DAY)),
        ).records,
      );
    for (const r of egvs) {
      expect(r).toMatchObject({
        transmitterGeneration: "g715day",
        transmitterGenerationVariant: "g715day",
        displayDevice: "android",
        displayApp: "G7",
        unit: "mg/dL",
      });
    }
    // Sensor changes: the 2-hour warm-ups, 15.5 days and 2 hours apart, each a new transmitter.
    const changes = egvs
      .slice(1)
      .filter((r, i) => ms(r.systemTime) - ms(egvs[i]!.systemTime) === 2 * 3_600_000);
    expect(changes.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < changes.length; i++)
      expect(ms(changes[i]!.systemTime) - ms(changes[i - 1]!.systemTime)).toBe(15.5 * DAY + 2 * 3_600_000);
    expect(new Set(changes.map((r) => r.transmitterId)).size).toBe(changes.length);
    // Ticks count from the insertion, 2 h before the first reading.
    for (const r of changes) expect(r.transmitterTicks).toBe(7200);
  });

  it("displayTime carries Berlin's offset: +01:00 in winter, +02:00 in summer", async () => {
    const winter = egvsV3ResponseSchema.parse(
      await json("SandboxUser7", "/v3/users/self/egvs", win(Date.UTC(2026, 0, 15), Date.UTC(2026, 0, 16))),
    ).records;
    const summer = egvsV3ResponseSchema.parse(
      await json("SandboxUser7", "/v3/users/self/egvs", win(Date.UTC(2026, 6, 15), Date.UTC(2026, 6, 16))),
    ).records;
    expect(winter.length).toBeGreaterThan(100);
    expect(summer.length).toBeGreaterThan(100);
    for (const r of winter) {
      expect(r.displayTime).toMatch(/\+01:00$/);
      expect(ms(r.displayTime)).toBe(ms(r.systemTime));
    }
    for (const r of summer) expect(r.displayTime).toMatch(/\+02:00$/);
  });

  it("v1 and v2 see an account without data; v3 has events, alerts and a device", async () => {
    await expectNoDataBeforeV3("SandboxUser7");
    const now = Date.now();
    const events = eventsV3ResponseSchema.parse(
      await json("SandboxUser7", "/v3/users/self/events", win(now - 30 * DAY, now)),
    );
    expect(events.records.length).toBeGreaterThan(50);
  });
});

describe("SandboxUser8: Dexcom ONE+, served only through v3", () => {
  it("variant d1+; no events and no calibrations (empty arrays); no urgentLow, urgentLowSoon, rise or fall", async () => {
    const now = Date.now();
    const q = win(now - 30 * DAY, now);
    const egvs = egvsV3ResponseSchema.parse(await json("SandboxUser8", "/v3/users/self/egvs", q)).records;
    expect(egvs.length).toBeGreaterThan(6000);
    for (const r of egvs)
      expect(r).toMatchObject({
        transmitterGeneration: "g7",
        transmitterGenerationVariant: "d1+",
        displayApp: "D1G7",
        unit: "mg/dL",
      });
    expect(
      eventsV3ResponseSchema.parse(await json("SandboxUser8", "/v3/users/self/events", q)).records,
    ).toEqual([]);
    expect(
      calibrationsV3ResponseSchema.parse(await json("SandboxUser8", "/v3/users/self/calibrations", q))
        .records,
    ).toEqual([]);
    const range = dataRangeV3ResponseSchema.parse(await json("SandboxUser8", "/v3/users/self/dataRange"));
    expect([range.events, range.calibrations]).toEqual([null, null]);
    expect(range.egvs).not.toBeNull();
    const missing = ["urgentLow", "urgentLowSoon", "rise", "fall"];
    const device = devicesV3ResponseSchema.parse(await json("SandboxUser8", "/v3/users/self/devices"))
      .records[0]!;
    for (const s of device.alertSchedules)
      for (const a of s.alertSettings) expect(missing).not.toContain(a.alertName);
    const alerts = alertsV3ResponseSchema.parse(
      await json("SandboxUser8", "/v3/users/self/alerts", q),
    ).records;
    expect(alerts.length).toBeGreaterThan(0);
    for (const a of alerts) expect(missing).not.toContain(a.alertName);
  });

  it("v1 and v2 see an account without data", async () => {
    await expectNoDataBeforeV3("SandboxUser8");
  });
});

/** Notes §1.1: the service serves G7 15-day and ONE+ data only through v3. */
async function expectNoDataBeforeV3(user: string) {
  const now = Date.now();
  const q = win(now - 30 * DAY, now);
  for (const path of ["/v1/users/self/egvs", "/v2/users/self/egvs"])
    expect(((await json(user, path, q)) as { egvs: unknown[] }).egvs).toEqual([]);
  for (const v of ["v1", "v2"]) {
    expect(((await json(user, `/${v}/users/self/events`, q)) as { events: unknown[] }).events).toEqual([]);
    expect(((await json(user, `/${v}/users/self/devices`, q)) as { devices: unknown[] }).devices).toEqual([]);
  }
  const stats = await fetch(`${base}/sandbox/v2/users/self/statistics?${q}`, {
    method: "POST",
    headers: { ...bearer(tokens[user]!), "Content-Type": "application/json" },
    body: JSON.stringify(DAY_NIGHT_STATISTICS),
  });
  expect(stats.status).toBe(200);
  expect(statisticsV2ResponseSchema.parse(await stats.json())).toMatchObject({
    nValues: 0,
    hypoglycemiaRisk: null,
  });
  expect(dataRangeResponseSchema.parse(await json(user, "/v2/users/self/dataRange"))).toEqual({
    calibrations: null,
    egvs: null,
    events: null,
  });
  const v3 = egvsV3ResponseSchema.parse(await json(user, "/v3/users/self/egvs", q));
  expect(v3.records.length).toBeGreaterThan(6000);
}
