import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server";
import { clinicClient } from "../support/clinic-client";
import { type DashboardSession, dashboardApp, developer, signIn } from "../support/dashboard-client";
import { DAY_NIGHT_STATISTICS, dt } from "../support/sandbox-client";
import { apiVersion, dataPath } from "../support/service-reference";

/**
 * The work one request may make the server do (issue 13, finding 1): every window the dashboard's
 * API takes is bounded (90 days, in dates a record can have), every signed-in user has a budget of
 * service calls per minute, and a request whose client goes away stops calling the service. On a
 * server of its own that splits reads into 3-day chunks (so a 90-day read is 30 calls, enough to
 * watch them stop) with a budget of 40 calls per minute, and that writes down every call it starts
 * to the service (test/support/call-tap.mjs), so the tests count calls instead of guessing.
 */

const DAY = 86_400_000;
const BUDGET = 40;
const CHUNK_DAYS = 3;

let server: AppServer;
let base: string;
const dataDir = mkdtempSync(path.join(tmpdir(), "glucose-bounds-"));
const tapFile = path.join(dataDir, "service-calls.txt");
let dev: ReturnType<typeof developer>;

/**
 * The windowed paths of the proxy in the suites' mode: with API v3 only v3's are served (its
 * devices take no window).
 */
const WINDOWED_PATHS =
  apiVersion() === "v3"
    ? ["v3/users/self/egvs", "v3/users/self/events", "v3/users/self/calibrations", "v3/users/self/alerts"]
    : [
        "v2/users/self/egvs",
        "v1/users/self/egvs",
        "v3/users/self/egvs",
        "v1/users/self/events",
        "v2/users/self/events",
        "v1/users/self/calibrations",
        "v2/users/self/calibrations",
        "v1/users/self/devices",
        "v2/users/self/devices",
      ];

/**
 * The chunks of a window of exactly `days` days: v3 asks one second past the window's end (its
 * end is excluded), so such a window takes one more chunk, of that second.
 */
const chunks = (days: number) => days / CHUNK_DAYS + (apiVersion() === "v3" ? 1 : 0);
/** The days whose window takes as many calls as `days` days do with v2. */
const sameCalls = (days: number) => (apiVersion() === "v3" ? days - 1 : days);

/** Calls the server has started to the service's data paths so far. */
function calls(): number {
  return existsSync(tapFile) ? readFileSync(tapFile, "utf8").split("\n").filter(Boolean).length : 0;
}

const until = async (done: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const windowOf = (startMs: number, endMs: number) => `startDate=${dt(startMs)}&endDate=${dt(endMs)}`;
/** The `days` days ending a minute ago (whole seconds, as the service writes them). */
const lastDays = (days: number) => {
  const end = Math.floor(Date.now() / 1000) * 1000 - 60_000;
  return windowOf(end - days * DAY, end);
};

function get(session: DashboardSession, pathAndQuery: string, signal?: AbortSignal) {
  return fetch(`${base}/api/cgm/${pathAndQuery}`, { headers: { Cookie: session.cookie }, signal });
}

beforeAll(async () => {
  const preload = pathToFileURL(path.resolve("test/support/call-tap.mjs")).href;
  server = await startAppServer({
    CGM_MAX_WINDOW_DAYS: String(CHUNK_DAYS),
    CGM_USER_CALLS_PER_MINUTE: String(BUDGET),
    SANDBOX_FAULTS: "on",
    DATA_DIR: dataDir,
    CALL_TAP_FILE: tapFile,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${preload}`.trim(),
  });
  base = server.url;
  dev = developer(base, dashboardApp(dataDir));
}, 90_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

afterEach(async () => {
  await dev?.faults({});
});

describe("windows", () => {
  let session: DashboardSession;
  beforeAll(async () => {
    session = await signIn(base, "SandboxUser1");
  });

  it.each([
    ["100 years", "2000-01-01T00:00:00", "2099-12-31T00:00:00", "A window may be at most 90 days"],
    ["years 0001–9999", "0001-01-01T00:00:00", "9999-12-31T23:59:59", "Dates must lie between"],
    ["two days in year 0001", "0001-01-01T00:00:00", "0001-01-03T00:00:00", "Dates must lie between"],
  ])("%s: 400 at once, naming the limit, without a single service call", async (_, start, end, message) => {
    for (const pathname of WINDOWED_PATHS) {
      const before = calls();
      const started = Date.now();
      const res = await get(session, `${pathname}?startDate=${start}&endDate=${end}`);
      expect(res.status, pathname).toBe(400);
      const body = await res.json();
      expect(body).toMatchObject({ error: "invalid_request" });
      expect(body.message).toContain(message);
      expect(Date.now() - started, pathname).toBeLessThan(2_000);
      expect(calls(), pathname).toBe(before);
    }
    // v3 has no statistics (and with v3 the v2 paths are not served).
    if (apiVersion() === "v3") return;
    const before = calls();
    const stats = await fetch(`${base}/api/cgm/v2/users/self/statistics?startDate=${start}&endDate=${end}`, {
      method: "POST",
      headers: { Cookie: session.cookie, Origin: base, "Content-Type": "application/json" },
      body: JSON.stringify(DAY_NIGHT_STATISTICS),
    });
    expect(stats.status).toBe(400);
    expect((await stats.json()).message).toContain(message);
    expect(calls()).toBe(before);
  });

  it("a 100-year window's message says what to do instead", async () => {
    const res = await get(
      session,
      `${dataPath("egvs")}?startDate=2000-01-01T00:00:00&endDate=2099-12-31T00:00:00`,
    );
    expect((await res.json()).message).toBe(
      "A window may be at most 90 days (this one spans 36,524 days); ask for a longer period in several requests of at most 90 days each.",
    );
  });

  it("91 days: 400; exactly 90 days: the whole window, read in chunks", async () => {
    const end = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    const before = calls();
    const tooLong = await get(session, `${dataPath("egvs")}?${windowOf(end - 91 * DAY, end)}`);
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).message).toContain("at most 90 days (this one spans 91 days)");
    expect(calls()).toBe(before);

    const ok = await get(session, `${dataPath("egvs")}?${windowOf(end - 90 * DAY, end)}`);
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect((apiVersion() === "v3" ? body.records : body.egvs).length).toBeGreaterThan(20_000);
    expect(calls() - before).toBe(chunks(90));
  });

  it("the reports refuse dates no record can have, too", async () => {
    const res = await fetch(
      `${base}/api/reports/summary?startDate=0001-01-01T00:00:00&endDate=0001-01-02T00:00:00`,
      { headers: { Cookie: session.cookie } },
    );
    expect(res.status).toBe(400);
    expect((await res.json()).message).toContain("Dates must lie between");
  });
});

describe("the budget of service calls per user and minute", () => {
  it(`past ${BUDGET} calls: 429 with Retry-After and a message, and other users are unaffected`, async () => {
    const [ann, bob] = await Promise.all([signIn(base, "SandboxUser2"), signIn(base, "SandboxUser3")]);
    // 30 + 10 calls: exactly the budget.
    expect((await get(ann, `${dataPath("egvs")}?${lastDays(sameCalls(90))}`)).status).toBe(200);
    expect((await get(ann, `${dataPath("events")}?${lastDays(sameCalls(30))}`)).status).toBe(200);

    const before = calls();
    const refused = await get(ann, `${dataPath("egvs")}?${lastDays(1)}`);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get("cache-control")).toBe("private, no-store");
    const body = await refused.json();
    expect(body.error).toBe("too_many_requests");
    expect(body.message).toContain(`more than ${BUDGET} reads in a minute`);
    expect(calls()).toBe(before);

    // Pages spend the same budget: the dashboard says so instead of reading.
    const page = await fetch(`${base}/dashboard`, { headers: { Cookie: ann.cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-testid="busy-notice"');
    expect(calls()).toBe(before);

    // The budget is Ann's, not the server's: Bob reads as before.
    const other = await get(bob, `${dataPath("egvs")}?${lastDays(90)}`);
    expect(other.status).toBe(200);
    expect(calls() - before).toBe(chunks(90));
  });
});

describe("a clinician's budget", () => {
  it("is the clinician's own: spent on a patient's data, it leaves the patient's untouched", async () => {
    const clinic = clinicClient(base);
    const dr = await clinic.clinician();
    const { token, page } = await clinic.addPatient(dr, "Pat Budget");
    const patient = { cookie: await clinic.acceptAsPatient(token, "SandboxUser5") };
    const summary = `/api/clinic/patients/${clinic.patientIdIn(page, "Pat Budget")}/summary?${lastDays(90)}`;
    // 30 calls each: the second summary runs out of the clinician's 40.
    expect((await clinic.get(summary, dr.cookie)).status).toBe(200);
    const refused = await clinic.get(summary, dr.cookie);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await refused.json()).error).toBe("too_many_requests");
    expect((await get(patient, `${dataPath("egvs")}?${lastDays(90)}`)).status).toBe(200);
  });
});

describe("a report viewed again", () => {
  it("asks the service only for the days not yet finished: its data range and the newest chunk", async () => {
    // A clinician of their own: the budget spent is theirs, not a patient's other tests spend.
    const clinic = clinicClient(base);
    const dr = await clinic.clinician();
    const { token, page } = await clinic.addPatient(dr, "Pat Again");
    await clinic.acceptAsPatient(token, "SandboxUser1");
    const agp = `/clinic/patients/${clinic.patientIdIn(page, "Pat Again")}/agp?days=14`;
    const view = async () => {
      const before = calls();
      const res = await clinic.get(agp, dr.cookie);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('data-testid="agp-chart"');
      return calls() - before;
    };
    // The first view reads both periods (this one and the one before, for the GRI grid) whole.
    expect(await view()).toBeGreaterThanOrEqual(2 * Math.ceil(14 / CHUNK_DAYS));
    // Again: the finished days of both periods are held, and only the newest are read; plus the
    // devices of the period, which name the sensor in the report's identity lines (not synced).
    expect(await view()).toBeLessThanOrEqual(3);
  });
});

describe("the AGP PDF with the call budget spent", () => {
  const serverLog = () => readFileSync(path.join(dataDir, "server.log"), "utf8");

  async function expectBudget429(res: Response) {
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = await res.json();
    expect(body.error).toBe("too_many_requests");
    expect(body.message).toContain(`more than ${BUDGET} reads in a minute; try again in`);
  }

  it("a patient with no call left: 429 with Retry-After before a page is printed, not an operator error", async () => {
    const session = await signIn(base, "SandboxUser1");
    // One-call reads until the budget refuses (earlier tests of this file may have spent some).
    let spent = false;
    for (let i = 0; i <= BUDGET && !spent; i++) {
      spent = (await get(session, `${dataPath("egvs")}?${lastDays(1)}`)).status === 429;
    }
    expect(spent).toBe(true);
    const before = calls();
    const pdf = await fetch(`${base}/api/reports/agp-pdf?days=14`, { headers: { Cookie: session.cookie } });
    await expectBudget429(pdf);
    expect(calls()).toBe(before);
    expect(serverLog()).not.toContain("could not be rendered");
  });

  it("a clinician whose budget runs out while the page reads: 429 with Retry-After, not 503", async () => {
    const clinic = clinicClient(base);
    const dr = await clinic.clinician();
    const { token, page } = await clinic.addPatient(dr, "Pat Print");
    await clinic.acceptAsPatient(token, "SandboxUser3");
    const patientId = clinic.patientIdIn(page, "Pat Print");
    // 30 + 8 calls: 2 left, fewer than the 14-day report page reads (its data range and 5 chunks).
    for (const days of [90, 24]) {
      const read = await clinic.get(`/api/clinic/patients/${patientId}/summary?${lastDays(days)}`, dr.cookie);
      expect(read.status).toBe(200);
    }
    const pdf = await clinic.get(`/api/clinic/patients/${patientId}/agp-pdf?days=14`, dr.cookie);
    await expectBudget429(pdf);
    // Spent now: the next one is refused before a browser prints anything.
    await expectBudget429(await clinic.get(`/api/clinic/patients/${patientId}/agp-pdf?days=14`, dr.cookie));
    expect(serverLog()).not.toContain("could not be rendered");
  });
});

describe("a client that disconnects", () => {
  it("stops the server's calls to the service: no chunk or retry starts after", async () => {
    const carol = await signIn(base, "SandboxUser4");
    // Each call takes 600 ms, so the 30 chunks of 90 days would take 6 s, three at a time.
    await dev.faults({ latencyMs: 600 });
    const before = calls();
    const client = new AbortController();
    const pending = get(carol, `${dataPath("egvs")}?${lastDays(90)}`, client.signal).catch((e) => e);
    await until(() => calls() - before >= 3);
    client.abort();
    expect(await pending).toMatchObject({ name: "AbortError" });
    // The calls under way when the client left were counted as they started.
    await sleep(300);
    const atAbort = calls() - before;
    expect(atAbort).toBeLessThanOrEqual(6);
    // Without the request's signal the server would go on for the other 24 chunks.
    await sleep(3_000);
    expect(calls() - before).toBe(atAbort);
    // Abandoned on purpose, not a failure: nothing in the log says something went wrong.
    expect(readFileSync(path.join(dataDir, "server.log"), "utf8")).not.toContain("unexpected error");
  });
});

describe("Sync now, a clinician's request like any other", () => {
  async function sharingPatient(sandboxUser: string, name: string) {
    const clinic = clinicClient(base);
    const dr = await clinic.clinician();
    const { token, page } = await clinic.addPatient(dr, name);
    await clinic.acceptAsPatient(token, sandboxUser);
    const syncNow = (signal?: AbortSignal) =>
      fetch(`${base}/api/clinic/patients/${clinic.patientIdIn(page, name)}/sync`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: base, Cookie: dr.cookie },
        body: new URLSearchParams(),
        signal,
      });
    return { syncNow };
  }

  it(`is charged to the clinician's budget: a backfill that needs more than ${BUDGET} calls stops at it with 429 and Retry-After`, async () => {
    const { syncNow } = await sharingPatient("SandboxUser1", "Sam Syncnow");
    // A first sync reads 90 days of each data group in 3-day chunks: far more than the budget.
    const before = calls();
    const res = await syncNow();
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await res.json()).error).toBe("too_many_requests");
    expect(calls() - before).toBeLessThanOrEqual(BUDGET);
    // Spent: the next one makes no call at all.
    const atRefusal = calls();
    expect((await syncNow()).status).toBe(429);
    expect(calls()).toBe(atRefusal);
  });

  it("stops when the clinician's browser goes: no call starts after", async () => {
    const { syncNow } = await sharingPatient("SandboxUser3", "Dee Disconnect");
    await dev.faults({ latencyMs: 600 });
    const before = calls();
    const client = new AbortController();
    const pending = syncNow(client.signal).catch((e) => e);
    await until(() => calls() - before >= 3);
    client.abort();
    expect(await pending).toMatchObject({ name: "AbortError" });
    await sleep(300);
    const atAbort = calls() - before;
    // Without the request's signal the sync would go on through its backfill's chunks.
    await sleep(3_000);
    expect(calls() - before).toBe(atAbort);
    expect(readFileSync(path.join(dataDir, "server.log"), "utf8")).not.toContain("unexpected error");
  });
});
