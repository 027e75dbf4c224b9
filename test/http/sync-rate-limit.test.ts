import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { maxInWindow } from "@/lib/sync/rate-limit";
import { clientUnderTest } from "../support/client-under-test";

/**
 * The sync's rate limit (lib/sync/rate-limit.ts, lib/sync/limiter.ts) against the real sandbox
 * over HTTP, with the real database (PGlite, or the PostgreSQL of TEST_DATABASE_URL). Two passes
 * run at once, as two sync workers would, and share the app's one pacing row. A spy on fetch
 * notes when each request leaves for the service's data endpoints, retries included; no window
 * of the limit's period may hold more requests than the limit allows.
 */

const base = inject("baseUrl");
let client: Awaited<ReturnType<typeof clientUnderTest>>;
let sync: typeof import("@/lib/sync/pass");
const sent: number[] = [];
const realFetch = globalThis.fetch;

beforeAll(async () => {
  client = await clientUnderTest(base);
  sync = await import("@/lib/sync/pass");
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.startsWith(`${base}/sandbox/${inject("apiVersion")}/users/self/`)) sent.push(performance.now());
    return realFetch(input, init);
  });
});

afterAll(async () => {
  vi.restoreAllMocks();
  await client?.setFaults({ failNext: 0 });
});

describe("the sync under a rate limit", () => {
  it("two passes at once wait their turn: never more than 5 calls in any 2 s, retries included, and every sync succeeds", async () => {
    const ids: string[] = [];
    for (const user of ["SandboxUser1", "SandboxUser2", "SandboxUser3", "SandboxUser4"])
      ids.push(await client.connectPatient(user));
    // Three answers of 503: their retries are calls too, and wait like the others.
    await client.setFaults({ failNext: 3, failStatus: 503, retryAfterSeconds: 0 });
    const limit = { calls: 5, periodMs: 2_000 };
    const options = { connectionIds: ids, concurrency: 2, settings: { backfillDays: 30 }, rateLimit: limit };
    sent.length = 0;
    const started = performance.now();
    const [a, b] = await Promise.all([sync.runSyncPass(options), sync.runSyncPass(options)]);
    const elapsed = performance.now() - started;

    const outcomes = [...a.outcomes, ...b.outcomes];
    expect(outcomes.map((o) => o.connectionId).sort()).toEqual([...ids].sort());
    expect(outcomes.every((o) => o.result === "synced")).toBe(true);
    // Every call the passes planned reached the service, and the three retries besides.
    const planned = a.calls + b.calls;
    expect(planned).toBeGreaterThanOrEqual(12);
    expect(sent).toHaveLength(planned + 3);
    expect(maxInWindow(sent, limit.periodMs)).toBeLessThanOrEqual(limit.calls);
    // It was paced, not sent at once: one call at once, then at most one every 600 ms
    // (3,000 / 5); storing what was read takes time of its own, so the pass may take longer.
    expect(maxInWindow(sent, limit.periodMs)).toBeGreaterThanOrEqual(limit.calls - 1);
    expect(elapsed).toBeGreaterThanOrEqual((sent.length - 1) * 600 - 50);
  }, 60_000);

  it("without a limit the same work goes as fast as the service answers", async () => {
    const id = await client.connectPatient("SandboxUser5");
    sent.length = 0;
    const summary = await sync.runSyncPass({
      connectionIds: [id],
      rateLimit: null,
      settings: { backfillDays: 30 },
    });
    expect(summary.synced).toBe(1);
    expect(sent.length).toBeGreaterThanOrEqual(3);
    // Unpaced, the calls come closer together than the limit above would allow.
    expect(maxInWindow(sent, 450)).toBeGreaterThan(1);
  });
});
