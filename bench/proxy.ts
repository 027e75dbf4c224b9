/**
 * What the proxy (/api/cgm) adds: the same one-day EGV read by 1 and by CLIENTS concurrent
 * clients, straight from the upstream with a bearer token, then through /api/cgm with a session
 * cookie, each beside /api/health's figures at the same concurrency in the same run (the floor).
 * Targets (issue 17): the median added at 1 client at most the /api/health median; at 32 clients
 * at least 60% of /api/health's requests per second.
 *
 * Measured against two upstreams, one dashboard server each:
 * - the service: the sandbox of a second app server process, as in production the service is
 *   another machine (with the embedded sandbox the dashboard's process would do the service's work
 *   as well). On this machine it shares the cores with the proxy, so its own throughput caps the
 *   proxy's and the 32-client target cannot be judged against it;
 * - a recorded upstream (bench/replay-upstream.ts, a process of its own): the same read answered
 *   from the service's recorded answer, everything else (sign-in, tokens) passed to the service.
 *   It costs almost nothing, so what is left is the proxy's own work.
 *
 * BENCH_PROXY_PROFILE=<folder>: the dashboard served from the recorded upstream runs with
 * `node --cpu-prof` and writes its profile there when it stops.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { type AppServer, freePort, startAppServer, UNLIMITED_CALL_BUDGET } from "../test/support/app-server";
import { signIn } from "../test/support/dashboard-client";
import { bearer, connect, dt, registerApp } from "../test/support/sandbox-client";
import { stats } from "./stats";

const CLIENTS = Number(process.env.BENCH_PROXY_CLIENTS ?? 32);
const PER_CLIENT = Number(process.env.BENCH_PROXY_REQUESTS ?? 20);
const ROUNDS = Number(process.env.BENCH_PROXY_ROUNDS ?? 3);

/** Alone, one client sends enough requests for a stable median; together, PER_CLIENT each. */
const requestsPerClient = (clients: number) => (clients === 1 ? 200 : PER_CLIENT);

const timingOf = (res: Response, name: string) =>
  Number(new RegExp(`${name};dur=([\\d.]+)`).exec(res.headers.get("server-timing") ?? "")?.[1] ?? Number.NaN);

/** Latencies of `clients` concurrent clients, each sending requests one after another, and the requests answered per second. */
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

/** The recorded upstream in its own process, passing everything else to `serviceUrl`. */
async function startReplay(serviceUrl: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", path.join(__dirname, "replay-upstream.ts"), serviceUrl],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const port = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`replay-upstream exited: ${code}`)));
    child.stdout?.on("data", (d: Buffer) => {
      const m = /listening (\d+)/.exec(String(d));
      if (m?.[1]) resolve(m[1]);
    });
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

export async function proxyOverhead() {
  const service = await startAppServer();
  const replay = await startReplay(service.url);
  try {
    await measureThrough(service, `${service.url}/sandbox`, "the service (a second app server's sandbox)");
    await measureThrough(
      service,
      `${replay.url}/sandbox`,
      "a recorded upstream (the service's answer replayed, bench/replay-upstream.ts)",
      process.env.BENCH_PROXY_PROFILE
        ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROXY_PROFILE)}`]
        : [],
    );
  } finally {
    await replay.stop();
    await service.stop();
  }
}

/** A dashboard server reading from `upstream` (the service's base URL as CGM_API_BASE_URL), measured. */
async function measureThrough(service: AppServer, upstream: string, label: string, nodeArgs: string[] = []) {
  const port = await freePort();
  const dashboardUrl = `http://localhost:${port}`;
  const app = await registerApp(
    service.url,
    "Dashboard under benchmark",
    `${dashboardUrl}/api/auth/callback/cgm`,
  );
  const dashboard = await startAppServer(
    {
      ...UNLIMITED_CALL_BUDGET,
      PORT: String(port),
      CGM_API_BASE_URL: upstream,
      CGM_CLIENT_ID: app.client_id,
      CGM_CLIENT_SECRET: app.client_secret,
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    },
    nodeArgs,
  );
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
      fetch(`${upstream}/${version}/users/self/egvs?${window}`, { headers: bearer(access_token) });
    const proxied = () =>
      fetch(`${dashboard.url}/api/cgm/${version}/users/self/egvs?${window}`, {
        headers: { Cookie: session.cookie },
      });
    // The same without gzip: what Next's compression of the answer (about 130 kB of JSON at zlib's
    // default level, which a route handler cannot change) and the client's unzipping cost.
    const proxiedPlain = () =>
      fetch(`${dashboard.url}/api/cgm/${version}/users/self/egvs?${window}`, {
        headers: { Cookie: session.cookie, "Accept-Encoding": "identity" },
      });
    console.log(`\nProxy overhead, GET ${version} egvs (1 day, 288 readings), upstream: ${label}`);
    // The floor under any route handler of this stack on this machine: what Next.js costs per
    // request before our code does anything, against a static file that Next serves without it.
    const staticFile = await (await fetch(`${dashboard.url}/`))
      .text()
      .then((html) => /\/_next\/static\/[^"]+\.js/.exec(html)?.[0]);
    if (staticFile) {
      const floor = stats((await concurrentRun(1, () => fetch(`${dashboard.url}/api/health`))).latencies);
      const file = stats((await concurrentRun(1, () => fetch(`${dashboard.url}${staticFile}`))).latencies);
      console.log(
        `  floor: GET /api/health (one trivial query) median ${floor.median.toFixed(1)} ms; a static file ${file.median.toFixed(1)} ms`,
      );
    }
    const health = () => fetch(`${dashboard.url}/api/health`);
    for (const clients of [1, CLIENTS]) {
      await concurrentRun(clients, direct);
      await concurrentRun(clients, proxied); // warm-up of both paths
      await concurrentRun(clients, health);
      const upstreamServer: number[] = [];
      const parts = { session: [] as number[], service: [] as number[], encode: [] as number[] };
      const lat = {
        health: [] as number[],
        direct: [] as number[],
        proxy: [] as number[],
        plain: [] as number[],
      };
      const rps = {
        health: [] as number[],
        direct: [] as number[],
        proxy: [] as number[],
        plain: [] as number[],
      };
      const ratios = { health: [] as number[], direct: [] as number[], plain: [] as number[] };
      // Rounds of the three, one after another: on a machine shared with other work the load
      // changes between runs, and a ratio of runs minutes apart would measure that change.
      for (let round = 0; round < ROUNDS; round++) {
        // The floor at the same concurrency, measured in this run: the app's cheapest route handler.
        const h = await concurrentRun(clients, health);
        const dr = await concurrentRun(clients, direct, (r) => upstreamServer.push(timingOf(r, "app")));
        const pr = await concurrentRun(clients, proxied, (r) => {
          for (const k of ["session", "service", "encode"] as const) parts[k].push(timingOf(r, k));
        });
        const pl = await concurrentRun(clients, proxiedPlain);
        lat.plain.push(...pl.latencies);
        rps.plain.push(pl.perSecond);
        ratios.plain.push(pl.perSecond / h.perSecond);
        lat.health.push(...h.latencies);
        lat.direct.push(...dr.latencies);
        lat.proxy.push(...pr.latencies);
        rps.health.push(h.perSecond);
        rps.direct.push(dr.perSecond);
        rps.proxy.push(pr.perSecond);
        ratios.health.push(pr.perSecond / h.perSecond);
        ratios.direct.push(pr.perSecond / dr.perSecond);
      }
      const f = stats(lat.health);
      const d = stats(lat.direct);
      const p = stats(lat.proxy);
      const pl = stats(lat.plain);
      const perSecond = (xs: number[]) => stats(xs).median.toFixed(0);
      const share = (xs: number[]) => (100 * stats(xs).median).toFixed(0);
      const m = (xs: number[]) => stats(xs).median.toFixed(1);
      const added = p.median - d.median;
      console.log(
        `  ${clients} concurrent client(s) × ${requestsPerClient(clients)} requests, ${ROUNDS} rounds ` +
          "(latencies of all rounds; requests/s and shares: the median round's)",
      );
      console.log(
        `    floor: GET /api/health  median ${f.median.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms, ${perSecond(rps.health)} requests/s`,
      );
      // The upstream shares this machine's cores with the proxy: what it serves alone is a ceiling
      // the proxy's throughput cannot pass here (in production the service is another machine).
      console.log(
        `    direct to the upstream  median ${d.median.toFixed(1)} ms, p99 ${d.p99.toFixed(1)} ms, ${perSecond(rps.direct)} requests/s`,
      );
      console.log(
        `    through /api/cgm        median ${p.median.toFixed(1)} ms, p99 ${p.p99.toFixed(1)} ms, ${perSecond(rps.proxy)} requests/s ` +
          `(${share(ratios.health)}% of /api/health's, target at ${CLIENTS} clients ≥ 60%; ` +
          `${share(ratios.direct)}% of the upstream's own)`,
      );
      console.log(
        `    … without gzip          median ${pl.median.toFixed(1)} ms, p99 ${pl.p99.toFixed(1)} ms, ${perSecond(rps.plain)} requests/s ` +
          `(${share(ratios.plain)}% of /api/health's; added ${(pl.median - d.median).toFixed(1)} ms, ` +
          `${((pl.median - d.median) / f.median).toFixed(1)}× the floor)`,
      );
      console.log(
        `    added by the proxy      median ${added.toFixed(1)} ms (${(added / f.median).toFixed(1)}× the /api/health floor; ` +
          `target at 1 client: ≤ 1×), p99 ${(p.p99 - d.p99).toFixed(1)} ms`,
      );
      // The recorded upstream sends no Server-Timing of its own.
      const own = upstreamServer.some((t) => !Number.isNaN(t))
        ? ` (of which the upstream's own work ${m(upstreamServer)} ms)`
        : "";
      console.log(
        `    proxy's server time     session+connection ${m(parts.session)} ms, service call ${m(parts.service)} ms${own}, ` +
          `encode ${m(parts.encode)} ms (medians)`,
      );
    }
  } finally {
    await dashboard.stop();
  }
}
