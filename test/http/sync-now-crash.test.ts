import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, freePort, startAppServer } from "../support/app-server";
import { clinicClient } from "../support/clinic-client";
import { dashboardApp, developer } from "../support/dashboard-client";

/**
 * "Sync now" after the server died in the middle of one (SIGKILL), on a server of its own with the
 * embedded PGlite, the default install, where the server is the one process with the database.
 * Restarted on the same data folder, it syncs the patient at once, instead of answering that a
 * sync is running for the ten minutes the dead process's lease had left.
 */

const dataDir = mkdtempSync(path.join(tmpdir(), "glucose-crash-"));
let server: AppServer | undefined;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  // The same port after the restart: the patient's redirect URIs and the sessions name it.
  env = {
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    DATABASE_URL: undefined,
    SYNC_IN_PROCESS: "off",
  };
  server = await startAppServer(env);
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a server killed during a sync", () => {
  it("answers the next Sync now with a sync, not with 'running right now'", async () => {
    if (!server) throw new Error("no server");
    const c = clinicClient(server.url);
    const admin = await c.clinician();
    const { token, page } = await c.addPatient(admin, "Kim Crash");
    const patientId = c.patientIdIn(page, "Kim Crash");
    await c.acceptAsPatient(token, "SandboxUser1");
    const syncNow = () =>
      c.post(`/api/clinic/patients/${patientId}/sync`, {}, { cookie: admin.cookie }).catch(() => null);

    // Every service call now takes 20 s: the sync leases the patient and waits in its first call.
    await developer(server.url, dashboardApp(dataDir)).faults({ latencyMs: 20_000 });
    const interrupted = syncNow();
    await new Promise((r) => setTimeout(r, 3_000));
    await server.kill();
    expect(await interrupted).toBeNull();

    server = await startAppServer(env);
    await developer(server.url, dashboardApp(dataDir)).faults({});
    const res = await syncNow();
    expect(res?.status).toBe(303);
    const location = res?.headers.get("location") ?? "";
    expect(location).toContain(`&synced=synced&patient=${patientId}`);
    const clinicPage = await c.text(await c.get(location, admin.cookie));
    expect(clinicPage).toMatch(/Synced: the clinic's copy of the data is up to date/);
    expect(clinicPage).not.toMatch(/running right now/);
  }, 120_000);
});
