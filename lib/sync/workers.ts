import "server-only";
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";
import { and, eq, inArray, lt, notInArray, or, type SQL, sql } from "drizzle-orm";
import { type Db, schema } from "@/lib/db";

/**
 * Who holds a sync lease, and whether it still runs. Each pass registers its lease name in
 * sync_workers with where it runs (host, pid, the process's start) and renews a heartbeat while
 * it goes on. A lease is free when its holder's row is missing or its heartbeat is older than
 * HEARTBEAT_GRACE_MS (a holder on another machine that crashed or froze), and a pass first deletes
 * the rows of its own machine and pid namespace whose process is gone (a worker killed a moment
 * ago, or the previous run of a restarted server, PGlite's case), so those leases are free at
 * once. This process's own passes are never judged gone. LEASE_MS
 * (lib/sync/store.ts) stays the bound for a holder that lives but never finishes.
 */

export const HEARTBEAT_MS = 5_000;
/** Six missed heartbeats: long enough for a busy event loop or a slow database, short next to LEASE_MS. */
export const HEARTBEAT_GRACE_MS = 30_000;

function readOr(file: string, fallback: string | null): string | null {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return fallback;
  }
}

/**
 * Where a pid names the same process: one machine (its name and, on Linux, the kernel's boot id,
 * since a name may be reused elsewhere) and one pid namespace. The namespace matters because
 * containers on one kernel share its boot id, and those on the host's network or replicas with
 * one hostname share its name too, while each sees only its own processes: without it, a
 * container would judge another's live workers gone (their pid does not exist here, or is its
 * own, pid 1). On Linux with the namespace unreadable there is no such scope (null): other
 * workers are then judged by their heartbeat alone. Elsewhere pids are the machine's.
 */
export function pidScope(
  name: string,
  bootId: string | null,
  pidNamespace: string | null,
  linux = true,
): string | null {
  if (!linux) return name;
  return pidNamespace ? [name, bootId, pidNamespace].filter(Boolean).join("/") : null;
}

let scope: { value: string | null } | undefined;

/** This process's pid scope (`pidScope`), read once. */
function thisScope(): string | null {
  scope ??= {
    value: pidScope(
      hostname(),
      readOr("/proc/sys/kernel/random/boot_id", null),
      readLinkOr("/proc/self/ns/pid"),
      process.platform === "linux",
    ),
  };
  return scope.value;
}

/** What a worker row records as its host: the pid scope, or a name no other process matches. */
export function thisHost(): string {
  return thisScope() ?? `${hostname()}/pid-namespace-unknown`;
}

function readLinkOr(file: string): string | null {
  try {
    return readlinkSync(file);
  } catch {
    return null;
  }
}

/** When the process started, in the kernel's clock ticks since boot (Linux); null elsewhere or when it is gone. */
export function processStart(pid: number): string | null {
  const stat = readOr(`/proc/${pid}/stat`, null);
  if (!stat) return null;
  // Field 22 (starttime), counted after the command name, which may itself hold spaces and ")".
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to another user.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export type WorkerRow = typeof schema.syncWorkers.$inferSelect;

/** What this process can see of the worker rows of its own pid scope. */
export interface HostView {
  /** This process's pid scope (`pidScope`); null: no other worker is judged by its pid. */
  host: string | null;
  pid: number;
  /** This process's registered passes. */
  own: ReadonlySet<string>;
  exists(pid: number): boolean;
  startOf(pid: number): string | null;
}

/**
 * A worker of this pid scope (machine and pid namespace) that is certainly gone: its process no
 * longer exists, or its pid now names another process (a different start), or it is this
 * process's pid but not one of its passes (a previous run of a restarted server with the same pid,
 * as in a container). Workers of other machines or pid namespaces are judged by their heartbeat
 * alone, and so is every worker when this process does not know its scope.
 */
export function isGone(worker: WorkerRow, here: HostView): boolean {
  if (here.host === null || worker.host !== here.host) return false;
  if (worker.pid === here.pid) return !here.own.has(worker.id);
  if (!here.exists(worker.pid)) return true;
  const start = here.startOf(worker.pid);
  return worker.processStart !== null && start !== null && start !== worker.processStart;
}

declare global {
  // One registry per process: Next loads this module once per bundle (the in-process scheduler's,
  // each route's), and a pass must not take another bundle's passes in this process for a dead
  // run's (isGone's same-pid rule).
  var __syncWorkers: { own: Set<string>; beat: NodeJS.Timeout | undefined } | undefined;
}
globalThis.__syncWorkers ??= { own: new Set(), beat: undefined };
const registry = globalThis.__syncWorkers;
const own = registry.own;

const w = schema.syncWorkers;
const silentSince = sql`now() - make_interval(secs => ${HEARTBEAT_GRACE_MS / 1000})`;

async function heartbeat(database: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const start = processStart(process.pid);
  // An upsert, so a pass whose row another process deleted (it was silent too long) is back.
  await database
    .insert(w)
    .values(ids.map((id) => ({ id, host: thisHost(), pid: process.pid, processStart: start })))
    .onConflictDoUpdate({ target: w.id, set: { heartbeatAt: sql`now()` } });
}

/** Registers a pass under its lease name; its heartbeat is renewed every HEARTBEAT_MS until `endWorker`. */
export async function startWorker(database: Db, id: string): Promise<void> {
  own.add(id);
  await heartbeat(database, [id]);
  if (registry.beat) return;
  registry.beat = setInterval(() => {
    heartbeat(database, [...own]).catch((e) =>
      console.error("sync: heartbeat failed", e instanceof Error ? e.message : e),
    );
  }, HEARTBEAT_MS);
  // A process that is stopping does not wait for its next heartbeat.
  registry.beat.unref();
}

/** The pass has ended (its leases are released): its row goes. */
export async function endWorker(database: Db, id: string): Promise<void> {
  own.delete(id);
  if (own.size === 0 && registry.beat) {
    clearInterval(registry.beat);
    registry.beat = undefined;
  }
  // Not thrown: it would hide the pass's own outcome or error, and a row left behind is removed
  // by the next pass on this machine (this pid, not one of its passes) or after the grace.
  await database
    .delete(w)
    .where(eq(w.id, id))
    .catch((e) => console.error("sync: could not unregister a pass", e instanceof Error ? e.message : e));
}

/**
 * Deletes the rows of workers that are gone: those of this pid scope whose process is (`isGone`),
 * and any whose heartbeat is past the grace, except this process's own passes: they run (this
 * process is running them), and a heartbeat that came late (an event loop blocked, PGlite's one
 * connection busy) must not hand their connections to a second sync. Their heartbeat is renewed
 * first, so that no claim, here or in another process, takes their leases for a silent holder's.
 * The leases of the deleted are then free (`holderAlive`).
 */
export async function removeGoneWorkers(database: Db): Promise<void> {
  const here: HostView = {
    host: thisScope(),
    pid: process.pid,
    own,
    exists: pidExists,
    startOf: processStart,
  };
  const mine = [...own];
  await heartbeat(database, mine);
  const local = here.host ? await database.select().from(w).where(eq(w.host, here.host)) : [];
  const gone = local.filter((row) => isGone(row, here)).map((row) => row.id);
  const silent = lt(w.heartbeatAt, silentSince);
  await database
    .delete(w)
    .where(
      or(
        gone.length ? inArray(w.id, gone) : undefined,
        mine.length ? and(silent, notInArray(w.id, mine)) : silent,
      ),
    );
}

/** SQL: the lease named `lockedBy` has a holder that is running (registered, heartbeat within the grace). */
export function holderAlive(lockedBy: SQL | typeof schema.syncState.lockedBy): SQL {
  return sql`exists (select 1 from ${w} where ${w.id} = ${lockedBy} and ${w.heartbeatAt} >= ${silentSince})`;
}
