import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq, inArray, like, sql } from "drizzle-orm";
import { type Db, db, schema } from "@/lib/db";
import { env } from "@/lib/platform/env";
import {
  endWorker,
  type HostView,
  holderAlive,
  isGone,
  processStart,
  startWorker,
  thisHost,
} from "@/lib/sync/workers";
import { renderClinicDayPdf } from "./render";

/**
 * Works the clinic days' items in the background of a server process: at most
 * CLINIC_DAY_CONCURRENCY PDFs at once (each a Chromium page), never on a request's path. Items are
 * leased in the database, so several processes on one PostgreSQL share the work and a restart
 * resumes it: the runner registers in sync_workers (lib/sync/workers.ts, as the sync's passes do,
 * with its heartbeat) and a lease whose holder is gone (the previous run of a restarted server:
 * at once), silent past the heartbeat's grace, or past CLINIC_DAY_LEASE_SECONDS is taken over. A PDF is stored only by the holder of the item's lease,
 * in the same statement that marks it done, so a taken-over render never stores a second one.
 */

/**
 * How often an idle runner looks for work another process queued (one indexed query); work queued
 * in this process wakes it at once, and each item's end looks again.
 */
const POLL_MS = 5_000;
/** Gone holders are looked for this often (each look reads the worker rows of this machine). */
const GONE_CHECK_MS = 10_000;

const RUNNER_PREFIX = "clinic-day:";

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Unregisters the clinic-day runners of this machine whose process is gone (the previous run of a
 * restarted server), so their leases are free at once (lib/sync/workers.ts `isGone`). Only runners'
 * rows: the sync's own are its passes' to judge. A runner elsewhere that went silent loses its
 * leases by `holderAlive`'s grace, or when they expire.
 */
async function removeGoneRunners(database: Db): Promise<void> {
  const w = schema.syncWorkers;
  const here: HostView = {
    host: thisHost(),
    pid: process.pid,
    own: globalThis.__syncWorkers?.own ?? new Set(),
    exists: pidExists,
    startOf: processStart,
  };
  const rows = await database
    .select()
    .from(w)
    .where(and(eq(w.host, here.host ?? ""), like(w.id, `${RUNNER_PREFIX}%`)));
  const gone = rows.filter((row) => isGone(row, here)).map((row) => row.id);
  if (gone.length > 0) await database.delete(w).where(inArray(w.id, gone));
}

interface Claimed {
  id: string;
  jobId: string;
  clinicPatientId: string | null;
  patientName: string;
  days: number;
  createdBy: string | null;
  leaseUntil: Date;
}

async function claim(database: Db, runner: string, count: number, leaseS: number): Promise<Claimed[]> {
  const { clinicDayItems: i, clinicDayJobs: j } = schema;
  const result = await database.execute<{
    id: string;
    job_id: string;
    clinic_patient_id: string | null;
    patient_name: string;
    lease_until: string | Date;
  }>(sql`
    update ${i} set state = 'running', leased_by = ${runner}, attempts = ${i.attempts} + 1,
      lease_until = now() + make_interval(secs => ${leaseS})
    where ${i.id} in (
      select c.id from ${i} c join ${j} on ${j.id} = c.job_id
      where (c.state = 'pending' and (c.lease_until is null or c.lease_until < now()))
         or (c.state = 'running' and (c.lease_until < now() or not ${holderAlive(sql`c.leased_by`)}))
      order by ${j.createdAt}, c.patient_name, c.id
      limit ${count}
      for update of c skip locked
    )
    returning ${i.id} as id, ${i.jobId} as job_id, ${i.clinicPatientId} as clinic_patient_id,
      ${i.patientName} as patient_name, ${i.leaseUntil} as lease_until`);
  if (result.rows.length === 0) return [];
  const jobs = new Map(
    (
      await database
        .select({ id: j.id, days: j.days, createdBy: j.createdBy })
        .from(j)
        .where(
          sql`${j.id} in (select jsonb_array_elements_text(${JSON.stringify(result.rows.map((r) => r.job_id))}::jsonb))`,
        )
    ).map((x) => [x.id, x]),
  );
  return result.rows.flatMap((r) => {
    const job = jobs.get(r.job_id);
    return job
      ? [
          {
            id: r.id,
            jobId: r.job_id,
            clinicPatientId: r.clinic_patient_id,
            patientName: r.patient_name,
            days: job.days,
            createdBy: job.createdBy,
            leaseUntil: new Date(r.lease_until),
          },
        ]
      : [];
  });
}

/** Stores the outcome, only while this runner still holds the item (else another has it now). */
async function settle(
  database: Db,
  runner: string,
  item: Claimed,
  outcome: Awaited<ReturnType<typeof renderClinicDayPdf>>,
) {
  const i = schema.clinicDayItems;
  const held = and(eq(i.id, item.id), eq(i.state, "running"), eq(i.leasedBy, runner));
  if (outcome.kind === "done") {
    await database
      .update(i)
      .set({
        state: "done",
        pdf: outcome.pdf,
        period: outcome.period,
        error: null,
        leasedBy: null,
        leaseUntil: null,
        finishedAt: sql`now()`,
      })
      .where(held);
  } else if (outcome.kind === "failed") {
    await database
      .update(i)
      .set({
        state: "failed",
        error: outcome.reason,
        leasedBy: null,
        leaseUntil: null,
        finishedAt: sql`now()`,
      })
      .where(held);
  } else {
    // The budget refills within the minute: the item waits that long, then any runner takes it.
    await database
      .update(i)
      .set({ state: "pending", leasedBy: null, leaseUntil: sql`now() + interval '60 seconds'` })
      .where(held);
  }
}

export interface ClinicDayRunner {
  /** Looks for work now (a job was made or retried in this process). */
  wake(): void;
  /** Stops claiming; resolves when the renders in progress have ended. */
  stop(): Promise<void>;
}

declare global {
  // One runner per process, whichever of Next's bundles asks for it.
  var __clinicDayRunner: ClinicDayRunner | undefined;
}

export function startClinicDayRunner(log: (line: string) => void = (l) => console.log(l)): ClinicDayRunner {
  if (globalThis.__clinicDayRunner) return globalThis.__clinicDayRunner;
  const runner = `${RUNNER_PREFIX}${randomUUID()}`;
  const concurrency = env().CLINIC_DAY_CONCURRENCY;
  const leaseS = env().CLINIC_DAY_LEASE_SECONDS;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking = false;
  let again = false;
  let lastGoneCheck = 0;
  let registered = false;
  // Renders open this server's own pages: none before it listens (a restart resumes at once).
  let listening = false;

  const work = (database: Db, item: Claimed) => {
    const p = renderClinicDayPdf({
      clinicianId: item.createdBy,
      clinicPatientId: item.clinicPatientId,
      patientName: item.patientName,
      days: item.days,
      leaseUntil: item.leaseUntil,
    })
      .catch((e: unknown) => ({
        kind: "failed" as const,
        reason: `The report could not be prepared: ${(e as Error).message}`,
      }))
      .then((outcome) => settle(database, runner, item, outcome))
      .catch((e: unknown) => log(`clinic day: an item could not be stored: ${(e as Error).message}`))
      .finally(() => {
        inFlight.delete(p);
        tick();
      });
    inFlight.add(p);
  };

  const tick = () => {
    if (stopped) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = true;
    clearTimeout(timer);
    (async () => {
      if (!listening) {
        listening = await fetch(`${env().PDF_RENDER_URL}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (!listening) return;
      }
      const database = await db();
      if (!registered) {
        await startWorker(database, runner);
        registered = true;
      }
      if (Date.now() - lastGoneCheck > GONE_CHECK_MS) {
        lastGoneCheck = Date.now();
        await removeGoneRunners(database);
      }
      const free = concurrency - inFlight.size;
      if (free > 0) for (const item of await claim(database, runner, free, leaseS)) work(database, item);
    })()
      .catch((e: unknown) => log(`clinic day: the runner could not claim work: ${(e as Error).message}`))
      .finally(() => {
        ticking = false;
        if (stopped) return;
        if (again) {
          again = false;
          tick();
          return;
        }
        timer = setTimeout(tick, POLL_MS);
        timer.unref();
      });
  };
  timer = setTimeout(tick, 0);
  timer.unref();

  globalThis.__clinicDayRunner = {
    wake: tick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.allSettled([...inFlight]);
      if (registered) await endWorker(await db(), runner);
      globalThis.__clinicDayRunner = undefined;
    },
  };
  return globalThis.__clinicDayRunner;
}

/** Tells this process's runner, if it runs, that there is work (no-op otherwise: another process polls). */
export function wakeClinicDayRunner(): void {
  globalThis.__clinicDayRunner?.wake();
}
