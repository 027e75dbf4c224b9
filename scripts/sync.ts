/**
 * npm run sync: one sync pass over every connection, a one-line summary, and exit; with
 * `--watch`, a pass every SYNC_INTERVAL_MINUTES until stopped (Ctrl-C or SIGTERM end it after the
 * pass in progress, so its leases are released).
 *
 * It runs the app's server modules outside Next, so `npm run sync` starts node with the
 * "react-server" condition (under which `server-only` is the empty module it is inside the
 * server) and tsx (for TypeScript and the "@/" paths). The configuration is the server's: the
 * environment, then the .env files Next would read in production, which never override it.
 *
 * Any number of sync processes may run against one PostgreSQL (DATABASE_URL): a connection is
 * synced by one at a time. PGlite belongs to one process, so against the embedded database this
 * script must not run beside the server; with the embedded sandbox the service is that server,
 * so there it refuses and points to SYNC_IN_PROCESS=on.
 */
import { existsSync } from "node:fs";
import { env } from "@/lib/env";
import { describeError, runSyncPass, summaryLine } from "@/lib/sync/pass";
import { startSyncScheduler } from "@/lib/sync/scheduler";

for (const file of [".env.production.local", ".env.local", ".env.production", ".env"]) {
  if (existsSync(file)) process.loadEnvFile(file);
}

async function main() {
  const config = env();
  if (!config.DATABASE_URL && config.usesEmbeddedSandbox) {
    console.error(
      "npm run sync needs PostgreSQL (DATABASE_URL) or another service (CGM_API_BASE_URL): with the " +
        "embedded database and sandbox, the running server owns both. Start the server with " +
        "SYNC_IN_PROCESS=on instead.",
    );
    process.exit(2);
  }
  if (!process.argv.includes("--watch")) {
    console.log(summaryLine(await runSyncPass()));
    process.exit(0);
  }
  const scheduler = startSyncScheduler({ firstDelayMs: 0, unref: false });
  const stop = async () => {
    await scheduler.stop();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((e) => {
  console.error(`sync: ${describeError(e)}`);
  process.exit(1);
});
