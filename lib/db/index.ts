import "server-only";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { env } from "@/lib/platform/env";
import { seedFromTemplate } from "./pglite-template";
import * as schema from "./schema";

/**
 * The one database connection of the process: PGlite under DATA_DIR by default, PostgreSQL when
 * DATABASE_URL is set. Both speak the same dialect, so one drizzle schema and one set of
 * migrations serve both; the PGlite instance is typed as the node-postgres one because the
 * query-builder surface we use is identical.
 */
export type Db = NodePgDatabase<typeof schema>;

const MIGRATIONS_FOLDER = path.join(process.cwd(), "lib/db/migrations");
/**
 * PostgreSQL's own page cache inside PGlite's WebAssembly memory, which never shrinks once grown:
 * the default 128 MB made most of an idle server's memory. Pages it does not hold are read again
 * through the operating system's file cache, which the system can reclaim; one process with one
 * connection needs little of its own.
 */
const PGLITE_SHARED_BUFFERS = "16MB";
// Any constant works; it only has to be the same in every process that migrates this database.
const MIGRATION_LOCK_ID = 724_519_001;

declare global {
  // Kept on globalThis so that Next's dev-mode module reloading does not open a second PGlite on
  // the same folder (only one process, and one instance, may own it).
  var __glucoseDb: Promise<Db> | undefined;
}

export function db(): Promise<Db> {
  if (!globalThis.__glucoseDb) {
    const opening = open();
    globalThis.__glucoseDb = opening;
    // A failed start must not be remembered: the next request tries again.
    opening.catch(() => {
      if (globalThis.__glucoseDb === opening) globalThis.__glucoseDb = undefined;
    });
  }
  return globalThis.__glucoseDb;
}

async function open(): Promise<Db> {
  const { DATABASE_URL, DATA_DIR } = env();
  if (DATABASE_URL) {
    const { Pool } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const pool = new Pool({ connectionString: DATABASE_URL, max: 10 });
    const database = drizzle(pool, { schema });
    // Several app processes may start at once against one PostgreSQL: one migrates, the others wait.
    const client = await pool.connect();
    try {
      await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
      await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
      client.release();
    }
    return database;
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const dir = path.resolve(DATA_DIR, "pglite");
  mkdirSync(DATA_DIR, { recursive: true });
  seedFromTemplate(dir);
  mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir, {
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  const database = drizzle(client, { schema });
  await migrate(database, { migrationsFolder: MIGRATIONS_FOLDER });
  return database as unknown as Db;
}

/** For readiness checks: proves the database answers. */
export async function ping(): Promise<void> {
  await (await db()).execute(sql`select 1`);
}

export { schema };
