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

  it("reads the service's data with API v3 unless CGM_API_VERSION says v2", () => {
    expect(envSchema.parse({}).CGM_API_VERSION).toBe("v3");
    expect(envSchema.parse({ CGM_API_VERSION: "v2" }).CGM_API_VERSION).toBe("v2");
    const bad = envSchema.safeParse({ CGM_API_VERSION: "v4" });
    expect(bad.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["CGM_API_VERSION", "CGM_API_VERSION must be one of v2, v3"],
    ]);
  });

  describe("CGM_REGION", () => {
    const secrets = {
      AUTH_SECRET: "x".repeat(32),
      TOKEN_ENCRYPTION_KEY: KEY,
      CGM_CLIENT_ID: "id",
      CGM_CLIENT_SECRET: "secret",
    };

    it.each([
      ["us", "https://api.dexcom.com", 60],
      ["ous", "https://api.dexcom.eu", 180],
      ["jp", "https://api.dexcom.jp", 180],
      ["sandbox", "https://sandbox-api.dexcom.com", 180],
    ])("%s is the service at %s, its readings %i minutes late; the sandbox is off", (region, url, delay) => {
      const env = envSchema.parse({ CGM_REGION: region, ...secrets });
      expect(env.CGM_REGION).toBe(region);
      expect(env.CGM_API_BASE_URL).toBe(url);
      expect(env.CGM_DATA_DELAY_MINUTES).toBe(delay);
      expect(env.usesEmbeddedSandbox).toBe(false);
      expect(env.sandboxEnabled).toBe(false);
    });

    it("is the embedded sandbox by default, or when named, with no delay", () => {
      for (const given of [{}, { CGM_REGION: "embedded" }]) {
        const env = envSchema.parse(given);
        expect(env.CGM_REGION).toBe("embedded");
        expect(env.CGM_API_BASE_URL).toBe("http://localhost:3000/sandbox");
        expect(env.CGM_DATA_DELAY_MINUTES).toBe(0);
        expect(env.sandboxEnabled).toBe(true);
      }
    });

    it("a region needs the app's own credentials, as any other service does", () => {
      const result = envSchema.safeParse({ CGM_REGION: "ous" });
      const paths = result.error?.issues.map((i) => i.path.join(".")) ?? [];
      expect(paths.sort()).toEqual([
        "AUTH_SECRET",
        "CGM_CLIENT_ID",
        "CGM_CLIENT_SECRET",
        "TOKEN_ENCRYPTION_KEY",
      ]);
    });

    it("CGM_API_BASE_URL overrides the preset's address; the region still sets the delay", () => {
      const env = envSchema.parse({
        CGM_REGION: "us",
        CGM_API_BASE_URL: "https://proxy.example/",
        ...secrets,
      });
      expect(env.CGM_API_BASE_URL).toBe("https://proxy.example");
      expect(env.CGM_DATA_DELAY_MINUTES).toBe(60);
    });

    it("an address without a region is given the longest delay; CGM_DATA_DELAY_MINUTES overrides any", () => {
      const alone = envSchema.parse({ CGM_API_BASE_URL: "https://api.cgm.example", ...secrets });
      expect(alone.CGM_REGION).toBeNull();
      expect(alone.CGM_DATA_DELAY_MINUTES).toBe(180);
      const set = envSchema.parse({ CGM_REGION: "us", CGM_DATA_DELAY_MINUTES: "30", ...secrets });
      expect(set.CGM_DATA_DELAY_MINUTES).toBe(30);
    });

    it("refuses an unknown region, naming the presets", () => {
      const bad = envSchema.safeParse({ CGM_REGION: "eu" });
      expect(bad.error?.issues[0]).toMatchObject({
        path: ["CGM_REGION"],
        message: "CGM_REGION must be one of embedded, us, ous, jp, sandbox",
      });
    });
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
        `${key}: ${key} is required when CGM_API_BASE_URL or CGM_REGION points to another service`,
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
