import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Starts the real production server (`next start`) on a free port with its own data folder, the
 * way a user runs it. Tests, browser tests and benchmarks all talk to it over HTTP.
 */
export interface AppServer {
  url: string;
  port: number;
  dataDir: string;
  /** The server's process id (benchmarks read its memory from /proc). */
  pid: number;
  stop(): Promise<void>;
  /** Kills the server at once (SIGKILL), as a crash would, and leaves its data folder. */
  kill(): Promise<void>;
}

const ROOT = path.resolve(__dirname, "../..");

/**
 * Idle connections are kept longer than any client keeps them (undici: 4 s), so the server never
 * closes a socket just as a client reuses it ("other side closed"). Same flag as `npm start`.
 */
const KEEP_ALIVE = ["--keepAliveTimeout", "65000"];

/**
 * The largest call budget per user and minute (CGM_USER_CALLS_PER_MINUTE): test suites and
 * benchmarks read far more in a minute, as one user, than a person does, and are not about the
 * budget; test/http/request-bounds.test.ts tests it on a server of its own.
 */
export const UNLIMITED_CALL_BUDGET = { CGM_USER_CALLS_PER_MINUTE: "60000" } as const;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The project's own suites, browser tests and benchmarks drive the sandbox's test controls (faults,
 * expired tokens, token counts, deleted events), which are off unless asked for.
 */
const TEST_ENV = { SANDBOX_FAULTS: "on" };

/**
 * `extraEnv` on top of this process's environment and TEST_ENV; an undefined value unsets that
 * variable. `nodeArgs` go to node before Next's (a benchmark's `--cpu-prof`, which NODE_OPTIONS refuses).
 */
export async function startAppServer(
  extraEnv: Record<string, string | undefined> = {},
  nodeArgs: string[] = [],
): Promise<AppServer> {
  if (!existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
    throw new Error("No production build: run `npm run build` first (npm test does it for you).");
  }
  const port = Number(extraEnv.PORT) || (await freePort());
  const dataDir = extraEnv.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "glucose-test-"));
  const url = `http://localhost:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...nodeArgs,
      path.join(ROOT, "node_modules/next/dist/bin/next"),
      "start",
      "-p",
      String(port),
      ...KEEP_ALIVE,
    ],
    {
      cwd: ROOT,
      // spawn leaves out variables whose value is undefined.
      env: {
        ...process.env,
        ...TEST_ENV,
        NODE_ENV: "production",
        PORT: String(port),
        DATA_DIR: dataDir,
        ...extraEnv,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  // Also kept in the data folder, so tests can read what the server logged (the leak checks).
  const log = createWriteStream(path.join(dataDir, "server.log"), { flags: "a" });
  child.stdout?.on("data", (d) => {
    output += d;
    log.write(d);
  });
  child.stderr?.on("data", (d) => {
    output += d;
    log.write(d);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`App server exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`App server did not become healthy in 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    url,
    port,
    dataDir,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      }
      if (!extraEnv.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await exited;
      }
    },
  };
}
