/**
 * The background sync (lib/sync) against the embedded sandbox of the benchmark's server:
 * (a) the 365-day backfill of one patient; (b) 1,000 connected patients, each with one new
 * reading, synced by an incremental pass with 50 ms of simulated latency per call, no rate limit;
 * (c) the same pass under a configured rate limit. The sync runs in a process of its own
 * (bench/sync-worker.ts), as `npm run sync` does, on PGlite and, with BENCH_DATABASE_URL, also on
 * PostgreSQL (that database is emptied first).
 */
import { spawn } from "node:child_process";
import { emptyDatabase } from "../test/support/database";

function runWorker(base: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--conditions", "react-server", "--import", "tsx", "bench/sync-worker.ts", base],
      { env: { ...process.env, ...env }, stdio: ["ignore", "inherit", "inherit"] },
    );
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`sync benchmark: exit ${code}`))));
  });
}

export async function syncBenchmarks(base: string) {
  const patients = process.env.BENCH_SYNC_PATIENTS ?? "1000";
  console.log(`\nBackground sync, embedded sandbox, ${patients} patients for the incremental passes`);
  console.log(" database: PGlite (the sync's own, in its process)");
  await runWorker(base, {});
  const url = process.env.BENCH_DATABASE_URL;
  if (url) {
    await emptyDatabase(url);
    console.log(" database: PostgreSQL (BENCH_DATABASE_URL)");
    await runWorker(base, { DATABASE_URL: url });
  }
}
