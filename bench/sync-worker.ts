/**
 * The sync benchmark's own process (started by bench/sync.ts): the sync runs here as in
 * `npm run sync`, against the sandbox of the benchmark's server, with its own app registration and
 * database (PGlite in a temporary folder, or DATABASE_URL). Run with
 * `node --conditions react-server --import tsx bench/sync-worker.ts <server url>`; prints its
 * figures. A spy on fetch notes every request that leaves for the service's data endpoints.
 */
import { sql } from "drizzle-orm";
import { windowOf } from "@/lib/cgm/window";
import { type GroupFetch, syncWindows } from "@/lib/sync/plan";
import { maxInWindow, type RateLimit } from "@/lib/sync/rate-limit";
import { clientUnderTest } from "../test/support/client-under-test";

const PATIENTS = Number(process.env.BENCH_SYNC_PATIENTS ?? 1_000);
const CONCURRENCIES = (process.env.BENCH_SYNC_CONCURRENCY ?? "16,32").split(",").map(Number);
// A limit scaled to a benchmark's length (the real one is per hour): 50 calls a second.
const LIMIT: RateLimit = { calls: Number(process.env.BENCH_SYNC_LIMIT_CALLS ?? 500), periodMs: 10_000 };
// Users who wear their sensor all the time, so each has a new reading five minutes on.
const USERS = ["SandboxUser1", "SandboxUser2", "SandboxUser3", "SandboxUser4"];

const sent: number[] = [];

async function main() {
  const base = process.argv[2] ?? "";
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    // Either API version's data endpoints: the sync reads in the configured one (v3 by default).
    if (/^\/sandbox\/v[23]\/users\/self\//.test(url.slice(base.length))) sent.push(performance.now());
    return realFetch(input, init);
  };
  const client = await clientUnderTest(base);
  const { runSyncPass } = await import("@/lib/sync/pass");
  const { mapWithConcurrency } = await import("@/lib/service-client/windows");
  const { db, schema } = await import("@/lib/db");
  const database = await db();

  /** A pass with the calls the spy saw during it. */
  async function pass(options: Parameters<typeof runSyncPass>[0]) {
    const from = sent.length;
    const summary = await runSyncPass(options);
    return { summary, starts: sent.slice(from) };
  }

  // (a) Backfill of 365 days for one patient, as with SYNC_BACKFILL_DAYS=365.
  const one = await client.connectPatient("SandboxUser1");
  const backfill = await pass({ connectionIds: [one], settings: { backfillDays: 365 }, rateLimit: null });
  const b = backfill.summary;
  const days = (b.outcomes[0]?.result === "synced" ? (b.outcomes[0].groups[0] ?? null) : null) ?? null;
  console.log(
    `  backfill, 365 days of SandboxUser1: ${(b.durationMs / 1000).toFixed(2)} s (target ≤ 5 s); ` +
      `${b.records.toLocaleString("en")} records, ${b.calls} calls` +
      (days ? `, window ${((days.endMs - days.startMs) / 86_400_000).toFixed(0)} days of EGVs` : ""),
  );
  // The floor: the same windows fetched raw (bodies read, nothing parsed or stored), as the sync
  // reads them: group after group, WINDOWS_AHEAD at a time. Taken after the backfill, so the
  // sandbox is warm for it and the ratio errs against the backfill.
  const groups = b.outcomes[0]?.result === "synced" ? b.outcomes[0].groups : [];
  const raw: number[] = [];
  for (let run = 0; run < 3; run++) raw.push(await rawFetch(one, groups));
  const floor = [...raw].sort((x, y) => x - y)[1] ?? Number.NaN;
  console.log(
    `  floor: the same windows fetched raw, median of 3: ${(floor / 1000).toFixed(2)} s; ` +
      `backfill ${(b.durationMs / floor).toFixed(2)}× the floor (target ≤ 2×)`,
  );

  // (b) PATIENTS connected through the authorization flow, 16 at a time (several dashboard
  // accounts may connect the same sandbox user: each gets a grant of its own).
  let t0 = performance.now();
  const ids = await mapWithConcurrency(
    Array.from({ length: PATIENTS }, (_, i) => USERS[i % USERS.length] as string),
    16,
    (user) => client.connectPatient(user),
  );
  console.log(`  ${PATIENTS} patients connected in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // The first sync (a day's backfill, enough for this) as the service stood five minutes ago.
  await client.setFaults({ releaseDelayMinutes: 5 });
  t0 = performance.now();
  const first = await pass({
    connectionIds: ids,
    concurrency: 32,
    settings: { backfillDays: 1 },
    rateLimit: null,
  });
  console.log(
    `  first sync of ${PATIENTS} (1 day each): ${(first.summary.durationMs / 1000).toFixed(1)} s, ` +
      `${first.summary.synced} synced, ${first.summary.failed} failed`,
  );

  /** Five minutes on: the release delay is gone (first run) or the marks are moved back by 5 minutes. */
  const fiveMinutesOn = async (run: number) => {
    if (run === 0) return;
    await database.execute(
      sql`update ${schema.syncState} set egvs_through = egvs_through - interval '5 minutes'`,
    );
  };
  const report = (label: string, r: Awaited<ReturnType<typeof pass>>, extra = "") => {
    const s = r.summary;
    const calls = s.outcomes.map((o) => o.calls);
    const egvsOnly = s.outcomes.filter(
      (o) => o.result === "synced" && o.groups.length === 1 && o.groups[0]?.group === "egvs",
    );
    console.log(
      `  ${label}: ${(s.durationMs / 1000).toFixed(1)} s, ${s.synced} synced, ${s.failed} failed; ` +
        `calls per patient max ${Math.max(...calls)}, mean ${(calls.reduce((a, c) => a + c, 0) / calls.length).toFixed(2)}` +
        ` (${egvsOnly.length} with only EGVs new: max ${Math.max(0, ...egvsOnly.map((o) => o.calls))}); ` +
        `${r.starts.length} requests seen, ${s.calls} planned${extra}`,
    );
  };

  await client.setFaults({ releaseDelayMinutes: 0, latencyMs: 50 });
  for (const [run, concurrency] of CONCURRENCIES.entries()) {
    await fiveMinutesOn(run);
    report(
      `incremental, latency 50 ms, no limit, concurrency ${concurrency}`,
      await pass({ connectionIds: ids, concurrency, rateLimit: null }),
      " (target ≤ 20 s, ≤ 2 calls per patient)",
    );
  }

  // (c) The same under a configured limit, with the service's own limit set to the real 60,000
  // an hour (any excess would come back as 429 and fail syncs).
  await client.setFaults({ latencyMs: 50, rateLimitPerHour: 60_000 });
  await fiveMinutesOn(1);
  const limited = await pass({ connectionIds: ids, concurrency: CONCURRENCIES.at(-1), rateLimit: LIMIT });
  const most = maxInWindow(limited.starts, LIMIT.periodMs);
  const span = (Math.max(...limited.starts) - Math.min(...limited.starts)) / 1000;
  report(
    `incremental under a limit of ${LIMIT.calls} calls per ${LIMIT.periodMs / 1000} s`,
    limited,
    `; most in any ${LIMIT.periodMs / 1000} s: ${most} (limit ${LIMIT.calls}), ` +
      `${(limited.starts.length / span).toFixed(1)} calls/s over ${span.toFixed(1)} s`,
  );
  await client.setFaults({ latencyMs: 0, rateLimitPerHour: null });
  process.exit(most <= LIMIT.calls ? 0 : 1);
}

/** The data of `fetches` read raw with the sync's windows, in ms. */
async function rawFetch(connection: string, fetches: readonly GroupFetch[]): Promise<number> {
  const { configuredVersion, serviceRequest } = await import("@/lib/service-client/client");
  const { syncWindowDays } = await import("@/lib/sync/pass");
  const { mapWithConcurrency } = await import("@/lib/service-client/windows");
  const version = configuredVersion();
  const t0 = performance.now();
  for (const f of fetches) {
    const windows = syncWindows(f.startMs, f.endMs, syncWindowDays(version), version);
    await mapWithConcurrency(windows, 3, async (w) => {
      const { startDate, endDate } = windowOf(w.startMs, w.endMs);
      const res = await serviceRequest(connection, {
        path: `/${version}/users/self/${f.group}`,
        query: { startDate, endDate },
      });
      await res.text();
      if (!res.ok) throw new Error(`raw fetch of ${f.group}: ${res.status}`);
    });
  }
  return performance.now() - t0;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
