/**
 * The clinic's population view for 1,000 patients (target: at most 500 ms server time). For each
 * database, PGlite always and PostgreSQL when BENCH_POPULATION_DATABASE_URL is set (that database
 * is emptied first: give it one of its own), a child process (bench/population-worker.ts, with the
 * server's module conditions) generates the clinic, its patients' 28 days of synced data and
 * their daily sums in the database, and times `populationOf`, the view's server-side data work,
 * in process (median of BENCH_POPULATION_RUNS). Then the production server is started on the same
 * database and the page itself is timed over HTTP from this process with the clinician's session
 * (its round trip on localhost: the server's time plus a loopback transfer of the HTML).
 * BENCH_POPULATION_PATIENTS changes the number of patients.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startAppServer } from "../test/support/app-server";
import { emptyDatabase } from "../test/support/database";

const ROOT = path.resolve(__dirname, "..");
const PAGE_RUNS = Number(process.env.BENCH_POPULATION_PAGE_RUNS ?? 10);
const TARGET_MS = 500;

interface WorkerResult {
  clinicId: string;
  sessionToken: string;
  patients: number;
  rawPatients: number;
  egvs: number;
  generateMs: number;
  medianMs: number;
  maxMs: number;
  rows: number;
  flagged: number;
}

/** `env` on top of this process's, without DATABASE_URL unless given (PGlite then). */
function runWorker(env: Record<string, string>): Promise<WorkerResult> {
  const { DATABASE_URL: _, ...inherited } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--conditions", "react-server", "--import", "tsx", path.join(ROOT, "bench/population-worker.ts")],
      { cwd: ROOT, env: { ...inherited, ...env }, stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.on("exit", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code === 0 && line.startsWith("{")) resolve(JSON.parse(line));
      else reject(new Error(`population worker exited with ${code}: ${out}`));
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

async function pageTimes(serverEnv: Record<string, string>, result: WorkerResult) {
  const server = await startAppServer(serverEnv);
  try {
    const url = `${server.url}/clinic/population?clinic=${encodeURIComponent(result.clinicId)}`;
    const headers = { Cookie: `glucose.session=${result.sessionToken}`, "Accept-Encoding": "identity" };
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < PAGE_RUNS + 2; i++) {
      const t0 = performance.now();
      const res = await fetch(url, { headers, redirect: "manual" });
      const body = await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`population page: ${res.status}`);
      if (i >= 2) times.push(performance.now() - t0); // the first two warm the server up
      bytes = body.byteLength;
    }
    return { median: median(times), bytes };
  } finally {
    await server.stop();
  }
}

function report(label: string, r: WorkerResult, page: { median: number; bytes: number }) {
  const verdict = (ms: number) => (ms <= TARGET_MS ? "meets" : "MISSES");
  console.log(
    `  ${label}: ${r.patients} patients (${r.flagged} flagged), ${r.egvs.toLocaleString("en")} synced EGVs ` +
      `(raw readings kept for ${r.rawPatients}), generated in ${(r.generateMs / 1000).toFixed(0)} s`,
  );
  console.log(
    `    populationOf (data, in process)   median ${r.medianMs.toFixed(1)} ms, max ${r.maxMs.toFixed(1)} ms ` +
      `(target ≤ ${TARGET_MS} ms: ${verdict(r.medianMs)})`,
  );
  console.log(
    `    GET /clinic/population (page)     median ${page.median.toFixed(1)} ms round trip, ` +
      `${(page.bytes / 1024).toFixed(0)} KiB HTML (target ≤ ${TARGET_MS} ms: ${verdict(page.median)})`,
  );
}

export async function populationBench(): Promise<void> {
  console.log("\nPopulation view (the clinic's triage table), 14 days of each patient from the daily sums");
  const dataDir = mkdtempSync(path.join(tmpdir(), "glucose-population-bench-"));
  // The server of the PGlite run must not inherit a DATABASE_URL of the shell.
  const inheritedUrl = process.env.DATABASE_URL;
  delete process.env.DATABASE_URL;
  try {
    const lite = await runWorker({ DATA_DIR: dataDir });
    report("PGlite", lite, await pageTimes({ DATA_DIR: dataDir }, lite));
  } finally {
    if (inheritedUrl !== undefined) process.env.DATABASE_URL = inheritedUrl;
    rmSync(dataDir, { recursive: true, force: true });
  }
  const url = process.env.BENCH_POPULATION_DATABASE_URL;
  if (!url) {
    console.log(
      "  PostgreSQL: set BENCH_POPULATION_DATABASE_URL (a database of its own; it is emptied) to measure it",
    );
    return;
  }
  await emptyDatabase(url);
  const postgres = await runWorker({ DATABASE_URL: url });
  report("PostgreSQL", postgres, await pageTimes({ DATABASE_URL: url }, postgres));
}

// Run alone: node --import tsx bench/population.ts (after npm run build).
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  populationBench().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
