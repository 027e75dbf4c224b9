import { type ChildProcess, spawn } from "node:child_process";

export interface WorkerOutcome {
  connectionId: string;
  result: string;
  records: number;
}

/**
 * One pass of a sync worker in a process of its own (test/support/sync-worker.ts) over `ids`,
 * starting at `startAt` (epoch ms, so several processes start together after loading their
 * modules); resolves with its outcomes. As the scheduler's passes, it leaves what another process
 * synced in the last minute, so a process that starts late on a loaded machine does not sync a
 * patient a second time. `env` is the server's configuration (its database, data folder, URL).
 */
export function syncWorkerPass(
  startAt: number,
  ids: readonly string[],
  env: Record<string, string | undefined>,
) {
  return new Promise<WorkerOutcome[]>((resolve, reject) => {
    const child = startSyncWorker(startAt, ids, env);
    let out = "";
    let err = "";
    child.stdout?.on("data", (d) => {
      out += d;
    });
    child.stderr?.on("data", (d) => {
      err += d;
    });
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(err))));
  });
}

/** The worker process of `syncWorkerPass` itself, for a test that kills it mid-pass. */
export function startSyncWorker(
  startAt: number,
  ids: readonly string[],
  env: Record<string, string | undefined>,
): ChildProcess {
  return spawn(
    process.execPath,
    [
      "--conditions",
      "react-server",
      "--import",
      "tsx",
      "test/support/sync-worker.ts",
      String(startAt),
      "2",
      "60000",
      ...ids,
    ],
    { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
}
