/**
 * Start-up and idle memory of the production server on the embedded database (PGlite), the way a
 * user runs it: `next start` on an empty data folder (a first start), then on the folder that
 * start left (every later start), each to its first healthy answer; then the server's resident
 * memory left idle, before and after a patient has viewed the 90-day overview a few times
 * (memory that grows with the window viewed and never drops back shows here).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startAppServer, UNLIMITED_CALL_BUDGET } from "../test/support/app-server";
import { signIn } from "../test/support/dashboard-client";

const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 10_000);

/** Resident memory of a process, in MB (Linux /proc). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

const idle = () => new Promise((r) => setTimeout(r, IDLE_MS));

async function timedStart(dataDir: string) {
  const t0 = performance.now();
  const server = await startAppServer({ ...UNLIMITED_CALL_BUDGET, DATA_DIR: dataDir });
  return { server, seconds: (performance.now() - t0) / 1000 };
}

export async function startupBench() {
  console.log(
    `\nStart-up, npm start's server on PGlite (to the first healthy answer; memory after ${IDLE_MS / 1000} s idle)`,
  );
  const dataDir = mkdtempSync(path.join(tmpdir(), "glucose-bench-start-"));
  try {
    const first = await timedStart(dataDir);
    await idle();
    const firstIdle = rssMb(first.server.pid);
    await first.server.stop();
    console.log(
      `  empty data folder     ${first.seconds.toFixed(2)} s (target ≤ 3 s); idle ${firstIdle.toFixed(0)} MB (target ≤ 300 MB)`,
    );

    const again = await timedStart(dataDir);
    await idle();
    const againIdle = rssMb(again.server.pid);
    const session = await signIn(again.server.url, "SandboxUser1");
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${again.server.url}/dashboard?range=90d`, {
        headers: { Cookie: session.cookie },
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`90-day overview: ${res.status}`);
    }
    const afterViews = rssMb(again.server.pid);
    await idle();
    const afterIdle = rssMb(again.server.pid);
    await again.server.stop();
    console.log(
      `  existing data folder  ${again.seconds.toFixed(2)} s; idle ${againIdle.toFixed(0)} MB; ` +
        `after five 90-day overviews ${afterViews.toFixed(0)} MB, idle again ${afterIdle.toFixed(0)} MB (target ≤ 300 MB)`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
