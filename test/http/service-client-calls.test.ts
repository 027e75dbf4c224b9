import { beforeAll, describe, expect, inject, it } from "vitest";
import { egvsV2ResponseSchema, eventsV2ResponseSchema, windowOf } from "@/lib/cgm";
import { clientUnderTest } from "../support/client-under-test";
import { bearer, connect, dt, registerApp } from "../support/sandbox-client";

/**
 * The client's typed calls (lib/service-client/client.ts) against the real sandbox: long windows
 * split and merged without loss or duplicates, 401s answered by one refresh, faults retried.
 */

const base = inject("baseUrl");
const DAY = 86_400_000;
let client: Awaited<ReturnType<typeof clientUnderTest>>;
let calls: typeof import("@/lib/service-client/client");
let transport: typeof import("@/lib/service-client/transport");

beforeAll(async () => {
  client = await clientUnderTest(base);
  calls = await import("@/lib/service-client/client");
  transport = await import("@/lib/service-client/transport");
});

/** The same window straight from the sandbox in one call (it accepts up to 90 days). */
async function direct(username: string, path: string, startMs: number, endMs: number) {
  const app = await registerApp(base, "Direct");
  const t = await connect(base, app, username);
  const res = await fetch(`${base}/sandbox${path}?startDate=${dt(startMs)}&endDate=${dt(endMs)}`, {
    headers: bearer(t.access_token),
  });
  return res.json();
}

describe("windows longer than CGM_MAX_WINDOW_DAYS (30)", () => {
  const end = Date.UTC(2026, 9, 31, 17, 42, 7);
  const start = end - 75 * DAY;

  it("EGVs of 75 days come in three chunks, merged in order with nothing lost or repeated", async () => {
    const id = await client.connectPatient("SandboxUser1");
    const merged = await calls.getEgvs(id, "v2", windowOf(start, end));
    const expected = egvsV2ResponseSchema.parse(
      await direct("SandboxUser1", "/v2/users/self/egvs", start, end),
    );
    expect(merged.egvs.length).toBeGreaterThan(20_000);
    expect(merged).toEqual(expected);
  });

  it("v2 events are merged by eventId", async () => {
    const id = await client.connectPatient("SandboxUser2");
    const merged = await calls.getEvents(id, "v2", windowOf(start, end));
    const expected = eventsV2ResponseSchema.parse(
      await direct("SandboxUser2", "/v2/users/self/events", start, end),
    );
    expect(merged).toEqual(expected);
  });
});

describe("token expiry and faults", () => {
  const window = () => windowOf(Date.now() - 6 * 3_600_000, Date.now());

  it("a 401 is answered by one refresh and the call succeeds", async () => {
    const id = await client.connectPatient("SandboxUser1");
    const before = await client.refreshStats();
    await client.expireAllTokens();
    const result = await calls.getEgvs(id, "v2", window());
    expect(result.egvs.length).toBeGreaterThan(0);
    expect((await client.refreshStats()).refreshGrants - before.refreshGrants).toBe(1);
  });

  it("injected 503s and a 429 are retried and the call succeeds", async () => {
    const id = await client.connectPatient("SandboxUser1");
    await client.setFaults({ failNext: 2, failStatus: 503 });
    expect((await calls.getDataRange(id)).egvs).not.toBeNull();
    await client.setFaults({ failNext: 1, failStatus: 429, retryAfterSeconds: 1 });
    expect((await calls.getDataRange(id)).egvs).not.toBeNull();
    await client.setFaults({});
  });

  it("a burst that outlasts the retries gives a clear ServiceError with the upstream status", async () => {
    const id = await client.connectPatient("SandboxUser1");
    await client.setFaults({ failNext: 50, failStatus: 503 });
    try {
      await expect(calls.getDataRange(id)).rejects.toMatchObject({ status: 503, code: "unavailable" });
      await expect(calls.getDataRange(id)).rejects.toBeInstanceOf(transport.ServiceError);
    } finally {
      await client.setFaults({});
    }
  }, 60_000);

  it("a revoked authorization gives ReconnectRequired", async () => {
    const id = await client.connectPatient("SandboxUser4");
    await client.revokeAs("SandboxUser4");
    await expect(calls.getDataRange(id)).rejects.toBeInstanceOf(client.tokens.ReconnectRequired);
    expect((await client.tokens.getConnection(id))?.status).toBe("needs_reconnect");
  });
});
