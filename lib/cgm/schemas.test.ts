import { describe, expect, it } from "vitest";
import {
  checkDayCoverage,
  inTimeOfDayWindow,
  statisticsV2RequestSchema,
  timeOfDayWindow,
  tokenResponseSchema,
  windowQuerySchema,
} from "./schemas";

const r = (name: string, startTime: string, endTime: string) => ({ name, startTime, endTime });

describe("24-hour coverage of statistics time ranges (spec section 4, rules 1 and 2)", () => {
  it.each([
    [[r("all", "00:00:00", "00:00:00")]],
    [[r("all", "06:00:00", "06:00:00")]],
    [[r("all", "00:00:00", "23:59:59")]],
    [[r("day", "06:00:00", "22:00:00"), r("night", "22:00:00", "06:00:00")]],
    [[r("a", "00:00:00", "08:00:00"), r("b", "08:00:00", "16:00:00"), r("c", "16:00:00", "00:00:00")]],
  ])("accepts %j", (ranges) => {
    expect(checkDayCoverage(ranges)).toBeNull();
  });

  it.each([
    [[r("day", "06:00:00", "22:00:00")], /no time range covers the day from 00:00:00 to 06:00:00/],
    [[r("a", "00:00:00", "12:00:00"), r("b", "11:00:00", "00:00:00")], /"a" and "b" overlap/],
    [[r("a", "00:00:00", "00:00:00"), r("b", "06:00:00", "07:00:00")], /overlap/],
    [[r("a", "22:00:00", "06:00:00"), r("b", "05:00:00", "22:00:00")], /overlap/],
    [[r("a", "00:00:00", "12:00:00"), r("b", "13:00:00", "00:00:00")], /from 12:00:00 to 13:00:00/],
  ])("refuses %j", (ranges, message) => {
    expect(checkDayCoverage(ranges)).toMatch(message);
  });
});

describe("time-of-day windows", () => {
  it("start inclusive, end exclusive, wrapping past midnight", () => {
    const night = timeOfDayWindow("22:00:00", "06:00:00");
    expect(inTimeOfDayWindow(night, 22 * 3600)).toBe(true);
    expect(inTimeOfDayWindow(night, 0)).toBe(true);
    expect(inTimeOfDayWindow(night, 6 * 3600 - 1)).toBe(true);
    expect(inTimeOfDayWindow(night, 6 * 3600)).toBe(false);
    const day = timeOfDayWindow("06:00:00", "22:00:00");
    expect(inTimeOfDayWindow(day, 6 * 3600)).toBe(true);
    expect(inTimeOfDayWindow(day, 22 * 3600)).toBe(false);
    expect(inTimeOfDayWindow(timeOfDayWindow("00:00:00", "23:59:59"), 86_399)).toBe(true);
  });
});

describe("request schemas", () => {
  it("v2 needs urgentLow < low < high", () => {
    const body = (ul: number, lo: number, hi: number) => ({
      targetRanges: [
        {
          name: "all",
          startTime: "00:00:00",
          endTime: "00:00:00",
          egvRanges: [
            { name: "urgentLow", bound: ul },
            { name: "low", bound: lo },
            { name: "high", bound: hi },
          ],
        },
      ],
    });
    expect(statisticsV2RequestSchema.safeParse(body(55, 70, 180)).success).toBe(true);
    expect(statisticsV2RequestSchema.safeParse(body(70, 70, 180)).success).toBe(false);
    expect(statisticsV2RequestSchema.safeParse(body(55, 180, 180)).success).toBe(false);
  });

  it("windows need start before end", () => {
    expect(
      windowQuerySchema.safeParse({ startDate: "2026-01-01T00:00:00", endDate: "2026-01-01T00:00:01" })
        .success,
    ).toBe(true);
    expect(
      windowQuerySchema.safeParse({ startDate: "2026-01-01T00:00:01", endDate: "2026-01-01T00:00:00" })
        .success,
    ).toBe(false);
  });
});

describe("token response (service-v3-notes §1.4)", () => {
  const bare = { access_token: "a", expires_in: 7200, token_type: "Bearer", refresh_token: "r" };

  it("accepts the four documented fields alone: the Keycloak-style extras are UNCERTAIN", () => {
    expect(tokenResponseSchema.safeParse(bare).success).toBe(true);
  });

  it.each([
    ["the sandbox's shape", { refresh_expires_in: 0, "not-before-policy": "0", session_state: "s" }],
    ["Keycloak's numeric not-before-policy", { "not-before-policy": 0 }],
    ["only some of the extras", { refresh_expires_in: 0 }],
    ["a lower-case token type", { token_type: "bearer" }],
  ])("accepts %s", (_, extra) => {
    expect(tokenResponseSchema.safeParse({ ...bare, ...extra }).success).toBe(true);
  });

  it.each([
    ["no refresh token", { refresh_token: undefined }],
    ["expires_in as a string", { expires_in: "7200" }],
    ["another token type", { token_type: "MAC" }],
  ])("refuses %s", (_, change) => {
    expect(tokenResponseSchema.safeParse({ ...bare, ...change }).success).toBe(false);
  });
});
