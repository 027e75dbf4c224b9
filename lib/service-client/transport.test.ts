import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  backoffMs,
  CallsAbandoned,
  DEFAULT_RETRY_POLICY,
  fetchWithRetry,
  isLoopback,
  type RetryPolicy,
  retryAfterMs,
  ServiceError,
  withEncodingFor,
} from "./transport";

const fast: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 5,
  maxDelayMs: 20,
  maxTotalMs: 5_000,
  attemptTimeoutMs: 2_000,
};

describe("retryAfterMs", () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);
  it("reads seconds", () => expect(retryAfterMs("3", now)).toBe(3000));
  it("reads an HTTP date", () => expect(retryAfterMs("Sun, 22 Nov 2026 12:00:05 GMT", now)).toBe(5000));
  it("treats a past date as now", () => expect(retryAfterMs("Sun, 22 Nov 2026 11:00:00 GMT", now)).toBe(0));
  it("ignores absent or unreadable values", () => {
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs("soon", now)).toBeNull();
  });
});

describe("isLoopback and withEncodingFor", () => {
  it("knows this machine's addresses from a remote host's", () => {
    for (const u of [
      "http://localhost:3000/sandbox",
      "http://127.0.0.1/x",
      "http://127.1.2.3:80/",
      "http://[::1]:8080/",
    ])
      expect(isLoopback(u), u).toBe(true);
    for (const u of [
      "https://api.example.com/",
      "http://10.0.0.1/",
      "http://localhost.example.com/",
      "http://128.0.0.1/",
    ])
      expect(isLoopback(u), u).toBe(false);
  });
  it("leaves a remote service's encoding to fetch (gzip) and keeps what the caller set", () => {
    expect(
      withEncodingFor("https://api.example.com/", { Accept: "application/json" }).has("Accept-Encoding"),
    ).toBe(false);
    expect(withEncodingFor("http://localhost/", { "Accept-Encoding": "br" }).get("Accept-Encoding")).toBe(
      "br",
    );
    expect(withEncodingFor("http://localhost/", undefined).get("Accept-Encoding")).toBe("identity");
  });
});

describe("backoffMs", () => {
  it("grows exponentially up to the cap, scaled by the jitter", () => {
    expect(backoffMs(0, DEFAULT_RETRY_POLICY, () => 0.5)).toBe(100);
    expect(backoffMs(3, DEFAULT_RETRY_POLICY, () => 0.5)).toBe(800);
    expect(backoffMs(10, DEFAULT_RETRY_POLICY, () => 0.999)).toBe(4995);
    expect(backoffMs(10, DEFAULT_RETRY_POLICY, () => 0)).toBe(0);
  });
});

describe("fetchWithRetry against a real HTTP server", () => {
  let server: Server;
  let url: string;
  /** Statuses the server answers in turn; then 200. */
  let script: Array<{ status: number; headers?: Record<string, string> }> = [];
  let hits = 0;
  let encodings: Array<string | undefined> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++;
      encodings.push(req.headers["accept-encoding"]);
      const step = script.shift() ?? { status: 200 };
      res.writeHead(step.status, step.headers ?? {});
      res.end(JSON.stringify({ status: step.status }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const run = async (steps: typeof script, policy = fast) => {
    script = [...steps];
    hits = 0;
    return fetchWithRetry(url, {}, policy);
  };

  it("retries 503 and 502 and returns the success", async () => {
    const res = await run([{ status: 503 }, { status: 502 }]);
    expect(res.status).toBe(200);
    expect(hits).toBe(3);
  });

  it("does not retry a 400 or a 401", async () => {
    expect((await run([{ status: 400 }])).status).toBe(400);
    expect(hits).toBe(1);
    expect((await run([{ status: 401 }])).status).toBe(401);
    expect(hits).toBe(1);
  });

  it("waits as long as Retry-After says", async () => {
    const started = Date.now();
    const res = await run([{ status: 429, headers: { "Retry-After": "1" } }]);
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
  });

  it("returns the last retryable answer once the attempts run out", async () => {
    const res = await run(Array.from({ length: 10 }, () => ({ status: 503 })));
    expect(res.status).toBe(503);
    expect(hits).toBe(4);
  });

  it("gives up early rather than wait past the total budget", async () => {
    const res = await run([{ status: 429, headers: { "Retry-After": "60" } }]);
    expect(res.status).toBe(429);
    expect(hits).toBe(1);
  });

  it("asks the gate before every attempt, retries included, and sends nothing until it opens", async () => {
    script = [{ status: 503 }, { status: 503 }];
    hits = 0;
    const seen: number[] = [];
    const res = await fetchWithRetry(url, {}, fast, async () => {
      seen.push(hits);
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(res.status).toBe(200);
    // The gate ran before the 1st, 2nd and 3rd request, each time with none of them sent yet.
    expect(seen).toEqual([0, 1, 2]);
    expect(hits).toBe(3);
  });

  it("stops when the caller's signal aborts: no retry after the wait, which ends at once", async () => {
    script = [{ status: 429, headers: { "Retry-After": "2" } }];
    hits = 0;
    const caller = new AbortController();
    const started = Date.now();
    const pending = fetchWithRetry(url, { signal: caller.signal }, fast).catch((e) => e);
    await new Promise((r) => setTimeout(r, 200));
    caller.abort();
    expect(await pending).toBeInstanceOf(CallsAbandoned);
    expect(Date.now() - started).toBeLessThan(1_000);
    await new Promise((r) => setTimeout(r, 2_200));
    expect(hits).toBe(1);
  });

  it("sends nothing for a caller already gone, and aborts an attempt under way", async () => {
    hits = 0;
    const gone = AbortSignal.abort();
    expect(await fetchWithRetry(url, { signal: gone }, fast).catch((e) => e)).toBeInstanceOf(CallsAbandoned);
    expect(hits).toBe(0);
    // The gate held the attempt; the caller left meanwhile: the attempt is not sent.
    const caller = new AbortController();
    const held = fetchWithRetry(url, { signal: caller.signal }, fast, async () => caller.abort());
    expect(await held.catch((e) => e)).toBeInstanceOf(CallsAbandoned);
    expect(hits).toBe(0);
  });

  it("asks a service on this machine for its answer uncompressed, unless the caller chose", async () => {
    encodings = [];
    await (await fetchWithRetry(url, {}, fast)).text();
    await (await fetchWithRetry(url.replace("127.0.0.1", "localhost"), {}, fast)).text();
    await (await fetchWithRetry(url, { headers: { "Accept-Encoding": "gzip" } }, fast)).text();
    expect(encodings).toEqual(["identity", "identity", "gzip"]);
  });

  it("turns an unreachable service into ServiceError('network')", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const err = await fetchWithRetry(`http://127.0.0.1:${port}/`, {}, fast).catch((e) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ code: "network", status: 0 });
  });
});
