/**
 * npm run bench: starts the production server (run `npm run build` first) and prints figures.
 * Not a test: it measures and prints; the targets are in the issue and in the README.
 */
import { startAppServer, UNLIMITED_CALL_BUDGET } from "../test/support/app-server";
import { bearer, connect, DAY_NIGHT_STATISTICS, dt, registerApp } from "../test/support/sandbox-client";
import { dashboardPages } from "./dashboard";
import { populationBench } from "./population";
import { proxyOverhead } from "./proxy";
import { reportPages } from "./reports";
import { startupBench } from "./startup";
import { stats } from "./stats";
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

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
