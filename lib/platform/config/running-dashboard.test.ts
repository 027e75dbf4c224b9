import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardAnswers, embeddedDatabaseHeld } from "./running-dashboard";

/** A stand-in for a server on 127.0.0.1: each path answers as `answers` says. */
function fakeServer(answers: Record<string, { status: number; body: string }>) {
  const server = createServer((req, res) => {
    const a = answers[req.url ?? ""] ?? { status: 404, body: "not here" };
    res.writeHead(a.status, { "Content-Type": "application/json" }).end(a.body);
  });
  return new Promise<{ url: string; server: Server }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    ),
  );
}

describe("is the dashboard running", () => {
  const servers: Server[] = [];
  const start = async (answers: Parameters<typeof fakeServer>[0]) => {
    const s = await fakeServer(answers);
    servers.push(s.server);
    return s.url;
  };
  afterAll(() => {
    for (const s of servers) s.close();
  });

  it("recognises the dashboard's health route, ready or still opening its database", async () => {
    const ready = await start({ "/api/health": { status: 200, body: '{"status":"ok"}' } });
    const opening = await start({ "/api/health": { status: 503, body: '{"status":"unavailable"}' } });
    expect(await dashboardAnswers(ready)).toBe(true);
    expect(await dashboardAnswers(opening)).toBe(true);
  });

  it("does not take something else, or nothing, for the dashboard", async () => {
    const other = await start({ "/api/health": { status: 200, body: "<html>another app</html>" } });
    const missing = await start({});
    expect(await dashboardAnswers(other)).toBe(false);
    expect(await dashboardAnswers(missing)).toBe(false);
    // A closed port: nobody answers.
    expect(await dashboardAnswers("http://127.0.0.1:9")).toBe(false);
  });

  it("holds the embedded database only without DATABASE_URL", async () => {
    const ready = await start({ "/api/health": { status: 200, body: '{"status":"ok"}' } });
    expect(await embeddedDatabaseHeld({ APP_URL: ready })).toBe(true);
    expect(await embeddedDatabaseHeld({ APP_URL: ready, DATABASE_URL: "postgresql://db/x" })).toBe(false);
    expect(await embeddedDatabaseHeld({ APP_URL: "http://127.0.0.1:9" })).toBe(false);
  });
});

describe("npm run sync beside a running server on the embedded database", () => {
  let dashboard: { url: string; server: Server };
  let dataDir: string;
  beforeAll(async () => {
    dashboard = await fakeServer({ "/api/health": { status: 200, body: '{"status":"ok"}' } });
    dataDir = mkdtempSync(path.join(tmpdir(), "glucose-sync-refusal-"));
  });
  afterAll(() => {
    dashboard.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("refuses, even with another service, names both ways out, and leaves the data folder alone", async () => {
    const { DATABASE_URL: _, ...inherited } = process.env;
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ["--conditions", "react-server", "--import", "tsx", "scripts/sync.ts"],
        {
          cwd: path.resolve(import.meta.dirname, "../../.."),
          timeout: 60_000,
          env: {
            ...inherited,
            NODE_ENV: "production",
            DATA_DIR: dataDir,
            APP_URL: dashboard.url,
            // Another service: only the embedded database is shared with the server.
            CGM_API_BASE_URL: "http://127.0.0.1:9/service",
            AUTH_SECRET: "s".repeat(40),
            TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
            CGM_CLIENT_ID: "dashboard",
            CGM_CLIENT_SECRET: "secret",
          },
        },
        (error, _stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr: String(stderr) }),
      );
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(dashboard.url);
    expect(result.stderr).toContain("SYNC_IN_PROCESS=on");
    expect(result.stderr).toContain("DATABASE_URL");
    expect(existsSync(path.join(dataDir, "pglite"))).toBe(false);
  }, 60_000);
});
