import { cpSync, existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";

/**
 * The embedded database made at build time (`npm run build` runs scripts/pglite-template.ts after
 * `next build`): created and migrated once, then copied into an empty data folder on a first
 * start. Creating a PostgreSQL cluster (initdb, in WebAssembly) is most of a cold start's time and
 * leaves the WebAssembly memory it grew, which never shrinks; a copy of files does neither.
 *
 * Not server-only: the build script uses it outside Next.
 */
export const PGLITE_TEMPLATE_DIR = path.join(process.cwd(), ".next", "pglite-template");

const isCluster = (dir: string) => existsSync(path.join(dir, "PG_VERSION"));

/**
 * Fills `dir` from the template when `dir` holds no database yet and a template exists; true
 * when it did. The copy goes to a folder beside `dir` and is renamed into place, so a start that
 * dies halfway leaves no half-copied database behind to be opened next time.
 */
export function seedFromTemplate(dir: string, template = PGLITE_TEMPLATE_DIR): boolean {
  if (!isCluster(template)) return false;
  if (existsSync(dir) && readdirSync(dir).length > 0) return false;
  const partial = `${dir}.seeding-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(template, partial, { recursive: true });
  rmSync(dir, { recursive: true, force: true }); // an empty folder made earlier
  renameSync(partial, dir);
  return true;
}
