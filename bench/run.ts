/**
 * npm run bench: starts the production server (run `npm run build` first) and prints figures.
 * Not a test: it measures and prints; the targets are in the issue and in the README.
 */
import { randomBytes } from "node:crypto";
import { freePort, startAppServer, UNLIMITED_CALL_BUDGET } from "../test/support/app-server";
import { signIn } from "../test/support/dashboard-client";
import { bearer, connect, DAY_NIGHT_STATISTICS, dt, registerApp } from "../test/support/sandbox-client";
import { dashboardPages } from "./dashboard";
import { populationBench } from "./population";
import { reportPages } from "./reports";
import { startupBench } from "./startup";
import { syncBenchmarks } from "./sync";

const RUNS = Number(process.env.BENCH_RUNS ?? 30);

/**
 * The parts to run, BENCH_ONLY=sandbox,dashboard,reports,sync,population,proxy,startup (all by default):
 * one part's figures again after a change to it, without the whole run's quarter of an hour.
 */
const PARTS = ["sandbox", "dashboard", "reports", "sync", "population", "proxy", "startup"] as const;
const only = (process.env.BENCH_ONLY ?? "").split(",").filter(Boolean);
const unknown = only.filter((p) => !(PARTS as readonly string[]).includes(p));
if (unknown.length > 0)
  throw new Error(`BENCH_ONLY: no part ${unknown.join(", ")}; the parts are ${PARTS.join(", ")}`);
const runs = (part: (typeof PARTS)[number]) => only.length === 0 || only.includes(part);

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? Number.NaN;
  return { median: at(0.5), p90: at(0.9), p99: at(0.99), min: s[0] ?? Number.NaN };
}

function serverTiming(res: Response): number {
  const m = /app;dur=([\d.]+)/.exec(res.headers.get("server-timing") ?? "");
  return m?.[1] ? Number(m[1]) : Number.NaN;
}

async function measure(name: string, call: () => Promise<Response>) {
  for (let i = 0; i < 3; i++) await (await call()).arrayBuffer(); // warm caches and JIT
  const server: number[] = [];
  const total: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const res = await call();
    const body = await res.arrayBuffer();
    total.push(performance.now() - t0);
    server.push(serverTiming(res));
    bytes = body.byteLength;
    if (!res.ok) throw new Error(`${name}: ${res.status} ${new TextDecoder().decode(body)}`);
  }
  const s = stats(server);
  const t = stats(total);
  console.log(
    `${name.padEnd(44)} server median ${s.median.toFixed(1)} ms, p90 ${s.p90.toFixed(1)} ms | ` +
      `round trip median ${t.median.toFixed(1)} ms, p90 ${t.p90.toFixed(1)} ms | ${(bytes / 1024).toFixed(0)} KiB`,
  );
}

async function main() {
  if (runs("sandbox") || runs("dashboard") || runs("reports") || runs("sync")) await ownServerParts();
  // Its own servers and databases: 1,000 generated patients, not this server's sandbox users.
  if (runs("population")) await populationBench();
  if (runs("proxy")) await proxyOverhead();
  if (runs("startup")) await startupBench();
}

/** The parts measured against one server and its embedded sandbox. */
async function ownServerParts() {
  const server = await startAppServer(UNLIMITED_CALL_BUDGET);
  try {
    const base = server.url;
    if (runs("sandbox")) await sandboxEndpoints(base);
    if (runs("dashboard")) await dashboardPages(base);
    if (runs("reports")) await reportPages(base);
    if (runs("sync")) await syncBenchmarks(base);
  } finally {
    await server.stop();
  }
}

async function sandboxEndpoints(base: string) {
  const app = await registerApp(base, "Benchmark");
  const tokens = await connect(base, app, "SandboxUser1");
  const end = Date.now() - 60_000;
  const start = end - 90 * 86_400_000;
  const window = `startDate=${dt(start)}&endDate=${dt(end)}`;
  console.log(
    `Sandbox benchmarks, ${RUNS} runs each, SandboxUser1, 90-day window ending now (target: median ≤ 50 ms server time)`,
  );
  await measure("GET /v2/users/self/egvs (90 days)", () =>
    fetch(`${base}/sandbox/v2/users/self/egvs?${window}`, {
      headers: { ...bearer(tokens.access_token), "Accept-Encoding": "identity" },
    }),
  );
  const body = JSON.stringify(DAY_NIGHT_STATISTICS);
  await measure("POST /v2/users/self/statistics (90 days)", () =>
    fetch(`${base}/sandbox/v2/users/self/statistics?${window}`, {
      method: "POST",
      headers: { ...bearer(tokens.access_token), "Content-Type": "application/json" },
      body,
    }),
  );
}

const CLIENTS = Number(process.env.BENCH_PROXY_CLIENTS ?? 32);
const PER_CLIENT = Number(process.env.BENCH_PROXY_REQUESTS ?? 20);

/** Alone, one client sends enough requests for a stable median; together, PER_CLIENT each. */
const requestsPerClient = (clients: number) => (clients === 1 ? 200 : PER_CLIENT);

const timingOf = (res: Response, name: string) =>
  Number(new RegExp(`${name};dur=([\\d.]+)`).exec(res.headers.get("server-timing") ?? "")?.[1] ?? Number.NaN);

/** Latencies of `clients` concurrent clients, each sending requests one after another. */
async function concurrentLatencies(
  clients: number,
  call: () => Promise<Response>,
  onResponse: (res: Response) => void = () => {},
): Promise<number[]> {
  return (await concurrentRun(clients, call, onResponse)).latencies;
}

/** The same, with the requests answered per second over the whole run (its throughput). */
async function concurrentRun(
  clients: number,
  call: () => Promise<Response>,
  onResponse: (res: Response) => void = () => {},
): Promise<{ latencies: number[]; perSecond: number }> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = 0; i < requestsPerClient(clients); i++) {
        const t0 = performance.now();
        const res = await call();
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`status ${res.status}`);
        latencies.push(performance.now() - t0);
        onResponse(res);
      }
    }),
  );
  return { latencies, perSecond: (latencies.length * 1000) / (performance.now() - started) };
}

/**
 * What the proxy adds: the same one-day EGV read by CLIENTS concurrent clients, straight from the
 * service with a bearer token, then through /api/cgm with a session cookie. The service is the
 * sandbox of a second server process, as in production the service is another machine: with the
 * embedded sandbox the dashboard's process would do the service's work as well, and the figure
 * would measure the sandbox twice. Each figure is printed beside /api/health's at the same
 * concurrency in the same run. Targets (issue 17): the median added at 1 client at most the
 * /api/health median; at 32 clients at least 60% of /api/health's requests per second.
 */
async function proxyOverhead() {
  const service = await startAppServer();
  const port = await freePort();
  const dashboardUrl = `http://localhost:${port}`;
  const app = await registerApp(
    service.url,
    "Dashboard under benchmark",
    `${dashboardUrl}/api/auth/callback/cgm`,
  );
  const dashboard = await startAppServer({
    ...UNLIMITED_CALL_BUDGET,
    PORT: String(port),
    CGM_API_BASE_URL: `${service.url}/sandbox`,
    CGM_CLIENT_ID: app.client_id,
    CGM_CLIENT_SECRET: app.client_secret,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  });
  try {
    const reader = await registerApp(service.url, "Direct reader");
    const { access_token } = await connect(service.url, reader, "SandboxUser1");
    const session = await signIn(dashboard.url, "SandboxUser1");
    const end = Date.now() - 60_000;
    const window = `startDate=${dt(end - 86_400_000)}&endDate=${dt(end)}`;
    // The proxy passes on the API version the dashboard is configured for (v3 by default) and
    // answers another version's path with 404, so both sides read that version.
    const version = process.env.CGM_API_VERSION === "v2" ? "v2" : "v3";
    const direct = () =>
      fetch(`${service.url}/sandbox/${version}/users/self/egvs?${window}`, { headers: bearer(access_token) });
    const proxied = () =>
      fetch(`${dashboard.url}/api/cgm/${version}/users/self/egvs?${window}`, {
        headers: { Cookie: session.cookie },
      });
    console.log(`\nProxy overhead, GET ${version} egvs (1 day, 288 readings), service in a separate process`);
    // The floor under any route handler of this stack on this machine: what Next.js costs per
    // request before our code does anything, against a static file that Next serves without it.
    const staticFile = await (await fetch(`${dashboard.url}/`))
      .text()
      .then((html) => /\/_next\/static\/[^"]+\.js/.exec(html)?.[0]);
    if (staticFile) {
      const floor = stats(await concurrentLatencies(1, () => fetch(`${dashboard.url}/api/health`)));
      const file = stats(await concurrentLatencies(1, () => fetch(`${dashboard.url}${staticFile}`)));
      console.log(
        `  floor: GET /api/health (one trivial query) median ${floor.median.toFixed(1)} ms; a static file ${file.median.toFixed(1)} ms`,
      );
    }
    const health = () => fetch(`${dashboard.url}/api/health`);
    for (const clients of [1, CLIENTS]) {
      await concurrentLatencies(clients, direct);
      await concurrentLatencies(clients, proxied); // warm-up of both paths
      await concurrentLatencies(clients, health);
      const sandboxServer: number[] = [];
      const parts = { session: [] as number[], service: [] as number[], encode: [] as number[] };
      // The floor at the same concurrency, measured in this run: the app's cheapest route handler.
      const h = await concurrentRun(clients, health);
      const f = stats(h.latencies);
      const directRun = await concurrentRun(clients, direct, (r) => sandboxServer.push(timingOf(r, "app")));
      const d = stats(directRun.latencies);
      const run = await concurrentRun(clients, proxied, (r) => {
        for (const k of ["session", "service", "encode"] as const) parts[k].push(timingOf(r, k));
      });
      const p = stats(run.latencies);
      const m = (xs: number[]) => stats(xs).median.toFixed(1);
      const added = p.median - d.median;
      console.log(`  ${clients} concurrent client(s) × ${requestsPerClient(clients)} requests`);
      console.log(
        `    floor: GET /api/health  median ${f.median.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms, ${h.perSecond.toFixed(0)} requests/s`,
      );
      // The service shares this machine's cores with the proxy: what it serves alone is a ceiling
      // the proxy's throughput cannot pass here (in production the service is another machine).
      console.log(
        `    direct to the service   median ${d.median.toFixed(1)} ms, p99 ${d.p99.toFixed(1)} ms, ${directRun.perSecond.toFixed(0)} requests/s`,
      );
      console.log(
        `    through /api/cgm        median ${p.median.toFixed(1)} ms, p99 ${p.p99.toFixed(1)} ms, ${run.perSecond.toFixed(0)} requests/s ` +
          `(${((100 * run.perSecond) / h.perSecond).toFixed(0)}% of /api/health's, target at ${CLIENTS} clients ≥ 60%; ` +
          `${((100 * run.perSecond) / directRun.perSecond).toFixed(0)}% of the service's own)`,
      );
      console.log(
        `    added by the proxy      median ${added.toFixed(1)} ms (${(added / f.median).toFixed(1)}× the /api/health floor; ` +
          `target at 1 client: ≤ 1×), p99 ${(p.p99 - d.p99).toFixed(1)} ms`,
      );
      console.log(
        `    proxy's server time     session+connection ${m(parts.session)} ms, service call ${m(parts.service)} ms ` +
          `(of which the service's own work ${m(sandboxServer)} ms), encode ${m(parts.encode)} ms (medians)`,
      );
    }
  } finally {
    await dashboard.stop();
    await service.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
