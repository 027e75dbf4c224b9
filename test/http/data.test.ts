import { beforeAll, describe, expect, inject, it } from "vitest";
import {
  calibrationsResponseSchema,
  dataRangeResponseSchema,
  devicesV1ResponseSchema,
  devicesV2ResponseSchema,
  egvsV1ResponseSchema,
  egvsV2ResponseSchema,
  eventsV1ResponseSchema,
  eventsV2ResponseSchema,
  parseDateTime,
  toMgdl,
  trendForRate,
} from "@/lib/cgm";
import { bearer, connect, dt, type RegisteredApp, registerApp } from "../support/sandbox-client";

/** Spec sections 2 and 4 over HTTP: every data endpoint's envelope, fields and window rules. */

const base = inject("baseUrl");
const DAY = 86_400_000;
let app: RegisteredApp;
const tokens: Record<string, string> = {};

async function get(user: string, path: string, query = ""): Promise<Response> {
  return fetch(`${base}/sandbox${path}${query ? `?${query}` : ""}`, { headers: bearer(tokens[user]!) });
}
const win = (startMs: number, endMs: number) => `startDate=${dt(startMs)}&endDate=${dt(endMs)}`;
// A fixed past window: records there never change, so tests can compare exact values.
const PAST_END = Date.UTC(2026, 9, 15, 12);
const PAST_START = PAST_END - 7 * DAY;

beforeAll(async () => {
  app = await registerApp(base, "Data suite");
  for (let i = 1; i <= 6; i++)
    tokens[`SandboxUser${i}`] = (await connect(base, app, `SandboxUser${i}`)).access_token;
});

describe("window validation (400 with a message)", () => {
  const paths = [
    "/v1/users/self/egvs",
    "/v2/users/self/egvs",
    "/v1/users/self/calibrations",
    "/v2/users/self/calibrations",
    "/v1/users/self/events",
    "/v2/users/self/events",
    "/v1/users/self/devices",
    "/v2/users/self/devices",
  ];
  const bad: Array<[string, string, RegExp]> = [
    ["no parameters", "", /startDate/],
    ["no endDate", "startDate=2026-10-01T00:00:00", /endDate/],
    [
      "a zone designator",
      "startDate=2026-10-01T00:00:00Z&endDate=2026-10-02T00:00:00",
      /YYYY-MM-DDThh:mm:ss/,
    ],
    ["a date only", "startDate=2026-10-01&endDate=2026-10-02T00:00:00", /YYYY-MM-DDThh:mm:ss/],
    ["milliseconds", "startDate=2026-10-01T00:00:00.000&endDate=2026-10-02T00:00:00", /YYYY-MM-DDThh:mm:ss/],
    ["an impossible date", "startDate=2026-02-30T00:00:00&endDate=2026-03-02T00:00:00", /calendar date/],
    ["a reversed window", "startDate=2026-10-02T00:00:00&endDate=2026-10-01T00:00:00", /before endDate/],
    ["an empty window", "startDate=2026-10-02T00:00:00&endDate=2026-10-02T00:00:00", /before endDate/],
  ];
  const tooLong = "startDate=2026-01-01T00:00:00&endDate=2026-04-01T00:00:01";
  for (const path of paths) {
    it.each(bad)(`${path} refuses %s`, async (_label, query, message) => {
      const res = await get("SandboxUser1", path, query);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error).toBe("invalid_request");
      expect(body.message).toMatch(message);
    });
  }

  it.each(paths.filter((p) => !p.endsWith("devices")))(
    "%s refuses a window longer than 90 days",
    async (path) => {
      const res = await get("SandboxUser1", path, tooLong);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toMatch(/longer than 90 days/);
      expect(
        (await get("SandboxUser1", path, "startDate=2026-01-01T00:00:00&endDate=2026-04-01T00:00:00")).status,
      ).toBe(200);
    },
  );

  it("devices accept a long window: their answer does not grow with it", async () => {
    expect((await get("SandboxUser1", "/v2/users/self/devices", tooLong)).status).toBe(200);
  });

  it("dataRange takes no parameters and needs none", async () => {
    expect((await get("SandboxUser1", "/v2/users/self/dataRange")).status).toBe(200);
  });
});

describe("EGVs", () => {
  it("v2: envelope, fields and the value rules of section 2.1", async () => {
    const res = await get("SandboxUser1", "/v2/users/self/egvs", win(PAST_START, PAST_END));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const body = egvsV2ResponseSchema.strict().parse(await res.json());
    expect(body.unit).toBe("mg/dL");
    expect(body.rateUnit).toBe("mg/dL/min");
    expect(body.egvs.length).toBeGreaterThan(1500);
    let previous = 0;
    for (const e of body.egvs) {
      const t = parseDateTime(e.systemTime)!;
      expect(t).toBeGreaterThanOrEqual(PAST_START);
      expect(t).toBeLessThanOrEqual(PAST_END);
      expect(t).toBeGreaterThan(previous);
      previous = t;
      // Rules 1 and 2.
      expect(e.value).toBe(e.smoothedValue ?? e.realtimeValue);
      // Value rules: 39..401, sentinels carry status.
      expect(e.value).toBeGreaterThanOrEqual(39);
      expect(e.value).toBeLessThanOrEqual(401);
      if (e.realtimeValue === 39) expect(e.status).toBe("low");
      if (e.realtimeValue === 401) expect(e.status).toBe("high");
      if (e.realtimeValue > 39 && e.realtimeValue < 401) expect(e.status).toBeNull();
      // Trend matches the rate per the table.
      if (e.trendRate !== null && e.trend && !["none", "notComputable", "rateOutOfRange"].includes(e.trend)) {
        expect(trendForRate(e.trendRate)).toBe(e.trend);
      }
    }
    // Newest generation: most records are smoothed.
    expect(body.egvs.filter((e) => e.smoothedValue !== null).length).toBeGreaterThan(body.egvs.length * 0.9);
  });

  // v3 has a shape of its own: test/http/sandbox-v3.test.ts.
  it("v1 carries the same records without realtimeValue and smoothedValue", async () => {
    const q = win(PAST_START, PAST_START + DAY);
    const v1 = egvsV1ResponseSchema
      .strict()
      .parse(await (await get("SandboxUser1", "/v1/users/self/egvs", q)).json());
    const v2 = egvsV2ResponseSchema.parse(await (await get("SandboxUser1", "/v2/users/self/egvs", q)).json());
    expect(v1.egvs.map((e) => [e.systemTime, e.value])).toEqual(v2.egvs.map((e) => [e.systemTime, e.value]));
  });

  it("the same record is served whatever the window (records never change once served)", async () => {
    const wide = egvsV2ResponseSchema.parse(
      await (await get("SandboxUser2", "/v2/users/self/egvs", win(PAST_START, PAST_END))).json(),
    );
    const narrow = egvsV2ResponseSchema.parse(
      await (
        await get("SandboxUser2", "/v2/users/self/egvs", win(PAST_START + 2 * DAY, PAST_START + 3 * DAY))
      ).json(),
    );
    const byTime = new Map(wide.egvs.map((e) => [e.systemTime, e]));
    expect(narrow.egvs.length).toBeGreaterThan(200);
    for (const e of narrow.egvs) expect(byTime.get(e.systemTime)).toEqual(e);
  });

  it("the window is inclusive on systemTime at both ends", async () => {
    const day = egvsV2ResponseSchema.parse(
      await (await get("SandboxUser1", "/v2/users/self/egvs", win(PAST_START, PAST_START + DAY))).json(),
    );
    const first = day.egvs[10]!.systemTime;
    const last = day.egvs[20]!.systemTime;
    const exact = egvsV2ResponseSchema.parse(
      await (await get("SandboxUser1", "/v2/users/self/egvs", `startDate=${first}&endDate=${last}`)).json(),
    );
    expect(exact.egvs[0]!.systemTime).toBe(first);
    expect(exact.egvs.at(-1)!.systemTime).toBe(last);
    expect(exact.egvs).toHaveLength(11);
  });

  it("is live: the newest reading is at most a few minutes old (unless the sensor is warming up)", async () => {
    const now = Date.now();
    const res = egvsV2ResponseSchema.parse(
      await (await get("SandboxUser1", "/v2/users/self/egvs", win(now - 6 * 3_600_000, now + 60_000))).json(),
    );
    const newest = parseDateTime(res.egvs.at(-1)!.systemTime)!;
    expect(newest).toBeLessThanOrEqual(now);
    expect(now - newest).toBeLessThan(3 * 3_600_000);
    // Rule 5: the newest reading has no smoothed value yet.
    expect(res.egvs.at(-1)!.smoothedValue).toBeNull();
    expect(res.egvs.at(-1)!.value).toBe(res.egvs.at(-1)!.realtimeValue);
  });

  it("SandboxUser3 is in mmol/L with no smoothed values (G5)", async () => {
    const body = egvsV2ResponseSchema.parse(
      await (await get("SandboxUser3", "/v2/users/self/egvs", win(PAST_START, PAST_END))).json(),
    );
    expect(body.unit).toBe("mmol/L");
    expect(body.rateUnit).toBe("mmol/L/min");
    expect(body.egvs.length).toBeGreaterThan(1000);
    for (const e of body.egvs) {
      expect(e.smoothedValue).toBeNull();
      expect(e.value).toBe(e.realtimeValue);
      const mgdl = toMgdl(e.value, "mmol/L");
      expect(mgdl).toBeGreaterThan(35);
      expect(mgdl).toBeLessThan(405);
    }
  });

  it("SandboxUser4 (G4) has no smoothed values", async () => {
    const body = egvsV2ResponseSchema.parse(
      await (await get("SandboxUser4", "/v2/users/self/egvs", win(PAST_START, PAST_END))).json(),
    );
    expect(body.egvs.length).toBeGreaterThan(1000);
    expect(body.egvs.every((e) => e.smoothedValue === null)).toBe(true);
  });

  it("SandboxUser6 has no data: empty arrays and a null dataRange", async () => {
    const now = Date.now();
    for (const path of ["/v1/users/self/egvs", "/v2/users/self/egvs"]) {
      const body = await (await get("SandboxUser6", path, win(now - 30 * DAY, now))).json();
      expect(body.egvs).toEqual([]);
      expect(body.unit).toBeTruthy();
    }
    expect(
      (await (await get("SandboxUser6", "/v2/users/self/events", win(now - 30 * DAY, now))).json()).events,
    ).toEqual([]);
    expect(
      (await (await get("SandboxUser6", "/v2/users/self/calibrations", win(now - 30 * DAY, now))).json())
        .calibrations,
    ).toEqual([]);
    expect(
      (await (await get("SandboxUser6", "/v2/users/self/devices", win(now - 30 * DAY, now))).json()).devices,
    ).toEqual([]);
    const range = dataRangeResponseSchema.parse(
      await (await get("SandboxUser6", "/v2/users/self/dataRange")).json(),
    );
    expect(range).toEqual({ calibrations: null, egvs: null, events: null });
  });
});

describe("events", () => {
  it("v2 events carry eventId and eventStatus; v1 leaves deleted events out", async () => {
    const now = Date.now();
    const q = win(now - 30 * DAY, now);
    const v2 = eventsV2ResponseSchema
      .strict()
      .parse(await (await get("SandboxUser1", "/v2/users/self/events", q)).json());
    const v1 = eventsV1ResponseSchema
      .strict()
      .parse(await (await get("SandboxUser1", "/v1/users/self/events", q)).json());
    const deleted = v2.events.filter((e) => e.eventStatus === "deleted");
    expect(deleted.length).toBeGreaterThan(0);
    expect(v1.events).toHaveLength(v2.events.length - deleted.length);
    expect(new Set(v2.events.map((e) => e.eventId)).size).toBe(v2.events.length);
    const units = { carbs: "grams", insulin: "units", exercise: "minutes", health: null } as const;
    for (const e of v2.events) {
      expect(e.unit).toBe(units[e.eventType]);
      if (e.eventType === "carbs" || e.eventType === "insulin") expect(e.eventSubType).toBeNull();
      if (e.eventType === "exercise") expect(["light", "medium", "heavy"]).toContain(e.eventSubType);
      if (e.eventType === "health") {
        expect(["illness", "stress", "highSymptoms", "lowSymptoms", "cycle", "alcohol"]).toContain(
          e.eventSubType,
        );
      }
    }
    expect(new Set(v2.events.map((e) => e.eventType))).toEqual(
      new Set(["carbs", "insulin", "exercise", "health"]),
    );
  });
});

describe("calibrations", () => {
  it("SandboxUser3 calibrates about twice a day, in mmol/L", async () => {
    const body = calibrationsResponseSchema
      .strict()
      .parse(
        await (await get("SandboxUser3", "/v2/users/self/calibrations", win(PAST_START, PAST_END))).json(),
      );
    expect(body.calibrations.length).toBeGreaterThanOrEqual(10);
    expect(body.calibrations.length).toBeLessThanOrEqual(20);
    for (const c of body.calibrations) expect(c.unit).toBe("mmol/L");
    const v1 = calibrationsResponseSchema.parse(
      await (await get("SandboxUser3", "/v1/users/self/calibrations", win(PAST_START, PAST_END))).json(),
    );
    expect(v1).toEqual(body);
  });
});

describe("devices", () => {
  it("v1: SandboxUser4's alert settings lie in the spec's value ranges", async () => {
    const now = Date.now();
    const body = devicesV1ResponseSchema
      .strict()
      .parse(await (await get("SandboxUser4", "/v1/users/self/devices", win(now - 90 * DAY, now))).json());
    expect(body.devices.length).toBeGreaterThan(0);
    expect(body.devices.map((d) => d.model)).toContain("G4 with Sharing Receiver");
    const settings = body.devices.flatMap((d) => d.alertSettings ?? []);
    const names = new Set(settings.map((s) => s.alertName));
    expect(names).toEqual(new Set(["high", "low", "rise", "fall", "outOfRange", "fixedLow"]));
    for (const s of settings) {
      if (s.alertName === "high") expect(s.value >= 120 && s.value <= 400 && s.value % 10 === 0).toBe(true);
      if (s.alertName === "low") expect(s.value >= 60 && s.value <= 100 && s.value % 5 === 0).toBe(true);
      if (s.alertName === "rise" || s.alertName === "fall") expect([2, 3]).toContain(s.value);
      if (s.alertName === "outOfRange")
        expect(s.value >= 20 && s.value <= 240 && s.value % 5 === 0).toBe(true);
      if (s.alertName === "fixedLow") {
        expect(s.value).toBe(55);
        expect(s.enabled).toBe(true);
      }
    }
  });

  it("v2: alert schedules with settings; time parts of the window are ignored", async () => {
    const now = Date.now();
    const dayStart = Math.floor((now - 10 * DAY) / DAY) * DAY;
    const a = await (
      await get("SandboxUser1", "/v2/users/self/devices", win(dayStart + 3_600_000, dayStart + 5 * DAY))
    ).json();
    const b = await (
      await get(
        "SandboxUser1",
        "/v2/users/self/devices",
        win(dayStart + 23 * 3_600_000, dayStart + 5 * DAY + 60_000),
      )
    ).json();
    const body = devicesV2ResponseSchema.strict().parse(a);
    expect(a).toEqual(b);
    expect(body.devices.length).toBeGreaterThan(0);
    const device = body.devices[0]!;
    expect(device.transmitterGeneration).toBe("g7");
    expect(device.alertScheduleList.some((s) => s.alertScheduleSettings.isDefaultSchedule)).toBe(true);
    expect(parseDateTime(device.lastUploadDate)!).toBeLessThanOrEqual(now);
  });
});

describe("dataRange", () => {
  it("bounds equal the first and last records the data endpoints return", async () => {
    const range = dataRangeResponseSchema
      .strict()
      .parse(await (await get("SandboxUser3", "/v2/users/self/dataRange")).json());
    expect(range.egvs && range.events && range.calibrations).toBeTruthy();
    for (const [group, path] of [
      ["egvs", "/v2/users/self/egvs"],
      ["events", "/v2/users/self/events"],
      ["calibrations", "/v2/users/self/calibrations"],
    ] as const) {
      const bounds = range[group]!;
      const startMs = parseDateTime(bounds.start.systemTime)!;
      const endMs = parseDateTime(bounds.end.systemTime)!;
      // Nothing before the start...
      const before = await (await get("SandboxUser3", path, win(startMs - 30 * DAY, startMs - 1000))).json();
      expect(before[group]).toEqual([]);
      // ...the first record is the start...
      const first = (await (await get("SandboxUser3", path, win(startMs, startMs + DAY))).json())[group][0];
      expect(first.systemTime).toBe(bounds.start.systemTime);
      expect(first.displayTime).toBe(bounds.start.displayTime);
      // ...and the last record is the end.
      const last = (await (await get("SandboxUser3", path, win(endMs - DAY, endMs + DAY))).json())[group].at(
        -1,
      );
      expect(last.systemTime).toBe(bounds.end.systemTime);
      expect(last.displayTime).toBe(bounds.end.displayTime);
    }
  });

  it("SandboxUser1's history covers at least 365 days", async () => {
    const range = dataRangeResponseSchema.parse(
      await (await get("SandboxUser1", "/v2/users/self/dataRange")).json(),
    );
    const span = parseDateTime(range.egvs!.end.systemTime)! - parseDateTime(range.egvs!.start.systemTime)!;
    expect(span).toBeGreaterThanOrEqual(365 * DAY);
  });
});

describe("time zones", () => {
  const offsetMinutes = (e: { systemTime: string; displayTime: string }) =>
    Math.round((parseDateTime(e.displayTime)! - parseDateTime(e.systemTime)!) / 60_000 / 15) * 15;

  it("SandboxUser1 travels across several time zones within the last 30 days", async () => {
    const now = Date.now();
    const body = egvsV2ResponseSchema.parse(
      await (await get("SandboxUser1", "/v2/users/self/egvs", win(now - 30 * DAY, now))).json(),
    );
    const offsets = body.egvs.map(offsetMinutes);
    const distinct = [...new Set(offsets)];
    expect(distinct.length).toBeGreaterThanOrEqual(2);
    const spread = Math.max(...distinct) - Math.min(...distinct);
    // "Several time zones": the trip moves the clock by at least three hours.
    expect(spread).toBeGreaterThanOrEqual(180);
    // systemTime never runs backwards while displayTime jumps.
    for (let i = 1; i < body.egvs.length; i++) {
      expect(parseDateTime(body.egvs[i]!.systemTime)!).toBeGreaterThan(
        parseDateTime(body.egvs[i - 1]!.systemTime)!,
      );
    }
  });

  it("displayTime follows daylight saving in the user's home zone", async () => {
    const jan = Date.UTC(2026, 0, 15, 12);
    const jul = Date.UTC(2026, 6, 15, 12);
    const winter = egvsV2ResponseSchema.parse(
      await (await get("SandboxUser2", "/v2/users/self/egvs", win(jan, jan + 6 * 3_600_000))).json(),
    );
    const summer = egvsV2ResponseSchema.parse(
      await (await get("SandboxUser2", "/v2/users/self/egvs", win(jul, jul + 6 * 3_600_000))).json(),
    );
    expect(winter.egvs.length).toBeGreaterThan(0);
    expect(summer.egvs.length).toBeGreaterThan(0);
    expect(Math.abs(offsetMinutes(summer.egvs[0]!) - offsetMinutes(winter.egvs[0]!))).toBe(60);
  });
});
