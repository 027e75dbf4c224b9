import { unzipSync } from "fflate";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { clinicClient } from "../support/clinic-client";
import { type DashboardSession, dashboardApp, developer, signIn } from "../support/dashboard-client";
import { pdfPagesText } from "../support/pdf-text";

/**
 * Reports fit to file (issue 18, item 2), over HTTP against the real server, its Chromium and the
 * sandbox: the AGP PDF's own text (read back with PDF.js) names the patient, date of birth and
 * clinic (a clinic's download) or the account (the patient's own), the period, when it was made
 * and in which zone, the sensor and device, and the target group; downloads are named by patient
 * and period, so two patients' files never collide; a download that cannot be made answers a
 * browser with a page that says why and an API client with JSON, never a 500.
 */

const base = inject("baseUrl");
const dev = developer(base, dashboardApp(inject("dataDir")));
const { get, clinician, addPatient, acceptAsPatient, patientIdIn } = clinicClient(base);

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const fetchAs = (path: string, cookie: string | null, accept?: string) =>
  fetch(`${base}${path}`, {
    redirect: "manual",
    headers: { ...(cookie ? { Cookie: cookie } : {}), ...(accept ? { Accept: accept } : {}) },
  });

const DISPOSITION = (prefix: string, ext: string) =>
  new RegExp(
    `^attachment; filename="(${prefix}(?:_[A-Za-z0-9_-]+)?_\\d{4}-\\d{2}-\\d{2}_\\d{4}-\\d{2}-\\d{2}\\.${ext})"; filename\\*=UTF-8''\\1$`,
  );

let dr: Awaited<ReturnType<typeof clinician>>;
let joseId: string;
let annId: string;
let invitedOnlyId: string;
let patient1: DashboardSession;

beforeAll(async () => {
  dr = await clinician();
  const jose = await addPatient(dr, "José García", "1980-02-29");
  await acceptAsPatient(jose.token, "SandboxUser1");
  joseId = patientIdIn(jose.page, "José García");
  const ann = await addPatient(dr, "Ann O'Neil", "1975-06-01");
  await acceptAsPatient(ann.token, "SandboxUser3");
  annId = patientIdIn(ann.page, "Ann O'Neil");
  // Invited and never accepted: the clinic has no data of this patient to print.
  const invited = await addPatient(dr, "Pat Pending");
  invitedOnlyId = patientIdIn(invited.page, "Pat Pending");
  patient1 = await signIn(base, "SandboxUser1");
}, 120_000);

describe("the AGP PDF's identity lines", () => {
  it("a clinic's PDF names the patient, date of birth, clinic, period, time made with zone, sensor and device, target group", async () => {
    const res = await get(`/api/clinic/patients/${joseId}/agp-pdf?days=14`, dr.cookie);
    expect(res.status).toBe(200);
    const [page, ...more] = await pdfPagesText(await res.arrayBuffer());
    expect(more).toHaveLength(0);
    const text = page!.replace(/\s+/g, " ");
    expect(text).toContain("Patient: José García");
    expect(text).toContain("Date of birth: 1980-02-29");
    expect(text).toContain(`Clinic: ${dr.form.clinicName}`);
    expect(text).toMatch(
      /Period: \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}, 14 days on the patient's receiver clock/,
    );
    expect(text).toMatch(/Generated: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(text).toMatch(/Sensor and device: Dexcom G\d[\w -]* sensor, read by /);
    expect(text).toContain("Target group: Type 1 and type 2 diabetes");
    // The methods note cites published sources, no file of the app's source.
    expect(text).toContain("Methods");
    expect(text).not.toMatch(/\blib\/\w+|\.tsx?\b/);
    // The generation time is now, within the minute the test ran.
    const made = /Generated: (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) UTC/.exec(text)!;
    expect(Math.abs(Date.parse(`${made[1]}T${made[2]}:00Z`) - Date.now())).toBeLessThan(3 * 60_000);
  });

  // SandboxUser5's sensor ran a fifth of the time: the warning note makes the longest report, and
  // Letter the shortest page; the clinic's identity lines are the longer ones.
  it("a clinic's Letter PDF of the longest report still keeps to one page", async () => {
    const low = await addPatient(dr, "Maximiliane Östergård-Łukasiewicz", "1990-12-31");
    await acceptAsPatient(low.token, "SandboxUser5");
    const id = patientIdIn(low.page, "Maximiliane Östergård-Łukasiewicz");
    const res = await get(`/api/clinic/patients/${id}/agp-pdf?days=14&paper=letter`, dr.cookie);
    expect(res.status).toBe(200);
    const pages = await pdfPagesText(await res.arrayBuffer());
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain("Methods");
    expect(res.headers.get("content-disposition")).toContain("agp_Maximiliane_Ostergard-Lukasiewicz_");
  });

  it("the patient's own PDF names the account and no clinic", async () => {
    const res = await fetchAs("/api/reports/agp-pdf?days=14", patient1.cookie);
    expect(res.status).toBe(200);
    const text = (await pdfPagesText(await res.arrayBuffer())).join(" ").replace(/\s+/g, " ");
    expect(text).toContain("Account: Patient");
    expect(text).not.toContain("Clinic:");
    expect(text).not.toContain("Date of birth:");
    expect(text).toMatch(/Period: .*, 14 days on your receiver's clock/);
    expect(text).toMatch(/Generated: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(text).toContain("Sensor and device: Dexcom");
    expect(text).toContain("Target group:");
    expect(res.headers.get("content-disposition")).toMatch(DISPOSITION("agp_Patient", "pdf"));
  });
});

describe("a period without readings", () => {
  it("says so on the page and in the PDF, named by the period asked", async () => {
    const q = "startDay=2020-01-01&endDay=2020-01-14";
    const page = await fetchAs(`/reports?${q}`, patient1.cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-testid="agp-no-readings"');
    expect(html).toContain('data-testid="report-identity"');
    const pdf = await fetchAs(`/api/reports/agp-pdf?${q}`, patient1.cookie);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-disposition")).toContain(
      'filename="agp_Patient_2020-01-01_2020-01-14.pdf"',
    );
    const text = (await pdfPagesText(await pdf.arrayBuffer())).join(" ").replace(/\s+/g, " ");
    expect(text).toContain("No glucose readings exist in this period");
    expect(text).toContain("Period: 2020-01-01 to 2020-01-14, 14 days on your receiver's clock");
  });
});

describe("explicit startDate/endDate (systemTime) on a receiver that is not on UTC", () => {
  it("names the export's days as UTC days, never as SandboxUser4's (America/Chicago) receiver clock", async () => {
    const patient4 = await signIn(base, "SandboxUser4");
    const q = "startDate=2026-10-01T00:00:00&endDate=2026-10-07T23:59:59";
    const zip = await fetchAs(`/api/reports/export?${q}`, patient4.cookie);
    expect(zip.status).toBe(200);
    // The window's own days: 00:00 UTC on 1 October is still 30 September in Chicago.
    expect(zip.headers.get("content-disposition")).toContain("_2026-10-01_2026-10-07.zip");
    const methods = new TextDecoder().decode(
      unzipSync(new Uint8Array(await zip.arrayBuffer()))["methods.txt"],
    );
    const period = /^Period: (.*)$/m.exec(methods)?.[1];
    expect(period).toMatch(/^2026-10-01 to 2026-10-07, 7 days on UTC \(the service's systemTime/);
    expect(period).not.toContain("receiver");
  });
});

describe("file names", () => {
  it("two patients' PDFs and exports of the same period carry each patient's name, never the same file name", async () => {
    const names: string[] = [];
    for (const [id, stem] of [
      [joseId, "Jose_Garcia"],
      [annId, "Ann_O_Neil"],
    ] as const) {
      const pdf = await get(`/api/clinic/patients/${id}/agp-pdf?days=14`, dr.cookie);
      expect(pdf.status).toBe(200);
      const disposition = pdf.headers.get("content-disposition") ?? "";
      expect(disposition).toMatch(DISPOSITION(`agp_${stem}`, "pdf"));
      names.push(DISPOSITION("agp", "pdf").exec(disposition)![1]!);
      await pdf.arrayBuffer();

      const zip = await get(`/api/clinic/patients/${id}/export?days=14`, dr.cookie);
      expect(zip.status).toBe(200);
      expect(zip.headers.get("content-disposition")).toMatch(DISPOSITION(`cgm-export_${stem}`, "zip"));
      names.push(DISPOSITION("cgm-export", "zip").exec(zip.headers.get("content-disposition") ?? "")![1]!);
      const methods = new TextDecoder().decode(
        unzipSync(new Uint8Array(await zip.arrayBuffer()))["methods.txt"],
      );
      expect(methods).toContain(`Clinic: ${dr.form.clinicName}`);
      expect(methods).toContain("Sensor and device: Dexcom");
      expect(methods).not.toMatch(/\blib\/\w+|\.tsx?\b/);
    }
    expect(new Set(names).size).toBe(4);
  });
});

describe("a download that cannot be made", () => {
  const cases: Array<[string, () => [string, string | null], number, RegExp]> = [
    [
      "an account without readings",
      () => ["/api/reports/agp-pdf?days=14", "no-data"],
      404,
      /No glucose readings/,
    ],
    ["a refused period", () => ["/api/reports/agp-pdf?days=365", "patient1"], 400, /at most 90 days/],
    ["an export of a refused period", () => ["/api/reports/export?days=365", "patient1"], 400, /90 days/],
    [
      "a patient who does not share",
      () => [`/api/clinic/patients/${invitedOnlyId}/agp-pdf?days=14`, "dr"],
      409,
      /does not share/,
    ],
    [
      "a clinic export of a patient who does not share",
      () => [`/api/clinic/patients/${invitedOnlyId}/export?days=14`, "dr"],
      409,
      /does not share/,
    ],
    ["signed out", () => ["/api/reports/agp-pdf?days=14", null], 401, /Sign in/],
  ];
  let noData: DashboardSession;
  beforeAll(async () => {
    noData = await signIn(base, "SandboxUser6");
  });
  const cookieOf = (who: string | null) =>
    who === "dr"
      ? dr.cookie
      : who === "patient1"
        ? patient1.cookie
        : who === "no-data"
          ? noData.cookie
          : null;

  it.each(cases)(
    "%s: a browser gets a page that says why, an API client JSON",
    async (_name, asked, status, why) => {
      const [path, who] = asked();
      const page = await fetchAs(path, cookieOf(who), BROWSER_ACCEPT);
      expect(page.status).toBe(status);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const html = (await page.text()).replaceAll("&#39;", "'");
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toMatch(why);
      expect(html).toMatch(/<a href="\/[^"]*">/);
      expect(html).not.toContain('"error"');

      const json = await fetchAs(path, cookieOf(who), "application/json");
      expect(json.status).toBe(status);
      expect(json.headers.get("content-type")).toContain("application/json");
      const body = await json.json();
      expect(typeof body.error).toBe("string");
      expect(body.message).toMatch(why);
    },
  );
});

describe("a download while the service is unreachable", () => {
  it("a browser gets a page that says so, an API client a JSON 503, never a 500", async () => {
    await dev.faults({ failNext: 200, failStatus: 503 });
    try {
      const page = await fetchAs("/api/reports/export?days=14", patient1.cookie, BROWSER_ACCEPT);
      expect(page.status).toBe(503);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(await page.text()).toMatch(/glucose service is not answering/);
      const json = await fetchAs("/api/reports/export?days=14", patient1.cookie, "application/json");
      expect(json.status).toBe(503);
      expect((await json.json()).error).toBe("service_unavailable");
    } finally {
      await dev.faults({});
    }
  });
});
