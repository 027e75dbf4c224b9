import { beforeAll, describe, expect, inject, it } from "vitest";
import {
  egvsV2ResponseSchema,
  parseDateTime,
  statisticsV1ResponseSchema,
  statisticsV2ResponseSchema,
} from "@/lib/cgm";
import { bearer, connect, dt, registerApp } from "../support/sandbox-client";

/**
 * Spec section 2.6 and 4: statistics recomputed here, independently and naively, from the EGVs
 * that the egvs endpoint serves for the same window, then compared with the service's answer.
 */

const base = inject("baseUrl");
const DAY = 86_400_000;
const tokens: Record<string, string> = {};
const END = Date.UTC(2026, 9, 20, 0);
const START = END - 14 * DAY;
const query = `startDate=${dt(START)}&endDate=${dt(END)}`;

beforeAll(async () => {
  const app = await registerApp(base, "Statistics suite");
  for (const u of ["SandboxUser1", "SandboxUser2", "SandboxUser3", "SandboxUser5"]) {
    tokens[u] = (await connect(base, app, u)).access_token;
  }
});

function post(user: string, version: "v1" | "v2", body: unknown, q = query) {
  return fetch(`${base}/sandbox/${version}/users/self/statistics?${q}`, {
    method: "POST",
    headers: { ...bearer(tokens[user]!), "Content-Type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

const v2Range = (
  name: string,
  startTime: string,
  endTime: string,
  urgentLow: number,
  low: number,
  high: number,
) => ({
  name,
  startTime,
  endTime,
  egvRanges: [
    { name: "urgentLow", bound: urgentLow },
    { name: "low", bound: low },
    { name: "high", bound: high },
  ],
});
const DAY_NIGHT_V2 = {
  targetRanges: [
    v2Range("day", "06:00:00", "22:00:00", 55, 70, 180),
    v2Range("night", "22:00:00", "06:00:00", 55, 80, 200),
  ],
};

async function servedEgvs(user: string) {
  const res = await fetch(`${base}/sandbox/v2/users/self/egvs?${query}`, { headers: bearer(tokens[user]!) });
  return egvsV2ResponseSchema.parse(await res.json()).egvs;
}

function secondOfDay(displayTime: string) {
  const [h, m, s] = displayTime.slice(11).split(":").map(Number) as [number, number, number];
  return h * 3600 + m * 60 + s;
}

function naiveQuartile(sorted: number[], p: number) {
  const pos = (sorted.length - 1) * p;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

describe("v2 statistics equal a recomputation from the served EGVs", () => {
  for (const user of ["SandboxUser1", "SandboxUser2", "SandboxUser3"]) {
    it(user, async () => {
      const egvs = await servedEgvs(user);
      const isMmol = user === "SandboxUser3";
      const body = isMmol
        ? {
            targetRanges: [
              v2Range("day", "06:00:00", "22:00:00", 3.0, 3.9, 10.0),
              v2Range("night", "22:00:00", "06:00:00", 3.0, 4.4, 11.1),
            ],
          }
        : DAY_NIGHT_V2;
      const res = await post(user, "v2", body);
      expect(res.status).toBe(200);
      const stats = statisticsV2ResponseSchema.strict().parse(await res.json());

      const values = egvs.map((e) => e.value);
      const n = values.length;
      const sum = values.reduce((a, b) => a + b, 0);
      const mean = sum / n;
      const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / n;
      const sorted = [...values].sort((a, b) => a - b);
      let urgent = 0;
      let below = 0;
      let within = 0;
      let above = 0;
      for (const e of egvs) {
        const s = secondOfDay(e.displayTime);
        const range = s >= 6 * 3600 && s < 22 * 3600 ? body.targetRanges[0]! : body.targetRanges[1]!;
        const [ul, lo, hi] = range.egvRanges.map((r) => r.bound) as [number, number, number];
        if (e.value < ul) urgent++;
        else if (e.value < lo) below++;
        else if (e.value <= hi) within++;
        else above++;
      }
      expect(stats.nValues).toBe(n);
      expect(stats.sum).toBeCloseTo(sum, 6);
      expect(stats.mean).toBeCloseTo(mean, 9);
      expect(stats.variance).toBeCloseTo(variance, 6);
      expect(stats.stdDev).toBeCloseTo(Math.sqrt(variance), 9);
      expect(stats.min).toBe(sorted[0]);
      expect(stats.max).toBe(sorted.at(-1));
      expect(stats.median).toBeCloseTo(naiveQuartile(sorted, 0.5), 9);
      expect(stats.q1).toBeCloseTo(naiveQuartile(sorted, 0.25), 9);
      expect(stats.q2).toBeCloseTo(naiveQuartile(sorted, 0.5), 9);
      expect(stats.q3).toBeCloseTo(naiveQuartile(sorted, 0.75), 9);
      expect([stats.nUrgentLow, stats.nBelowRange, stats.nWithinRange, stats.nAboveRange]).toEqual([
        urgent,
        below,
        within,
        above,
      ]);
      expect(stats.percentWithinRange).toBeCloseTo((within / n) * 100, 9);
      expect(
        stats.percentUrgentLow + stats.percentBelowRange + stats.percentWithinRange + stats.percentAboveRange,
      ).toBeCloseTo(100, 9);
      expect(stats.nDays).toBe(new Set(egvs.map((e) => e.displayTime.slice(0, 10))).size);
      expect(stats.utilizationPercent).toBeGreaterThan(0);
      expect(stats.utilizationPercent).toBeLessThanOrEqual(100);
      if (isMmol) expect(stats.meanDailyCalibrations).toBeGreaterThan(1);
      else expect(stats.meanDailyCalibrations).toBe(0);
    });
  }

  it("SandboxUser2's overnight lows give a moderate or high hypoglycemia risk", async () => {
    const stats = statisticsV2ResponseSchema.parse(
      await (await post("SandboxUser2", "v2", DAY_NIGHT_V2)).json(),
    );
    expect(["moderate", "high"]).toContain(stats.hypoglycemiaRisk);
  });

  it("SandboxUser1 is well controlled: minimal or low risk, most time in range", async () => {
    const stats = statisticsV2ResponseSchema.parse(
      await (await post("SandboxUser1", "v2", DAY_NIGHT_V2)).json(),
    );
    expect(["minimal", "low"]).toContain(stats.hypoglycemiaRisk);
    expect(stats.percentWithinRange).toBeGreaterThan(70);
  });

  it("SandboxUser5 wears the sensor too little: hypoglycemia risk is null", async () => {
    const stats = statisticsV2ResponseSchema.parse(
      await (await post("SandboxUser5", "v2", DAY_NIGHT_V2)).json(),
    );
    expect(stats.nValues).toBeGreaterThan(0);
    expect(stats.hypoglycemiaRisk).toBeNull();
  });
});

describe("v1 statistics", () => {
  it("counts below, within (inclusive) and above one min/max range", async () => {
    const egvs = await servedEgvs("SandboxUser1");
    const res = await post("SandboxUser1", "v1", {
      targetRanges: [
        { name: "all day", startTime: "00:00:00", endTime: "00:00:00", egvRange: { min: 70, max: 180 } },
      ],
    });
    expect(res.status).toBe(200);
    const stats = statisticsV1ResponseSchema.strict().parse(await res.json());
    expect(stats.nBelowRange).toBe(egvs.filter((e) => e.value < 70).length);
    expect(stats.nWithinRange).toBe(egvs.filter((e) => e.value >= 70 && e.value <= 180).length);
    expect(stats.nAboveRange).toBe(egvs.filter((e) => e.value > 180).length);
  });
});

describe("statistics request validation (400 with the reason)", () => {
  const cases: Array<[string, "v1" | "v2", unknown, RegExp]> = [
    ["no body", "v2", undefined, /body is required/],
    ["a body that is not JSON", "v2", "targetRanges", /not valid JSON/],
    ["no targetRanges", "v2", {}, /targetRanges/],
    ["an empty targetRanges", "v2", { targetRanges: [] }, /at least one/],
    [
      "a gap in the day",
      "v2",
      { targetRanges: [v2Range("day", "06:00:00", "22:00:00", 55, 70, 180)] },
      /no time range covers/,
    ],
    [
      "overlapping ranges",
      "v2",
      {
        targetRanges: [
          v2Range("a", "00:00:00", "13:00:00", 55, 70, 180),
          v2Range("b", "12:00:00", "00:00:00", 55, 70, 180),
        ],
      },
      /overlap/,
    ],
    [
      "a missing bound",
      "v2",
      {
        targetRanges: [
          {
            ...v2Range("d", "00:00:00", "00:00:00", 55, 70, 180),
            egvRanges: [
              { name: "low", bound: 70 },
              { name: "high", bound: 180 },
            ],
          },
        ],
      },
      /urgentLow/,
    ],
    [
      "urgentLow not below low",
      "v2",
      { targetRanges: [v2Range("d", "00:00:00", "00:00:00", 70, 70, 180)] },
      /urgentLow < low < high/,
    ],
    [
      "low not below high",
      "v2",
      { targetRanges: [v2Range("d", "00:00:00", "00:00:00", 55, 190, 180)] },
      /urgentLow < low < high/,
    ],
    ["a malformed time", "v2", { targetRanges: [v2Range("d", "6:00", "00:00:00", 55, 70, 180)] }, /hh:mm:ss/],
    [
      "v1 without egvRange",
      "v1",
      { targetRanges: [{ name: "d", startTime: "00:00:00", endTime: "00:00:00" }] },
      /egvRange/,
    ],
    [
      "v1 with a gap",
      "v1",
      {
        targetRanges: [
          { name: "d", startTime: "06:00:00", endTime: "12:00:00", egvRange: { min: 70, max: 180 } },
        ],
      },
      /no time range covers/,
    ],
  ];
  it.each(cases)("refuses %s", async (_label, version, body, message) => {
    const res = await post("SandboxUser1", version, body);
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json.error).toBe("invalid_request");
    expect(json.message).toMatch(message);
  });

  it("refuses a window longer than 90 days", async () => {
    const res = await post(
      "SandboxUser1",
      "v2",
      DAY_NIGHT_V2,
      "startDate=2026-01-01T00:00:00&endDate=2026-04-02T00:00:00",
    );
    expect(res.status).toBe(400);
  });

  it("refuses a bad window before looking at the body", async () => {
    const res = await post(
      "SandboxUser1",
      "v2",
      DAY_NIGHT_V2,
      "startDate=2026-10-02T00:00:00&endDate=2026-10-01T00:00:00",
    );
    expect(res.status).toBe(400);
  });

  it("accepts windows that cross midnight and a single all-day range", async () => {
    expect((await post("SandboxUser1", "v2", DAY_NIGHT_V2)).status).toBe(200);
    expect(
      (
        await post("SandboxUser1", "v2", {
          targetRanges: [v2Range("all", "00:00:00", "00:00:00", 55, 70, 180)],
        })
      ).status,
    ).toBe(200);
  });

  it("answers zeros and a null risk for a window with no readings", async () => {
    const res = await post(
      "SandboxUser1",
      "v2",
      DAY_NIGHT_V2,
      "startDate=2020-01-01T00:00:00&endDate=2020-01-15T00:00:00",
    );
    const stats = statisticsV2ResponseSchema.parse(await res.json());
    expect(stats.nValues).toBe(0);
    expect(stats.hypoglycemiaRisk).toBeNull();
    expect(stats.nDays).toBe(0);
  });
});

it("parses window bounds exactly as the egvs endpoint does", () => {
  expect(parseDateTime(dt(START))).toBe(START);
});
