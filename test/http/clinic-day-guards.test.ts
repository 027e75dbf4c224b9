import { rmSync } from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { RENDER_GRANT_TTL_MS, signRenderGrant } from "@/lib/clinic/security/render-grant";
import { type AppServer, startAppServer, UNLIMITED_CALL_BUDGET } from "../support/app-server";
import { clinicClient } from "../support/clinic-client";
import { parseCsv } from "../support/csv";

/**
 * What a clinic day must not do, on a server of its own: its render's credential opens nothing but
 * one patient's clinic AGP page, and only for a minute; a packet hands out no PDF of a patient who
 * stopped sharing since it was made; a finished packet expires after CLINIC_DAY_RETENTION_HOURS
 * (here 0.01 h, 36 s) and then says so, to a browser as a page and to an API client as JSON.
 */

const apiVersion = inject("apiVersion");
// Known to the test, so it can sign a render grant exactly as the runner does.
const AUTH_SECRET = "clinic-day-guards-test-secret-0123456789abcdef";
const RETENTION_S = 36;
const ENV = {
  ...UNLIMITED_CALL_BUDGET,
  CGM_API_VERSION: apiVersion,
  AUTH_SECRET,
  CLINIC_DAY_RETENTION_HOURS: String(RETENTION_S / 3600),
};
const GRANT_COOKIE = "glucose.clinic-day-render";

let server: AppServer;
let c: ReturnType<typeof clinicClient>;
let admin: { cookie: string; clinicId: string };
let clinicianId = "";
const patients: Array<{ id: string; name: string; cookie: string }> = [];

beforeAll(async () => {
  server = await startAppServer(ENV);
  c = clinicClient(server.url);
  admin = await c.clinician();
  for (const [name, username, birth] of [
    ["Ada Able", "SandboxUser1", "1970-01-02"],
    ["Bea Baker", "SandboxUser2", "1980-05-06"],
  ] as const) {
    const { token, page } = await c.addPatient(admin, name, birth);
    const cookie = await c.acceptAsPatient(token, username);
    const id = c.patientIdIn(page, name);
    patients.push({ id, name, cookie });
    const synced = await c.post(`/api/clinic/patients/${id}/sync`, {}, { cookie: admin.cookie });
    expect(synced.status).toBe(303);
  }
  const session = (await (await c.get("/api/auth/session", admin.cookie)).json()) as {
    user?: { id?: string };
  };
  clinicianId = session.user?.id ?? "";
  expect(clinicianId).not.toBe("");
}, 180_000);

afterAll(async () => {
  await server?.stop();
  if (server) rmSync(server.dataDir, { recursive: true, force: true });
});

const ada = () => patients[0] as (typeof patients)[number];
const bea = () => patients[1] as (typeof patients)[number];

/** The cookie the runner hands the headless browser, for `patientId`, made at `nowMs`. */
const grant = (patientId: string, nowMs = Date.now(), secret = AUTH_SECRET) =>
  `${GRANT_COOKIE}=${signRenderGrant(secret, { clinicianId, clinicPatientId: patientId }, nowMs)}`;

const signedOut = (res: Response) =>
  [302, 303, 307, 401].includes(res.status) &&
  (res.status === 401 ||
    (res.headers.get("location") ?? "").includes("sign-in") ||
    res.headers.get("location") === "/");

describe("a clinic day's render grant", () => {
  it("opens the clinic AGP page of its one patient, with the report", async () => {
    const res = await c.get(`/clinic/patients/${ada().id}/agp?days=14`, grant(ada().id));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('data-testid="agp-report"');
  });

  it("opens no other page or route: the clinic, the dashboard, another patient's AGP, any API", async () => {
    const cookie = grant(ada().id);
    for (const path of [
      "/clinic",
      `/clinic?clinic=${admin.clinicId}`,
      `/clinic/patients/${ada().id}`,
      `/clinic/patients/${ada().id}/day`,
      `/clinic/patients/${bea().id}/agp?days=14`,
      `/clinic/population?clinic=${admin.clinicId}`,
      "/dashboard",
      "/reports/agp",
    ]) {
      const res = await c.get(path, cookie);
      expect(res.status, path).not.toBe(200);
      await res.body?.cancel();
    }
    for (const path of [
      `/api/clinic/patients/${ada().id}/agp-pdf?days=14`,
      `/api/clinic/patients/${ada().id}/export`,
      `/api/clinic/patients/${ada().id}/fhir`,
      `/api/clinic/clinic-days/${ada().id}`,
      "/api/reports/export",
    ]) {
      const res = await c.get(path, cookie);
      expect(res.status, path).toBe(401);
      await res.body?.cancel();
    }
    const session = (await (await c.get("/api/auth/session", cookie)).json()) as unknown;
    expect(session).toBeNull();
  });

  it("stops working when it runs out, and is worthless signed with another secret", async () => {
    for (const cookie of [
      grant(ada().id, Date.now() - RENDER_GRANT_TTL_MS - 1),
      grant(ada().id, Date.now(), "another-secret-of-at-least-thirty-two-chars"),
    ]) {
      const res = await c.get(`/clinic/patients/${ada().id}/agp?days=14`, cookie);
      expect(signedOut(res), `${res.status} ${res.headers.get("location")}`).toBe(true);
      await res.body?.cancel();
    }
  });
});

interface JobStatus {
  id: string;
  finished: boolean;
  expired: boolean;
  expiresAt: string | null;
  total: number;
  done: number;
  failed: number;
}

async function status(jobId: string): Promise<JobStatus> {
  const res = await c.get(`/api/clinic/clinic-days/${jobId}`, admin.cookie);
  expect(res.status).toBe(200);
  return (await res.json()) as JobStatus;
}

async function until(jobId: string, done: (s: JobStatus) => boolean, ms = 120_000): Promise<JobStatus> {
  const deadline = Date.now() + ms;
  for (;;) {
    const s = await status(jobId);
    if (done(s)) return s;
    if (Date.now() > deadline) throw new Error(`clinic day ${jobId} stuck: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("a clinic day's packet after it was made", () => {
  let jobId = "";

  it("leaves out the PDF of a patient who stopped sharing since, and says why in the CSV", async () => {
    const res = await c.post(
      "/api/clinic/clinic-days",
      { clinicId: admin.clinicId, patients: "all", days: "14" },
      { cookie: admin.cookie },
    );
    jobId = /[?&]job=([0-9a-f-]{36})/.exec(res.headers.get("location") ?? "")?.[1] ?? "";
    expect(jobId).not.toBe("");
    const finished = await until(jobId, (s) => s.finished);
    expect(finished).toMatchObject({ total: 2, done: 2, failed: 0 });

    const sharing = await c.get("/sharing", bea().cookie).then(c.text);
    const shareId = /action="\/api\/sharing\/([0-9a-f-]{36})\/withdraw"/.exec(sharing)?.[1] ?? "";
    expect((await c.post(`/api/sharing/${shareId}/withdraw`, {}, { cookie: bea().cookie })).status).toBe(303);

    const zip = await c.get(`/api/clinic/clinic-days/${jobId}/zip`, admin.cookie);
    expect(zip.status).toBe(200);
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    const pdfs = Object.keys(files).filter((n) => n.endsWith(".pdf"));
    expect(pdfs).toHaveLength(1);
    expect(pdfs[0]).toMatch(/^agp_Ada_Able_/);
    const [header = [], ...rows] = parseCsv(strFromU8(files["clinic-day.csv"] as Uint8Array));
    const csv = rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ""])));
    const beaRow = csv.find((r) => r.patient === "Bea Baker");
    expect(beaRow?.agpPdf).toBe("");
    expect(beaRow?.missing).toMatch(/Bea Baker does not share their data with the clinic now .*left out/);
    // The CSV says which days its numbers cover, apart from the PDF's period.
    const adaRow = csv.find((r) => r.patient === "Ada Able");
    expect(adaRow?.metricsDays).toBe("14");
    expect(adaRow?.pdfFirstDay).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("states until when the packet is kept", async () => {
    const s = await status(jobId);
    expect(s.expired).toBe(false);
    expect(Date.parse(s.expiresAt ?? "") - Date.now()).toBeLessThanOrEqual(RETENTION_S * 1000);
    const page = await c.get(`/clinic/clinic-day?clinic=${admin.clinicId}`, admin.cookie).then(c.text);
    expect(page).toMatch(/data-testid="clinic-day-expires"[^>]*>Available until <time/);
  });

  it("expires after the retention: 410 in JSON to an API client, a page to a browser, and the page says so", async () => {
    const { expiresAt } = await status(jobId);
    const wait = Date.parse(expiresAt ?? "") - Date.now() + 500;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    expect(await status(jobId)).toMatchObject({ expired: true });
    const api = await c.get(`/api/clinic/clinic-days/${jobId}/zip`, admin.cookie);
    expect(api.status).toBe(410);
    expect(api.headers.get("content-type")).toContain("application/json");
    const body = (await api.json()) as { error: string; message: string };
    expect(body.error).toBe("expired");
    expect(body.message).toMatch(/expired on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC .*prepare a new clinic day/);
    const browser = await fetch(`${server.url}/api/clinic/clinic-days/${jobId}/zip`, {
      headers: { Cookie: admin.cookie, Accept: "text/html" },
    });
    expect(browser.status).toBe(410);
    expect(browser.headers.get("content-type")).toContain("text/html");
    const html = await browser.text();
    expect(html).toContain("<h1>This is no longer available</h1>");
    expect(html).toMatch(/packet expired on .* prepare a new clinic day/);
    const page = await c.get(`/clinic/clinic-day?clinic=${admin.clinicId}`, admin.cookie).then(c.text);
    expect(page).toContain('data-testid="clinic-day-expired"');
    expect(page).not.toContain('data-testid="clinic-day-download"');
  }, 90_000);
});
