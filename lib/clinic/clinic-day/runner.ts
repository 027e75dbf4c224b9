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
import { unexpectedFailure } from "./failure";
import { afterTransient, CLINIC_DAY_MAX_ATTEMPTS, GAVE_UP, idleDelayMs } from "./policy";
import { renderClinicDayPdf } from "./render";

/**
 * Works the clinic days' items in the background of a server process: at most
 * CLINIC_DAY_CONCURRENCY PDFs at once (each a Chromium page), never on a request's path. Items are
 * leased in the database, so several processes on one PostgreSQL share the work and a restart
 * resumes it: the runner registers in sync_workers (lib/sync/workers.ts, as the sync's passes do,
 * with its heartbeat) and a lease whose holder is gone (the previous run of a restarted server:
 * at once), silent past the heartbeat's grace, or past CLINIC_DAY_LEASE_SECONDS is taken over. A PDF is stored only by the holder of the item's lease,
 * in the same statement that marks it done, so a taken-over render never stores a second one.
 * An item claimed CLINIC_DAY_MAX_ATTEMPTS times without an outcome fails with the reason in words.
 *
 * Idle, a runner costs one indexed "anything to do?" read, every 5 s doubling up to a minute
 * (policy.ts idleDelayMs), and holds no worker row (no heartbeat): it registers when there is work
 * and unregisters when it has none. Work made or retried in this process wakes it at once; its
 * first look after a start resumes what a restart stopped. Finished packets past
 * CLINIC_DAY_RETENTION_HOURS lose their PDFs (sweepExpired).
 */

/** Gone holders are looked for this often (each look reads the worker rows of this machine). */
const GONE_CHECK_MS = 10_000;
/** Finished packets past their retention lose their PDFs this often (one indexed update). */
const SWEEP_MS = 10 * 60_000;

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

export interface Claimed {
  id: string;
  attempts: number;
  jobId: string;
  clinicPatientId: string | null;
  patientName: string;
  days: number;
  createdBy: string | null;
}

/** Whether any item waits or runs (one read of the state index): else an idle runner does nothing more. */
async function anyWork(database: Db): Promise<boolean> {
  const i = schema.clinicDayItems;
  const rows = await database
    .select({ id: i.id })
    .from(i)
    .where(inArray(i.state, ["pending", "running"]))
    .limit(1);
  return rows.length > 0;
}

/**
 * Items whose render was cut short (lease expired, holder gone) CLINIC_DAY_MAX_ATTEMPTS times fail
 * now instead of being claimed again: a patient whose render crashes the process each time must
 * not keep the runner busy forever.
 */
export async function giveUpStuck(database: Db): Promise<void> {
  const i = schema.clinicDayItems;
  await database.execute(sql`
    update ${i} set state = 'failed', error = ${GAVE_UP}, leased_by = null, lease_until = null,
      finished_at = now()
    where ${i.state} = 'running' and ${i.attempts} >= ${CLINIC_DAY_MAX_ATTEMPTS}
      and (${i.leaseUntil} < now() or not ${holderAlive(sql`${i.leasedBy}`)})`);
}

/**
 * Deletes the PDFs of packets finished more than `hours` ago (their last item's end): the download
 * says they expired (jobs.ts), whether or not this ran yet.
 */
export async function sweepExpired(database: Db, hours: number): Promise<void> {
  const i = schema.clinicDayItems;
  await database.execute(sql`
    update ${i} set pdf = null
    where ${i.pdf} is not null and ${i.jobId} in (
      select job_id from ${i} group by job_id
      having bool_and(state in ('done', 'failed'))
        and max(finished_at) < now() - make_interval(secs => ${hours * 3600})
    )`);
}

export async function claim(database: Db, runner: string, count: number, leaseS: number): Promise<Claimed[]> {
  const { clinicDayItems: i, clinicDayJobs: j } = schema;
  const result = await database.execute<{
    id: string;
    job_id: string;
    clinic_patient_id: string | null;
    patient_name: string;
    attempts: number;
  }>(sql`
    update ${i} set state = 'running', leased_by = ${runner}, attempts = ${i.attempts} + 1,
      lease_until = now() + make_interval(secs => ${leaseS})
    where ${i.id} in (
      select c.id from ${i} c join ${j} on ${j.id} = c.job_id
      where (c.state = 'pending' and (c.lease_until is null or c.lease_until < now()))
         or (c.state = 'running' and c.attempts < ${CLINIC_DAY_MAX_ATTEMPTS}
             and (c.lease_until < now() or not ${holderAlive(sql`c.leased_by`)}))
      order by ${j.createdAt}, c.patient_name, c.id
      limit ${count}
      for update of c skip locked
    )
    returning ${i.id} as id, ${i.jobId} as job_id, ${i.clinicPatientId} as clinic_patient_id,
      ${i.patientName} as patient_name, ${i.attempts} as attempts`);
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
            attempts: Number(r.attempts),
            jobId: r.job_id,
            clinicPatientId: r.clinic_patient_id,
            patientName: r.patient_name,
            days: job.days,
            createdBy: job.createdBy,
          },
        ]
      : [];
  });
}

/** Stores the outcome, only while this runner still holds the item (else another has it now). */
export async function settle(
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
  } else if (afterTransient(item.attempts).kind === "failed") {
    await settle(database, runner, item, { kind: "failed", reason: GAVE_UP });
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
  const { CLINIC_DAY_CONCURRENCY: concurrency, CLINIC_DAY_LEASE_SECONDS: leaseS } = env();
  const retentionHours = env().CLINIC_DAY_RETENTION_HOURS;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking = false;
  let again = false;
  let lastGoneCheck = 0;
  let lastSweep = 0;
  let registered = false;
  /** Looks in a row that found nothing to do: the next waits longer (policy.ts idleDelayMs). */
  let idleRounds = 0;
  // Renders open this server's own pages: none before it listens (a restart resumes at once).
  let listening = false;

  const work = (database: Db, item: Claimed) => {
    const p = renderClinicDayPdf({
      clinicianId: item.createdBy,
      clinicPatientId: item.clinicPatientId,
      patientName: item.patientName,
      days: item.days,
    })
      .catch((e: unknown) => {
        const { outcome, log: line } = unexpectedFailure(e);
        log(line);
        return outcome;
      })
      .then((outcome) => settle(database, runner, item, outcome))
      .catch((e: unknown) => log(`clinic day: an item could not be stored: ${(e as Error).message}`))
      .finally(() => {
        inFlight.delete(p);
        tick();
      });
    inFlight.add(p);
  };

  /** One look: sweep now and then; when anything waits, register, free gone holders' leases, claim. */
  const look = async (): Promise<void> => {
    if (!listening) {
      listening = await fetch(`${env().PDF_RENDER_URL}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (!listening) return;
    }
    const database = await db();
    if (Date.now() - lastSweep > SWEEP_MS) {
      lastSweep = Date.now();
      await sweepExpired(database, retentionHours);
    }
    if (inFlight.size === 0 && !(await anyWork(database))) {
      // Nothing held, nothing to do: no worker row, so no heartbeat either.
      if (registered) {
        registered = false;
        await endWorker(database, runner);
      }
      idleRounds++;
      return;
    }
    idleRounds = 0;
    if (!registered) {
      await startWorker(database, runner);
      registered = true;
    }
    if (Date.now() - lastGoneCheck > GONE_CHECK_MS) {
      lastGoneCheck = Date.now();
      await removeGoneRunners(database);
    }
    await giveUpStuck(database);
    const free = concurrency - inFlight.size;
    if (free > 0) for (const item of await claim(database, runner, free, leaseS)) work(database, item);
  };

  const tick = () => {
    if (stopped) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = true;
    clearTimeout(timer);
    look()
      .catch((e: unknown) => log(`clinic day: the runner could not claim work: ${(e as Error).message}`))
      .finally(() => {
        ticking = false;
        if (stopped) return;
        if (again) {
          again = false;
          tick();
          return;
        }
        timer = setTimeout(tick, idleDelayMs(idleRounds > 0 ? idleRounds - 1 : 0));
        timer.unref();
      });
  };
  timer = setTimeout(tick, 0);
  timer.unref();

  globalThis.__clinicDayRunner = {
    wake() {
      idleRounds = 0;
      tick();
    },
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
