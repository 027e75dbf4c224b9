import { beforeAll, describe, expect, inject, it } from "vitest";
import { egvsV2ResponseSchema, parseDateTime } from "@/lib/cgm";
import {
  basic,
  bearer,
  connect,
  dt,
  type RegisteredApp,
  registerApp,
  type Tokens,
} from "../support/sandbox-client";

/** Fault injection and limits, per app, for testing clients against a misbehaving service. */

const base = inject("baseUrl");
const now = () => Date.now();
let app: RegisteredApp;
let tokens: Tokens;

async function setFaults(body: unknown, target = app) {
  return fetch(`${base}/sandbox/developer/apps/${target.client_id}/faults`, {
    method: "PUT",
    headers: { ...basic(target), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}
const egvs = () =>
  fetch(`${base}/sandbox/v2/users/self/egvs?startDate=${dt(now() - 12 * 3_600_000)}&endDate=${dt(now())}`, {
    headers: bearer(tokens.access_token),
  });

beforeAll(async () => {
  app = await registerApp(base, "Faults suite");
  tokens = await connect(base, app, "SandboxUser1");
});

describe("fault injection", () => {
  it("needs the app's own credentials", async () => {
    const other = await registerApp(base, "Other");
    const res = await fetch(`${base}/sandbox/developer/apps/${app.client_id}/faults`, {
      method: "PUT",
      headers: { ...basic(other), "Content-Type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(401);
  });

  it("refuses unknown settings and bad statuses with 400", async () => {
    expect((await setFaults({ failStatus: 404 })).status).toBe(400);
    expect((await setFaults({ explode: true })).status).toBe(400);
  });

  it("answers the next N requests with 503, then recovers", async () => {
    expect((await setFaults({ failNext: 2, failStatus: 503 })).status).toBe(200);
    expect((await egvs()).status).toBe(503);
    expect((await egvs()).status).toBe(503);
    expect((await egvs()).status).toBe(200);
  });

  it("answers 429 with Retry-After", async () => {
    await setFaults({ failNext: 1, failStatus: 429, retryAfterSeconds: 7 });
    const res = await egvs();
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
    expect((await egvs()).status).toBe(200);
  });

  it("adds latency", async () => {
    await setFaults({ latencyMs: 400 });
    const t0 = performance.now();
    expect((await egvs()).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(390);
    await setFaults({});
  });

  it("limits calls per app per hour with 429 and a Retry-After until the next hour", async () => {
    const own = await registerApp(base, "Limited");
    const t = await connect(base, own);
    await setFaults({ rateLimitPerHour: 3 }, own);
    const call = () => fetch(`${base}/sandbox/v2/users/self/dataRange`, { headers: bearer(t.access_token) });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await call()).status);
    // Near the turn of the hour the counter may restart; at most one call more then passes.
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    const limited = await call();
    if (limited.status === 429) {
      const retry = Number(limited.headers.get("retry-after"));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(3600);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
  });

  it("delays the release of new readings", async () => {
    const before = egvsV2ResponseSchema.parse(await (await egvs()).json()).egvs.at(-1)!;
    await setFaults({ releaseDelayMinutes: 240 });
    const delayed = egvsV2ResponseSchema.parse(await (await egvs()).json()).egvs.at(-1);
    await setFaults({});
    if (delayed) expect(parseDateTime(delayed.systemTime)!).toBeLessThanOrEqual(now() - 240 * 60_000);
    expect(parseDateTime(before.systemTime)!).toBeGreaterThan(now() - 240 * 60_000);
  });
});
