import { describe, expect, it } from "vitest";
import { envSchema } from "./env";

const KEY = Buffer.alloc(32, 7).toString("base64");

describe("envSchema", () => {
  it("needs nothing for the embedded default", () => {
    const env = envSchema.parse({});
    expect(env.APP_URL).toBe("http://localhost:3000");
    expect(env.CGM_API_BASE_URL).toBe("http://localhost:3000/sandbox");
    expect(env.usesEmbeddedSandbox).toBe(true);
    expect(env.sandboxEnabled).toBe(true);
    expect(env.CGM_MAX_WINDOW_DAYS).toBe(30);
  });

  it("reads the sync's rate limit as calls per hour, or none when off", () => {
    expect(envSchema.parse({}).SYNC_RATE_LIMIT_PER_HOUR).toBe(40_000);
    expect(envSchema.parse({ SYNC_RATE_LIMIT_PER_HOUR: "1200" }).SYNC_RATE_LIMIT_PER_HOUR).toBe(1_200);
    expect(envSchema.parse({ SYNC_RATE_LIMIT_PER_HOUR: "off" }).SYNC_RATE_LIMIT_PER_HOUR).toBeNull();
    for (const bad of ["0", "-5", "fast"]) {
      const result = envSchema.safeParse({ SYNC_RATE_LIMIT_PER_HOUR: bad });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(["SYNC_RATE_LIMIT_PER_HOUR"]);
    }
  });

  it("bounds each request: 90 days and 120 service calls per user and minute unless configured", () => {
    const env = envSchema.parse({});
    expect(env.CGM_MAX_REQUEST_DAYS).toBe(90);
    expect(env.CGM_USER_CALLS_PER_MINUTE).toBe(120);
    const set = envSchema.parse({ CGM_MAX_REQUEST_DAYS: "180", CGM_USER_CALLS_PER_MINUTE: "30" });
    expect([set.CGM_MAX_REQUEST_DAYS, set.CGM_USER_CALLS_PER_MINUTE]).toEqual([180, 30]);
    const bad = envSchema.safeParse({ CGM_MAX_REQUEST_DAYS: "30", CGM_USER_CALLS_PER_MINUTE: "0" });
    const byPath = Object.fromEntries(bad.error?.issues.map((i) => [i.path.join("."), i.message]) ?? []);
    expect(byPath.CGM_MAX_REQUEST_DAYS).toContain("may not be under 90");
    expect(byPath.CGM_USER_CALLS_PER_MINUTE).toBeDefined();
    expect(envSchema.safeParse({ CGM_MAX_REQUEST_DAYS: "367" }).success).toBe(false);
  });

  it("names every secret a deployment against another service must bring", () => {
    const result = envSchema.safeParse({ CGM_API_BASE_URL: "https://api.cgm.example" });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];
    for (const key of ["AUTH_SECRET", "TOKEN_ENCRYPTION_KEY", "CGM_CLIENT_ID", "CGM_CLIENT_SECRET"]) {
      expect(messages).toContain(
        `${key}: ${key} is required when CGM_API_BASE_URL points to another service`,
      );
    }
  });

  it("keeps the sandbox off against another service unless SANDBOX=on", () => {
    const base = {
      CGM_API_BASE_URL: "https://api.cgm.example",
      AUTH_SECRET: "x".repeat(32),
      TOKEN_ENCRYPTION_KEY: KEY,
      CGM_CLIENT_ID: "id",
      CGM_CLIENT_SECRET: "secret",
    };
    expect(envSchema.parse(base).sandboxEnabled).toBe(false);
    expect(envSchema.parse({ ...base, SANDBOX: "on" }).sandboxEnabled).toBe(true);
  });

  it("says what is wrong with a malformed key, window or database URL", () => {
    const result = envSchema.safeParse({
      TOKEN_ENCRYPTION_KEY: "c2hvcnQ=",
      CGM_MAX_WINDOW_DAYS: "120",
      SIGN_IN_ATTEMPT_TTL_S: "901",
      CLINIC_INVITATION_TTL_S: "604801",
      DATABASE_URL: "mysql://x",
    });
    const byPath = Object.fromEntries(result.error?.issues.map((i) => [i.path.join("."), i.message]) ?? []);
    expect(byPath.TOKEN_ENCRYPTION_KEY).toMatch(/32 random bytes in base64/);
    expect(byPath.CGM_MAX_WINDOW_DAYS).toBeDefined();
    expect(byPath.SIGN_IN_ATTEMPT_TTL_S).toContain("at most 900");
    expect(byPath.CLINIC_INVITATION_TTL_S).toContain("at most 604800");
    expect(byPath.DATABASE_URL).toMatch(/postgres/);
  });
});
