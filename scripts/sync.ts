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
 * script must not run beside the server: it refuses when the server answers (the same check as
 * `npm run demo:clinic`), whatever the service, and points to SYNC_IN_PROCESS=on or DATABASE_URL.
 * With the embedded sandbox the service is that server, so there it refuses in any case.
 */
import { existsSync } from "node:fs";
import { embeddedDatabaseHeld } from "@/lib/platform/config/running-dashboard";
import { env } from "@/lib/platform/env";
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
  if (await embeddedDatabaseHeld(config)) {
    console.error(
      `npm run sync cannot open the embedded database: the dashboard running at ${config.APP_URL} ` +
        "holds it, and two processes on one PGlite folder can corrupt it. Start the server with " +
        "SYNC_IN_PROCESS=on to sync inside it, or point the server and this command at PostgreSQL " +
        "with DATABASE_URL.",
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
