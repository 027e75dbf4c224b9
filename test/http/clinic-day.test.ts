import { rmSync } from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type AppServer, startAppServer, UNLIMITED_CALL_BUDGET } from "../support/app-server";
import { clinicClient } from "../support/clinic-client";
import { parseCsv } from "../support/csv";

/**
 * A clinic day over HTTP, on a server of its own (it is stopped and started again in the middle of
 * a job): three sandbox patients invited and accepted through the real flows, synced by "Sync now",
 * their AGP PDFs made in the background one at a time (CLINIC_DAY_CONCURRENCY=1, so the order of
 * the work is known), progress read from the page and the JSON, the zip checked entry by entry,
 * its CSV against the population view, a patient who withdraws mid-job, Retry, a restart, the
 * access rules and the audit log.
 */

const apiVersion = inject("apiVersion");
const ENV = { ...UNLIMITED_CALL_BUDGET, CGM_API_VERSION: apiVersion, CLINIC_DAY_CONCURRENCY: "1" };

let server: AppServer;
let c: ReturnType<typeof clinicClient>;
let admin: { cookie: string; clinicId: string };
const patients: Array<{ id: string; name: string; username: string; cookie: string }> = [];

beforeAll(async () => {
  server = await startAppServer(ENV);
  c = clinicClient(server.url);
  admin = await c.clinician();
  // By name, the order the runner works them in: the last is the one who withdraws.
  for (const [name, username, birth] of [
    ["Ada Able", "SandboxUser1", "1970-01-02"],
    ["Bea Baker", "SandboxUser2", ""],
    ["Cy Charlie", "SandboxUser3", "1990-03-04"],
  ] as const) {
    const { token, page } = await c.addPatient(admin, name, birth);
    const cookie = await c.acceptAsPatient(token, username);
    const id = c.patientIdIn(page, name);
    patients.push({ id, name, username, cookie });
    const synced = await c.post(`/api/clinic/patients/${id}/sync`, {}, { cookie: admin.cookie });
    expect(synced.status).toBe(303);
  }
}, 180_000);

afterAll(async () => {
  await server?.stop();
  if (server) rmSync(server.dataDir, { recursive: true, force: true });
});

interface JobStatus {
  id: string;
  total: number;
  done: number;
  failed: number;
  finished: boolean;
  items: Array<{ id: string; patientName: string; state: string; error: string | null; attempts: number }>;
}

async function status(jobId: string, cookie = admin.cookie): Promise<JobStatus> {
  const res = await c.get(`/api/clinic/clinic-days/${jobId}`, cookie, server.url);
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("private, no-store");
  return (await res.json()) as JobStatus;
}

async function until(jobId: string, done: (s: JobStatus) => boolean, ms = 120_000): Promise<JobStatus> {
  const deadline = Date.now() + ms;
  for (;;) {
    const s = await status(jobId);
    if (done(s)) return s;
    if (Date.now() > deadline) throw new Error(`clinic day ${jobId} stuck: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function start(fields: Record<string, string> = {}): Promise<string> {
  const res = await c.post(
    "/api/clinic/clinic-days",
    { clinicId: admin.clinicId, patients: "all", days: "14", ...fields },
    { cookie: admin.cookie, server: server.url },
  );
  expect(res.status).toBe(303);
  const location = res.headers.get("location") ?? "";
  const jobId = /[?&]job=([0-9a-f-]{36})/.exec(location)?.[1];
  if (!jobId) throw new Error(`no job in ${location}`);
  return jobId;
}

async function zipOf(jobId: string) {
  const res = await c.get(`/api/clinic/clinic-days/${jobId}/zip`, admin.cookie, server.url);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/zip");
  expect(res.headers.get("cache-control")).toBe("private, no-store");
  expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="clinic-day_[\w.-]+\.zip"$/);
  const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
  const pdfs = Object.keys(files).filter((n) => n.endsWith(".pdf"));
  for (const name of pdfs) expect(strFromU8((files[name] as Uint8Array).subarray(0, 5))).toBe("%PDF-");
  const [header = [], ...rows] = parseCsv(strFromU8(files["clinic-day.csv"] as Uint8Array));
  const csv = rows.map(
    (r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ""])) as Record<string, string>,
  );
  return { pdfs, csv };
}

const page = () =>
  c.get(`/clinic/clinic-day?clinic=${admin.clinicId}`, admin.cookie, server.url).then(c.text);

/** The population page's shown value of a column for a patient (its first number). */
function shown(population: string, patientId: string, col: string): number | null {
  const row = new RegExp(`<tr[^>]*data-patient="${patientId}".*?</tr>`, "s").exec(population)?.[0] ?? "";
  const cell = new RegExp(`data-col="${col}"[^>]*>(.*?)</td>`, "s").exec(row)?.[1] ?? "";
  const n = /(\d+(?:\.\d+)?)/.exec(cell.replace(/<[^>]+>/g, " "))?.[1];
  return n === undefined ? null : Number(n);
}

describe("a clinic day", () => {
  let firstJob = "";

  it("prepares three patients' AGP PDFs in the background, with progress, and zips them with the population rows", async () => {
    firstJob = await start();
    const early = await page();
    expect(early).toMatch(/\d of 3 ready(, \d failed)?: preparing…/);
    // Without JavaScript, a link reads the progress again.
    expect(early).toMatch(
      /<a href="\/clinic\/clinic-day\?clinic=[^"]+#jobs"[^>]*data-testid="clinic-day-refresh"/,
    );
    const finished = await until(firstJob, (s) => s.finished);
    expect(finished).toMatchObject({ total: 3, done: 3, failed: 0 });
    const after = await page();
    expect(after).toContain("3 of 3 ready.");
    expect(after).toContain(`href="/api/clinic/clinic-days/${firstJob}/zip"`);

    const { pdfs, csv } = await zipOf(firstJob);
    expect(pdfs).toHaveLength(3);
    expect(
      pdfs.some((n) => /^agp_Ada_Able_1970-01-02_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.pdf$/.test(n)),
    ).toBe(true);
    expect(pdfs.some((n) => /^agp_Bea_Baker_id-[0-9a-f]{8}_/.test(n))).toBe(true);
    expect(csv).toHaveLength(3);
    const population = await c
      .get(`/clinic/population?clinic=${admin.clinicId}`, admin.cookie, server.url)
      .then(c.text);
    for (const p of patients) {
      const row = csv.find((r) => r.patientId === p.id);
      expect(row?.patient).toBe(p.name);
      expect(pdfs).toContain(row?.agpPdf);
      expect(row?.missing).toBe("");
      expect(Number(row?.readings)).toBeGreaterThan(0);
      // The page shows one decimal (more only beside a threshold), the CSV two: equal to the
      // page's precision (0.05 of its rounding, 0.005 of the CSV's).
      for (const [col, field] of [
        ["inRange", "inRangePercent"],
        ["veryLow", "below54Percent"],
        ["low", "below70Percent"],
        ["high", "above180Percent"],
        ["gmi", "gmiPercent"],
        ["cv", "cvPercent"],
        ["sensor", "sensorActivePercent"],
      ] as const) {
        const onPage = shown(population, p.id, col);
        expect(onPage, `${p.name} ${col}`).not.toBeNull();
        expect(
          Math.abs(Number(row?.[field]) - (onPage ?? Number.NaN)),
          `${p.name} ${col}`,
        ).toBeLessThanOrEqual(0.0551);
      }
    }
  });

  it("logs the clinic day and each PDF handed out with the job, and no report view for the renders", async () => {
    const log = await c.get(`/clinic/audit?clinic=${admin.clinicId}`, admin.cookie, server.url).then(c.text);
    const rows = [...log.matchAll(/<tr[^>]*data-action="([^"]+)"[^>]*>(.*?)<\/tr>/gs)].map((m) => ({
      action: m[1] ?? "",
      row: m[2] ?? "",
    }));
    expect(rows.filter((r) => r.action === "clinic_day.created" && r.row.includes(firstJob))).toHaveLength(1);
    expect(rows.filter((r) => r.action === "clinic_day.downloaded" && r.row.includes(firstJob))).toHaveLength(
      1,
    );
    const pdfRows = rows.filter(
      (r) => r.action === "download.agp_pdf" && r.row.includes(`clinic day ${firstJob}`),
    );
    expect(pdfRows).toHaveLength(3);
    for (const p of patients) expect(pdfRows.some((r) => r.row.includes(p.name))).toBe(true);
    expect(rows.filter((r) => r.action === "view.agp")).toHaveLength(0);
  });

  it("names a patient who withdrew mid-job, completes the rest, and completes them too on Retry once they share again", async () => {
    const jobId = await start();
    const cy = patients[2] as (typeof patients)[number];
    // Withdrawn while Ada's PDF is being made: Cy is third in the queue.
    const sharing = await c.get("/sharing", cy.cookie, server.url).then(c.text);
    const shareId = /action="\/api\/sharing\/([0-9a-f-]{36})\/withdraw"/.exec(sharing)?.[1] ?? "";
    expect(
      (await c.post(`/api/sharing/${shareId}/withdraw`, {}, { cookie: cy.cookie, server: server.url }))
        .status,
    ).toBe(303);
    const finished = await until(jobId, (s) => s.finished);
    expect(finished).toMatchObject({ total: 3, done: 2, failed: 1 });
    const failedItem = finished.items.find((i) => i.state === "failed");
    expect(failedItem?.patientName).toBe("Cy Charlie");
    expect(failedItem?.error).toMatch(
      /Cy Charlie does not share their data with the clinic now \(access withdrawn\)/,
    );
    const shown = await page();
    expect(shown).toContain("2 of 3 ready, 1 failed.");
    expect(shown).toMatch(/Cy Charlie<\/strong>: Cy Charlie does not share/);
    expect(shown).toContain('aria-label="Retry Cy Charlie"');
    // Downloadable with the failure: the CSV names who is missing and why.
    const partial = await zipOf(jobId);
    expect(partial.pdfs).toHaveLength(2);
    expect(partial.csv).toHaveLength(3);
    expect(partial.csv.find((r) => r.patient === "Cy Charlie")).toMatchObject({
      agpPdf: "",
      status: "Access withdrawn",
    });
    expect(partial.csv.find((r) => r.patient === "Cy Charlie")?.missing).toMatch(/does not share/);

    const retry = () =>
      c.post(
        `/api/clinic/clinic-days/${jobId}/retry`,
        { itemId: failedItem?.id ?? "" },
        { cookie: admin.cookie, server: server.url },
      );
    // The patient shares again (a new link from the clinic), then Retry.
    const renewed = await c.post(
      `/api/clinic/patients/${cy.id}/invitation`,
      {},
      { cookie: admin.cookie, server: server.url },
    );
    expect(renewed.status).toBe(303);
    const clinicPage = await c
      .get(`/clinic?clinic=${admin.clinicId}`, `${admin.cookie}; ${c.noticeOf(renewed)}`, server.url)
      .then(c.text);
    const link = /data-testid="patient-invitation-link"[^>]*value="([^"]+)"/.exec(clinicPage)?.[1] ?? "";
    cy.cookie = await c.acceptAsPatient(new URL(link).searchParams.get("token") ?? "", cy.username);
    const again = await retry();
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toContain(`job=${jobId}`);
    const retried = await until(jobId, (s) => s.finished);
    expect(retried).toMatchObject({ total: 3, done: 3, failed: 0 });
    // Retry counts the attempts afresh (their cap is per Retry: lib/clinic/clinic-day/policy.ts).
    expect(retried.items.find((i) => i.patientName === "Cy Charlie")?.attempts).toBe(1);
    expect((await zipOf(jobId)).pdfs).toHaveLength(3);
  });

  it("answers 404 to another clinic and to a patient for a job's status, download and retry; 401 signed out", async () => {
    const jobId = firstJob;
    const other = await c.clinician({ server: server.url });
    const patient = patients[0]?.cookie ?? "";
    for (const cookie of [other.cookie, patient]) {
      expect((await c.get(`/api/clinic/clinic-days/${jobId}`, cookie, server.url)).status).toBe(404);
      const zip = await c.get(`/api/clinic/clinic-days/${jobId}/zip`, cookie, server.url);
      expect(zip.status).toBe(404);
      expect(zip.headers.get("content-type")).toContain("application/json");
      expect(
        (
          await c.post(
            `/api/clinic/clinic-days/${jobId}/retry`,
            { itemId: "x" },
            { cookie, server: server.url },
          )
        ).status,
      ).toBe(404);
    }
    // Another clinic's id in the form, or for the page: 404; its own page lists nothing of ours.
    const foreign = await c.post(
      "/api/clinic/clinic-days",
      { clinicId: admin.clinicId, patients: "all", days: "14" },
      { cookie: other.cookie, server: server.url },
    );
    expect(foreign.status).toBe(404);
    expect(
      (await c.get(`/clinic/clinic-day?clinic=${admin.clinicId}`, other.cookie, server.url)).status,
    ).toBe(404);
    const theirs = await c
      .get(`/clinic/clinic-day?clinic=${other.clinicId}`, other.cookie, server.url)
      .then(c.text);
    expect(theirs).toContain("No clinic day prepared yet.");
    // A patient's session: the page is a 403.
    expect((await c.get(`/clinic/clinic-day?clinic=${admin.clinicId}`, patient, server.url)).status).toBe(
      403,
    );
    // Signed out: 401, and a browser gets a page rather than JSON.
    expect((await c.get(`/api/clinic/clinic-days/${jobId}`, undefined, server.url)).status).toBe(401);
    const browser = await fetch(`${server.url}/api/clinic/clinic-days/${jobId}/zip`, {
      headers: { Accept: "text/html" },
    });
    expect(browser.status).toBe(401);
    expect(browser.headers.get("content-type")).toContain("text/html");
    // A bad period is refused in words on the page.
    const bad = await c.post(
      "/api/clinic/clinic-days",
      { clinicId: admin.clinicId, patients: "all", days: "15" },
      { cookie: admin.cookie, server: server.url },
    );
    expect(bad.headers.get("location")).toContain("error=form");
    const refused = await c.get(bad.headers.get("location") ?? "", admin.cookie, server.url).then(c.text);
    expect(refused).toContain("Choose the patients and one of the periods.");
  });

  it("resumes after the server is killed mid-job: every PDF exactly once", async () => {
    const jobId = await start({ days: "7" });
    await until(jobId, (s) => s.done >= 1);
    const before = await status(jobId);
    expect(before.finished).toBe(false);
    await server.kill();
    server = await startAppServer({ ...ENV, DATA_DIR: server.dataDir, PORT: String(server.port) });
    const finished = await until(jobId, (s) => s.finished);
    expect(finished).toMatchObject({ total: 3, done: 3, failed: 0 });
    // Work done before the kill is not done again; a render the kill cut short is taken over once.
    for (const item of before.items) {
      const after = finished.items.find((i) => i.id === item.id)?.attempts;
      if (item.state === "done") expect(after).toBe(item.attempts);
      if (item.state === "running") expect(after).toBe(item.attempts + 1);
    }
    const { pdfs, csv } = await zipOf(jobId);
    expect(pdfs).toHaveLength(3);
    expect(new Set(pdfs).size).toBe(3);
    for (const p of patients)
      expect(pdfs.filter((n) => n.startsWith(`agp_${p.name.replace(" ", "_")}_`))).toHaveLength(1);
    expect(csv.map((r) => r.agpPdf).sort()).toEqual([...pdfs].sort());
  }, 240_000);
});
