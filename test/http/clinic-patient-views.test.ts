import { beforeAll, describe, expect, inject, it } from "vitest";
import { requestFromRows } from "@/lib/reports/statistics-by-window/windows";
import { clinicClient } from "../support/clinic-client";
import { signIn } from "../support/dashboard-client";

/**
 * Issue 18, item 1: every view the patient has of their data, reached from the patient's clinic
 * page, over HTTP against the real server. Each answers the clinician with the same numbers the
 * patient's own page shows, in a clinician's words, with one audit entry per view; every other
 * session (another clinic, the patient, another patient) and every other id (another clinic's
 * patient, an unknown one) is told 404, and the signed out are sent to the clinic's sign-in.
 */

const base = inject("baseUrl");
const apiVersion = inject("apiVersion");
const { get, clinician, text, addPatient, acceptAsPatient, patientIdIn } = clinicClient(base);

/** The new views, the patient's own address of each, and the audit action each writes. */
const VIEWS = [
  { view: "/day", own: "/dashboard/day", action: "view.day", marker: 'data-testid="day-summary"' },
  { view: "/events", own: "/dashboard/events", action: "view.events", marker: 'id="events-heading"' },
  { view: "/alerts", own: "/dashboard/alerts", action: "view.alerts", marker: 'id="alerts' },
  {
    view: "/calibrations",
    own: "/dashboard/calibrations",
    action: "view.calibrations",
    marker: 'id="calibrations',
  },
  { view: "/devices", own: "/dashboard/devices", action: "view.devices", marker: "Last upload" },
  {
    view: "/compare",
    own: "/reports/compare",
    action: "view.compare",
    marker: 'data-testid="comparison-table"',
  },
  {
    view: "/statistics",
    own: "/reports/statistics",
    action: "view.statistics",
    marker: 'data-testid="together-result"',
  },
  {
    view: "/export",
    own: "/reports/export",
    action: "view.export",
    marker: 'data-testid="export-file-name"',
  },
] as const;

/** API v2 has no alerts: both the patient's and the clinic's page say so, and read nothing. */
const auditedViews = VIEWS.filter((v) => apiVersion === "v3" || v.view !== "/alerts");

/** Words that address the patient, which no clinic page may carry. */
const PATIENT_WORDS = /your receiver|your CGM account|your (?:newest|latest|first) /i;

async function auditRows(admin: { cookie: string; clinicId: string }) {
  const log = await text(await get(`/clinic/audit?clinic=${admin.clinicId}`, admin.cookie));
  return [...log.matchAll(/<tr[^>]*data-action="([^"]+)"[^>]*>(.*?)<\/tr>/gs)].map((m) => ({
    action: m[1] ?? "",
    row: m[2] ?? "",
  }));
}

/** The element that carries `marker` in `html`, from its tag to the end of the tag it opens. */
function block(html: string, marker: string, tag: string): string {
  const at = html.indexOf(marker);
  expect(at, marker).toBeGreaterThan(-1);
  const start = html.lastIndexOf(`<${tag}`, at);
  const end = html.indexOf(`</${tag}>`, at);
  return html.slice(start, end);
}

describe("a clinic patient's views", () => {
  let clinicA: Awaited<ReturnType<typeof clinician>>;
  let clinicB: Awaited<ReturnType<typeof clinician>>;
  let patientCookie: string;
  let otherPatient: string;
  let patientId: string;
  let otherClinicsPatient: string;
  const clinicPath = (view: string, id = patientId) => `/clinic/patients/${id}${view}`;

  beforeAll(async () => {
    clinicA = await clinician();
    clinicB = await clinician();
    const { token, page } = await addPatient(clinicA, "Vera Views", "1975-06-01");
    patientId = patientIdIn(page, "Vera Views");
    patientCookie = await acceptAsPatient(token, "SandboxUser4");
    otherPatient = (await signIn(base, "SandboxUser3")).cookie;
    const { page: pageB } = await addPatient(clinicB, "Bo Elsewhere");
    otherClinicsPatient = patientIdIn(pageB, "Bo Elsewhere");
    // The patient's own windows: the clinic's page shows them and cannot change them.
    const body = requestFromRows([
      { name: "Breakfast", startTime: "06:00", endTime: "10:00", urgentLow: "54", low: "70", high: "160" },
      { name: "Rest of day", startTime: "10:00", endTime: "06:00", urgentLow: "54", low: "70", high: "180" },
    ]).body;
    const saved = await fetch(`${base}/api/reports/statistics-windows`, {
      method: "POST",
      headers: { Cookie: patientCookie, "Content-Type": "application/json", Origin: base },
      body: JSON.stringify({ unit: "mg/dL", ...body }),
    });
    expect(saved.status).toBe(200);
  }, 90_000);

  it("lists every view on the patient's page, and each answers with the data, in a clinician's words, audited once", async () => {
    const overview = await text(await get(clinicPath(""), clinicA.cookie));
    for (const { view } of VIEWS) expect(overview).toContain(`href="${clinicPath(view)}"`);
    expect(overview).toContain(`href="${clinicPath("/agp")}"`);
    expect(PATIENT_WORDS.exec(overview)?.[0]).toBeUndefined();

    for (const { view, marker } of VIEWS) {
      const res = await get(clinicPath(view), clinicA.cookie);
      expect(res.status, view).toBe(200);
      expect(res.headers.get("cache-control"), view).toMatch(/no-store|private/);
      const html = await text(res);
      expect(html, view).toContain("Vera Views");
      expect(html, view).toContain('aria-current="page"');
      expect(PATIENT_WORDS.exec(html)?.[0], view).toBeUndefined();
      if (view === "/alerts" && apiVersion === "v2") expect(html).toContain("Alerts need API v3");
      else expect(html, view).toContain(marker);
      // Links and forms stay in the clinic: none leads to the patient's own pages.
      expect(html, view).not.toMatch(/(?:href|action)="\/(?:dashboard|reports)[/"?]/);
    }
    const agp = await text(await get(clinicPath("/agp"), clinicA.cookie));
    expect(PATIENT_WORDS.exec(agp)?.[0]).toBeUndefined();
    expect(agp.includes("the patient's receiver clock")).toBe(true);

    // Nor do the clinic's other pages address the patient.
    for (const path of ["/clinic", "/clinic/population", "/clinic/audit"]) {
      const html = await text(await get(`${path}?clinic=${clinicA.clinicId}`, clinicA.cookie));
      expect(PATIENT_WORDS.exec(html)?.[0], path).toBeUndefined();
    }

    const mine = (await auditRows(clinicA)).filter((r) => r.row.includes("Vera Views"));
    for (const { action } of auditedViews) {
      expect(
        mine.filter((r) => r.action === action),
        action,
      ).toHaveLength(1);
    }
  }, 120_000);

  it("shows the numbers the patient's own pages show", async () => {
    const both = async (view: string, own: string, query = "") => {
      const clinic = await text(await get(`${clinicPath(view)}${query}`, clinicA.cookie));
      const patient = await text(await get(`${own}${query}`, patientCookie));
      return { clinic, patient };
    };
    const day = await both("/day", "/dashboard/day");
    expect(block(day.clinic, 'data-testid="day-summary"', "dl")).toBe(
      block(day.patient, 'data-testid="day-summary"', "dl"),
    );
    expect(block(day.clinic, 'data-testid="time-in-range"', "div")).toBe(
      block(day.patient, 'data-testid="time-in-range"', "div"),
    );
    const events = await both("/events", "/dashboard/events", "?days=30");
    const count = /(\d+) events?, newest first/;
    expect(count.exec(events.clinic)?.[1]).toBeDefined();
    expect(count.exec(events.clinic)?.[1]).toBe(count.exec(events.patient)?.[1]);
    const compare = await both("/compare", "/reports/compare", "?days=7");
    expect(block(compare.clinic, 'data-testid="comparison-table"', "tbody")).toBe(
      block(compare.patient, 'data-testid="comparison-table"', "tbody"),
    );
    const statistics = await both("/statistics", "/reports/statistics", "?days=7");
    expect(block(statistics.clinic, 'data-testid="together-result"', "tr")).toBe(
      block(statistics.patient, 'data-testid="together-result"', "tr"),
    );
    // The clinic sees the patient's own windows, read only: no editor that could save them.
    expect(statistics.clinic).toContain("Breakfast");
    expect(statistics.clinic).toContain('data-testid="windows-read-only"');
    expect(statistics.clinic).not.toContain("statistics-windows");
    const devices = await both("/devices", "/dashboard/devices");
    expect(devices.clinic.match(/data-testid="last-upload"/g)?.length).toBe(
      devices.patient.match(/data-testid="last-upload"/g)?.length,
    );

    // The export page leads to the clinic's export API, which the download then answers.
    const exported = await both("/export", "/reports/export", "?days=14");
    // The same period; the clinic's file carries the clinic's name for the patient, the patient's
    // their account's (lib/reports/identity/file-name.ts).
    const fileName = (html: string) =>
      /cgm-export_([A-Za-z0-9_-]+?)_(\d{4}-\d\d-\d\d_\d{4}-\d\d-\d\d)\.zip/.exec(
        html.replace(/<[^>]*>/g, ""),
      );
    expect(fileName(exported.clinic)?.[2]).toBe(fileName(exported.patient)?.[2]);
    expect(fileName(exported.clinic)?.[2]).toBeTruthy();
    expect(fileName(exported.clinic)?.[1]).toBe("Vera_Views");
    const href = /href="(\/api\/clinic\/patients\/[^"]+\/export\?days=14)"/.exec(exported.clinic)?.[1];
    expect(href).toBe(`/api/clinic/patients/${patientId}/export?days=14`);
    const zip = await get(href ?? "", clinicA.cookie);
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    // The patient's windows are as they saved them.
    const windows = await (
      await fetch(`${base}/api/reports/statistics-windows`, { headers: { Cookie: patientCookie } })
    ).json();
    expect(windows.windows.map((w: { name: string }) => w.name)).toEqual(["Breakfast", "Rest of day"]);
  }, 120_000);

  it("refuses every view to other clinics, to patients, to other ids and to the signed out", async () => {
    const stranger = "00000000-0000-4000-8000-000000000000";
    const logBefore = (await auditRows(clinicA)).length;
    for (const { view } of VIEWS) {
      for (const cookie of [clinicB.cookie, patientCookie, otherPatient]) {
        expect((await get(clinicPath(view), cookie)).status, view).toBe(404);
        expect((await get(clinicPath(view, stranger), cookie)).status, view).toBe(404);
      }
      for (const id of [stranger, otherClinicsPatient, "not-a-uuid"]) {
        const res = await get(clinicPath(view, id), clinicA.cookie);
        expect(res.status, `${view} ${id}`).toBe(404);
        expect(await text(res)).not.toContain("Bo Elsewhere");
      }
      const signedOut = await get(clinicPath(view));
      expect(signedOut.status, view).toBe(307);
      expect(signedOut.headers.get("location")).toBe("/clinic/sign-in");
    }
    expect((await auditRows(clinicA)).length).toBe(logBefore);
    expect((await auditRows(clinicB)).map((r) => r.action)).toEqual(["patient.added"]);
  }, 120_000);
});
