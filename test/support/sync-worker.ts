/**
 * Another process's sync pass for the cross-process test: waits until the given instant (so that
 * the passes of several processes start together, after each has loaded its modules), runs one
 * pass over the given connections (skipping those synced less than freshForMs ago, as the
 * scheduler's passes do) and prints its outcomes as JSON. Run with
 * `node --conditions react-server --import tsx`.
 */
import { runSyncPass } from "@/lib/sync/pass";

async function main() {
  const [startAt, concurrency, freshForMs, ...ids] = process.argv.slice(2);
  await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
  const summary = await runSyncPass({
    connectionIds: ids,
    concurrency: Number(concurrency),
    freshForMs: Number(freshForMs),
  });
  process.stdout.write(JSON.stringify(summary.outcomes));
  process.exit(0);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
