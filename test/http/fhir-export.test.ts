import { rmSync } from "node:fs";
import type { Bundle } from "@medplum/fhirtypes";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CODES, LOINC } from "@/lib/fhir/cgm-ig";
import { type AppServer, startAppServer, UNLIMITED_CALL_BUDGET } from "../support/app-server";
import { clinicClient } from "../support/clinic-client";
import { checkCgmProfiles, parseR4 } from "../support/fhir";
import { dt } from "../support/sandbox-client";

/**
 * The FHIR export (HL7 FHIR CGM IG 1.0.0) over HTTP against the real server and sandbox: three
 * sandbox users, each a patient of one clinic; each one's Bundle holds exactly the summary API's
 * numbers for the same period, follows the IG's profiles as far as they can be checked offline,
 * and parses as FHIR R4 (lib/fhir, test/support/fhir.ts). Another clinic and a patient's session
 * get 404, a bad period a 400 that says what to change, and each download is in the audit log.
 */

const base = inject("baseUrl");
const { get, clinician, text, addPatient, acceptAsPatient, patientIdIn } = clinicClient(base);
const USERS = ["SandboxUser1", "SandboxUser2", "SandboxUser3"] as const;
const DAY = 86_400_000;
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const fetchAs = (path: string, cookie: string, accept: string, server = base) =>
  fetch(`${server}${path}`, { redirect: "manual", headers: { Cookie: cookie, Accept: accept } });

/** Chicago's offset at an instant as a FHIR dateTime ends ("-06:00" in winter, "-05:00" in summer). */
const chicagoOffset = (ms: number) =>
  new Intl.DateTimeFormat("en-US", { timeZone: "America/Chicago", timeZoneName: "longOffset" })
    .formatToParts(ms)
    .find((p) => p.type === "timeZoneName")
    ?.value.replace("GMT", "");
/** The calendar day in Chicago of an instant (yyyy-mm-dd). */
const chicagoDay = (ms: number) => new Date(ms).toLocaleDateString("en-CA", { timeZone: "America/Chicago" });

/** A FHIR period's two instants (ms), whatever offset each is written with. */
const instants = (p: { start?: string; end?: string } | undefined) => [
  Date.parse(p?.start ?? ""),
  Date.parse(p?.end ?? ""),
];

/** The last `days` days to a minute ago, as the summary API takes them. */
function period(days: number) {
  const end = Math.floor((Date.now() - 60_000) / 1000) * 1000;
  return { startDate: dt(end - days * DAY), endDate: dt(end) };
}

describe("GET /api/clinic/patients/{id}/fhir", () => {
  let clinicA: Awaited<ReturnType<typeof clinician>>;
  let clinicB: Awaited<ReturnType<typeof clinician>>;
  const patients: Array<{ user: string; id: string; cookie: string; name: string }> = [];

  beforeAll(async () => {
    clinicA = await clinician();
    clinicB = await clinician();
    for (const [i, user] of USERS.entries()) {
      const name = `Fhir Patient ${i + 1}`;
      const { token, page } = await addPatient(clinicA, name, `198${i}-0${i + 1}-1${i}`);
      const id = patientIdIn(page, name);
      const cookie = await acceptAsPatient(token, user);
      patients.push({ user, id, cookie, name });
    }
  }, 120_000);

  it("holds the summary API's values for the same period, for three sandbox users", async () => {
    for (const [i, p] of patients.entries()) {
      const q = new URLSearchParams(period(7));
      const res = await get(`/api/clinic/patients/${p.id}/fhir?${q}`, clinicA.cookie);
      expect(res.status, p.user).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/fhir\+json/);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      const disposition = res.headers.get("content-disposition") ?? "";
      expect(disposition).toMatch(
        /^attachment; filename="fhir_Fhir_Patient_\d_\d{4}-\d\d-\d\d_\d{4}-\d\d-\d\d\.json"; filename\*=UTF-8''fhir_Fhir_Patient_\d_/,
      );
      const bundle = (await res.json()) as Bundle;
      const summaryRes = await get(`/api/clinic/patients/${p.id}/summary?${q}`, clinicA.cookie);
      expect(summaryRes.status).toBe(200);
      const summary = await summaryRes.json();
      expect(summary.nValues, p.user).toBeGreaterThan(0);

      const got = checkCgmProfiles(bundle);
      expect(got.mean).toBe(summary.mean);
      expect(got.gmi).toBe(summary.gmi);
      expect(got.cv).toBe(summary.cv);
      expect(got.daysOfWear).toBe(summary.daysOfWear);
      expect(got.sensorActivePercent).toBe(summary.sensorActivePercent);
      // Never more days of wear than the period has (7 days).
      expect(got.daysOfWear).toBeLessThanOrEqual(7);
      expect(got.timeInRanges).toEqual(summary.timeInRanges);
      // The instants asked for, written on the patient's receiver clock (with its offset).
      expect(instants(got.effectivePeriod)).toEqual([
        Date.parse(`${summary.startDate}Z`),
        Date.parse(`${summary.endDate}Z`),
      ]);
      // The patient as the clinic knows them; the AGP PDF of the period; the CGM of the period.
      const patient = bundle.entry?.find((e) => e.resource?.resourceType === "Patient")?.resource;
      expect(patient).toMatchObject({ name: [{ text: p.name }], birthDate: `198${i}-0${i + 1}-1${i}` });
      expect(got.reports).toHaveLength(1);
      expect(got.devices).toHaveLength(1);
      expect(got.readings).toHaveLength(0);
      await parseR4(bundle);
    }
  }, 120_000);

  it("carries the sensor readings when asked: one per reading, LOW and HIGH as comparators", async () => {
    const p = patients[1];
    if (!p) throw new Error("no patient");
    const q = new URLSearchParams(period(2));
    const res = await get(`/api/clinic/patients/${p.id}/fhir?${q}&readings=true`, clinicA.cookie);
    expect(res.status).toBe(200);
    const bundle = (await res.json()) as Bundle;
    const summary = await (await get(`/api/clinic/patients/${p.id}/summary?${q}`, clinicA.cookie)).json();
    const { readings } = checkCgmProfiles(bundle);
    expect(readings).toHaveLength(summary.nValues);
    for (const r of readings) {
      const v = r.valueQuantity;
      // 39 and 401 are "below 40" and "above 400", never numbers of their own.
      expect(v?.value === 39 || v?.value === 401).toBe(false);
      if (v?.comparator)
        expect([v.comparator, v.value]).toEqual(v.comparator === "<" ? ["<", 40] : [">", 400]);
      expect(r.code?.coding).toEqual([{ system: LOINC, code: CODES.sensorReadingMass }]);
    }
    await parseR4(bundle);
  }, 60_000);

  it("takes days=14 as the AGP page counts them, the clinic patient page's link", async () => {
    const p = patients[2];
    if (!p) throw new Error("no patient");
    const page = await text(await get(`/clinic/patients/${p.id}`, clinicA.cookie));
    const link = /data-testid="fhir-download".*?href="([^"]+)"/s.exec(page)?.[1];
    expect(link).toBe(`/api/clinic/patients/${p.id}/fhir?days=14`);
    const res = await get(link ?? "", clinicA.cookie);
    expect(res.status).toBe(200);
    const got = checkCgmProfiles((await res.json()) as Bundle);
    const { start, end } = got.effectivePeriod ?? {};
    // The period's instants (written with the receiver's offset) as the summary API takes them.
    const [startMs = 0, endMs = 0] = instants(got.effectivePeriod);
    const q = new URLSearchParams({ startDate: dt(startMs), endDate: dt(endMs) });
    const summary = await (await get(`/api/clinic/patients/${p.id}/summary?${q}`, clinicA.cookie)).json();
    expect([got.mean, got.gmi, got.cv, got.daysOfWear]).toEqual([
      summary.mean,
      summary.gmi,
      summary.cv,
      summary.daysOfWear,
    ]);
    expect(got.timeInRanges).toEqual(summary.timeInRanges);
    expect(Date.parse(String(end)) - Date.parse(String(start))).toBeGreaterThan(13 * DAY);
    expect((await get(`/api/clinic/patients/${p.id}/fhir?days=0`, clinicA.cookie)).status).toBe(400);
  }, 60_000);

  it("refuses a bad period or readings with a message, a long period's readings, and a period without data", async () => {
    const id = patients[0]?.id;
    for (const query of [
      "startDate=yesterday&endDate=2026-01-01T00:00:00",
      "endDate=2026-01-01T00:00:00",
      `${new URLSearchParams(period(91))}`,
      `${new URLSearchParams(period(3))}&readings=yes`,
      `${new URLSearchParams(period(40))}&readings=true`,
    ]) {
      const res = await get(`/api/clinic/patients/${id}/fhir?${query}`, clinicA.cookie);
      expect(res.status, query).toBe(400);
      const body = await res.json();
      expect(typeof body.error === "string" || typeof body.message === "string", JSON.stringify(body)).toBe(
        true,
      );
      expect(JSON.stringify(body).length).toBeGreaterThan(30);
    }
    const empty = await get(
      `/api/clinic/patients/${id}/fhir?startDate=2020-01-01T00:00:00&endDate=2020-01-02T00:00:00`,
      clinicA.cookie,
    );
    expect([400, 404]).toContain(empty.status);
  });

  it("is not found for another clinic, a patient's session, a made-up id; the signed-out sign in", async () => {
    const q = new URLSearchParams(period(3));
    const p = patients[0];
    if (!p) throw new Error("no patient");
    expect((await get(`/api/clinic/patients/${p.id}/fhir?${q}`, clinicB.cookie)).status).toBe(404);
    expect((await get(`/api/clinic/patients/${p.id}/fhir?${q}`, p.cookie)).status).toBe(404);
    expect((await get(`/api/clinic/patients/${crypto.randomUUID()}/fhir?${q}`, clinicA.cookie)).status).toBe(
      404,
    );
    expect((await get(`/api/clinic/patients/${p.id}/fhir?${q}`)).status).toBe(401);
  });

  it("writes each download to the clinic's audit log, and the AGP page links it for its period", async () => {
    const log = await text(await get(`/clinic/audit?clinic=${clinicA.clinicId}`, clinicA.cookie));
    const rows = [...log.matchAll(/<tr[^>]*data-action="download\.fhir"[^>]*>(.*?)<\/tr>/gs)];
    expect(rows.length).toBeGreaterThanOrEqual(USERS.length + 1);
    expect(rows.some((m) => (m[1] ?? "").includes("Fhir Patient 2"))).toBe(true);
    const p = patients[0];
    const page = await text(await get(`/clinic/patients/${p?.id}/agp?days=14`, clinicA.cookie));
    const link = /data-testid="fhir-download".*?href="([^"]+)"/s.exec(page)?.[1];
    expect(link).toMatch(new RegExp(`^/api/clinic/patients/${p?.id}/fhir\\?startDate=`));
  });

  describe("for a receiver on Chicago time (SandboxUser4)", () => {
    let p4: { id: string; cookie: string };
    beforeAll(async () => {
      const { token, page } = await addPatient(clinicA, "Fhir Patient Chicago", "1975-05-05");
      const id = patientIdIn(page, "Fhir Patient Chicago");
      p4 = { id, cookie: await acceptAsPatient(token, "SandboxUser4") };
    }, 60_000);

    it("writes an explicit period's instants with the receiver's offset, and names the file by its days", async () => {
      const q = new URLSearchParams(period(14));
      const res = await get(`/api/clinic/patients/${p4.id}/fhir?${q}`, clinicA.cookie);
      expect(res.status).toBe(200);
      const got = checkCgmProfiles((await res.json()) as Bundle);
      const startMs = Date.parse(`${q.get("startDate")}Z`);
      const endMs = Date.parse(`${q.get("endDate")}Z`);
      expect(instants(got.effectivePeriod)).toEqual([startMs, endMs]);
      expect(got.effectivePeriod?.start?.endsWith(chicagoOffset(startMs) ?? "?")).toBe(true);
      expect(got.effectivePeriod?.end?.endsWith(chicagoOffset(endMs) ?? "?")).toBe(true);
      expect(res.headers.get("content-disposition")).toContain(
        `filename="fhir_Fhir_Patient_Chicago_${chicagoDay(startMs)}_${chicagoDay(endMs)}.json"`,
      );
      // 14 days asked mid-day on the receiver's clock touch 15 of its dates: still 14 days at most,
      // and the summary API says the same.
      const summary = await (await get(`/api/clinic/patients/${p4.id}/summary?${q}`, clinicA.cookie)).json();
      expect(got.daysOfWear).toBe(summary.daysOfWear);
      expect(summary.daysOfWear).toBeGreaterThan(0);
      expect(summary.daysOfWear).toBeLessThanOrEqual(14);
      await parseR4(
        (await (await get(`/api/clinic/patients/${p4.id}/fhir?${q}`, clinicA.cookie)).json()) as Bundle,
      );
    }, 60_000);
  });

  it("answers a browser that cannot get the Bundle with a page that says why, and links back", async () => {
    const p = patients[0];
    if (!p) throw new Error("no patient");
    for (const [query, status, why] of [
      ["startDate=yesterday&endDate=2026-01-01T00:00:00", 400, /This period cannot be downloaded/],
      ["startDate=2020-01-01T00:00:00&endDate=2020-01-02T00:00:00", 404, /nothing to export/],
    ] as const) {
      const page = await fetchAs(
        `/api/clinic/patients/${p.id}/fhir?${query}`,
        clinicA.cookie,
        BROWSER_ACCEPT,
      );
      expect(page.status, query).toBe(status);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const html = (await page.text()).replaceAll("&#39;", "'");
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toMatch(why);
      expect(html).toContain(`<a href="/clinic/patients/${p.id}"`);
      expect(html).not.toContain('"error"');
      // API clients keep the JSON error; FHIR clients get it as an OperationOutcome.
      const json = await fetchAs(
        `/api/clinic/patients/${p.id}/fhir?${query}`,
        clinicA.cookie,
        "application/json",
      );
      expect(json.status).toBe(status);
      expect(json.headers.get("content-type")).toContain("application/json");
      expect(typeof (await json.json()).error).toBe("string");
      const fhir = await fetchAs(
        `/api/clinic/patients/${p.id}/fhir?${query}`,
        clinicA.cookie,
        "application/fhir+json",
      );
      expect(fhir.status).toBe(status);
      expect(fhir.headers.get("content-type")).toBe("application/fhir+json; charset=utf-8");
      const outcome = await fhir.json();
      expect(outcome).toMatchObject({
        resourceType: "OperationOutcome",
        issue: [{ severity: "error", code: status === 404 ? "not-found" : "invalid" }],
      });
      // The API's own message: what to change (the period's fault), or why there is nothing.
      expect(outcome.issue[0].details.text).toBe(
        (
          await (
            await fetchAs(`/api/clinic/patients/${p.id}/fhir?${query}`, clinicA.cookie, "application/json")
          ).json()
        ).message,
      );
      await parseR4(outcome);
    }
    // Another clinic's browser: the page too, never the patient's data.
    const other = await fetchAs(`/api/clinic/patients/${p.id}/fhir?days=14`, clinicB.cookie, BROWSER_ACCEPT);
    expect(other.status).toBe(404);
    expect(await other.text()).not.toContain(p.name);
  });
});

describe("a server that cannot print the PDF (no Chromium)", () => {
  let server: AppServer;
  let c: ReturnType<typeof clinicClient>;
  let dr: Awaited<ReturnType<ReturnType<typeof clinicClient>["clinician"]>>;
  let id = "";

  beforeAll(async () => {
    server = await startAppServer({
      ...UNLIMITED_CALL_BUDGET,
      CGM_API_VERSION: inject("apiVersion"),
      CHROMIUM_PATH: "/nonexistent/chromium",
    });
    c = clinicClient(server.url);
    dr = await c.clinician();
    const { token, page } = await c.addPatient(dr, "Fhir No Pdf", "1970-01-02");
    id = c.patientIdIn(page, "Fhir No Pdf");
    await c.acceptAsPatient(token, "SandboxUser1");
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (server) rmSync(server.dataDir, { recursive: true, force: true });
  });

  it("serves the Bundle without the PDF, marked so in a header, the Bundle's tag and the summary's note", async () => {
    const q = new URLSearchParams(period(7));
    const res = await c.get(`/api/clinic/patients/${id}/fhir?${q}`, dr.cookie, server.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-cgm-summary-pdf")).toBe("omitted");
    const bundle = (await res.json()) as Bundle;
    const got = checkCgmProfiles(bundle);
    expect(got.reports).toHaveLength(0);
    expect(bundle.meta?.tag?.map((t) => t.code)).toEqual(["summary-pdf-omitted"]);
    expect(bundle.meta?.tag?.[0]?.display).toMatch(/Chromium/);
    const summary = bundle.entry
      ?.map((e) => e.resource)
      .find((r) => r?.resourceType === "Observation" && r.code.coding?.[0]?.code === CODES.summary);
    expect(summary?.resourceType === "Observation" && summary.note?.[0]?.text).toMatch(
      /^No AGP report \(PDF\)/,
    );
    await parseR4(bundle);
    // The PDF itself still says why it cannot be had.
    const pdf = await c.get(`/api/clinic/patients/${id}/agp-pdf?${q}`, dr.cookie, server.url);
    expect(pdf.status).toBe(503);
  }, 120_000);
});
