import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server";
import { signIn } from "../support/dashboard-client";
import { apiVersion } from "../support/service-reference";

/**
 * The service calls of an overview viewed again (issue 17, item 3), counted rather than guessed:
 * on a server of its own that writes down every call it starts to the service
 * (test/support/call-tap.mjs), with the service's own 30-day windows. Not in
 * request-bounds.test.ts: its 3-day chunks and 40 calls a minute make a first 90-day view
 * (about a hundred calls) impossible to finish, and here the first view must fill the days kept.
 */

let server: AppServer;
let base: string;
const dataDir = mkdtempSync(path.join(tmpdir(), "glucose-overview-calls-"));
const tapFile = path.join(dataDir, "service-calls.txt");

/** The calls started to the service's data paths so far, each as its path and query. */
function tapped(): string[] {
  return existsSync(tapFile) ? readFileSync(tapFile, "utf8").split("\n").filter(Boolean) : [];
}

beforeAll(async () => {
  const preload = pathToFileURL(path.resolve("test/support/call-tap.mjs")).href;
  server = await startAppServer({
    DATA_DIR: dataDir,
    CALL_TAP_FILE: tapFile,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${preload}`.trim(),
  });
  base = server.url;
}, 90_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a 90-day overview viewed again", () => {
  it("reads every group's finished days from those it kept: one call a group for the newest days, and the data range", async () => {
    const session = await signIn(base, "SandboxUser2");
    const view = async (range: string) => {
      const before = tapped().length;
      const res = await fetch(`${base}/api/dashboard/overview?range=${range}`, {
        headers: { Cookie: session.cookie },
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { overview: { events: unknown[] } | null };
      expect(body.overview?.events.length).toBeGreaterThan(0);
      return tapped().slice(before);
    };
    // The first view reads every day of every group (v3: three 30-day chunks and a second's more).
    expect((await view("90d")).length).toBeGreaterThanOrEqual(10);
    await view("14d");
    const again = await view("90d");
    // The data range, then per group the unfinished tail in one call: EGVs, events, calibrations,
    // and alerts (v3) or the service's statistics (v2).
    const paths = again.map((line) => line.split(" ")[1]?.split("?")[0]);
    expect(paths.filter((p) => p?.endsWith("/dataRange"))).toHaveLength(1);
    for (const group of ["egvs", "events", "calibrations", ...(apiVersion() === "v3" ? ["alerts"] : [])])
      expect(
        paths.filter((p) => p?.endsWith(`/${group}`)),
        group,
      ).toHaveLength(1);
    expect(again.length).toBeLessThanOrEqual(apiVersion() === "v3" ? 5 : 6);
  });
});

/** The calls a page or download started, from the tap: each as its path without the query. */
async function callsOf(url: string, cookie: string): Promise<string[]> {
  const before = tapped().length;
  const res = await fetch(url, { headers: { Cookie: cookie } });
  expect(res.status, url).toBe(200);
  await res.arrayBuffer();
  return tapped()
    .slice(before)
    .map((line) => line.split(" ")[1]?.split("?")[0] ?? "");
}

describe("other pages and downloads viewed again", () => {
  // Each reads its data range once, then only what is not yet finished: a call per group at
  // most, where reading 90 days whole takes at least three (v3's 30-day windows; v2's chunks).
  it.each([
    ["the events page, 90 days", "SandboxUser2", "/dashboard/events?days=90", ["events"]],
    ["the calibrations page, 90 days", "SandboxUser3", "/dashboard/calibrations?days=90", ["calibrations"]],
    [
      "the export, 90 days",
      "SandboxUser2",
      "/api/reports/export?days=90",
      ["egvs", "events", "calibrations"],
    ],
  ])("%s reads its finished days from those kept", async (_name, user, path, groups) => {
    const session = await signIn(base, user);
    await callsOf(`${base}${path}`, session.cookie);
    const again = await callsOf(`${base}${path}`, session.cookie);
    for (const group of groups)
      expect(again.filter((p) => p.endsWith(`/${group}`)).length, group).toBeLessThanOrEqual(1);
    expect(again.filter((p) => p.endsWith("/dataRange"))).toHaveLength(1);
  });
});

describe("the identity lines' devices", () => {
  // Issue 18, item 2 added a devices read to every printable view for its "sensor and device"
  // line. Views ending together (the AGP, compare and statistics of the last 14 days, the AGP
  // again) share one read: counted with the tap, before this there was one a view.
  it("are read once for the printable views of one period, not once a view", async () => {
    const session = await signIn(base, "SandboxUser4");
    const devicesCalls = (calls: string[]) => calls.filter((p) => p.endsWith("/devices")).length;
    expect(devicesCalls(await callsOf(`${base}/reports`, session.cookie))).toBe(1);
    for (const view of ["/reports", "/reports/compare", "/reports/statistics"])
      expect(devicesCalls(await callsOf(`${base}${view}`, session.cookie)), view).toBe(0);
  });
});
