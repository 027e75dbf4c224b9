/**
 * Run by `npm run build` after `next build`: the embedded database created and migrated once,
 * kept in the build output (lib/db/pglite-template.ts says why). A template made by an older
 * build is replaced, so it always holds this build's migrations.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { PGLITE_TEMPLATE_DIR } from "../lib/db/pglite-template";

async function main() {
  const started = performance.now();
  if (!existsSync(path.dirname(PGLITE_TEMPLATE_DIR))) {
    throw new Error(`${path.dirname(PGLITE_TEMPLATE_DIR)} is missing: run next build first`);
  }
  const building = `${PGLITE_TEMPLATE_DIR}.building`;
  rmSync(building, { recursive: true, force: true });
  const client = await PGlite.create(building);
  await migrate(drizzle(client), { migrationsFolder: path.join(process.cwd(), "lib/db/migrations") });
  // A clean shutdown, so the copy opens without recovery.
  await client.close();
  rmSync(PGLITE_TEMPLATE_DIR, { recursive: true, force: true });
  renameSync(building, PGLITE_TEMPLATE_DIR);
  console.log(`Embedded database template made in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
