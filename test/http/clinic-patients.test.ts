import { beforeAll, describe, expect, inject, it } from "vitest";
import { clinicClient } from "../support/clinic-client";
import { dashboardApp, signIn } from "../support/dashboard-client";
import { dt, revokeAppAs } from "../support/sandbox-client";

/**
 * A clinic's patients over HTTP against the real server and the real sandbox: a clinician adds a
 * patient and gets the link (shown once), the patient connects through the dashboard's own sign-in
 * and allows access, the clinician reads the patient's dashboard, AGP and summary (the same numbers
 * as the patient's own), every view lands in the audit log, the patient withdraws, a clinician
 * removes, a revoked authorization shows as "reconnect needed". Every route that takes a patient
 * id is tried with other clinics' and other people's sessions, and with other clinics' and made-up
 * ids: all get 404 (or 401 signed out).
 */

const base = inject("baseUrl");
const app = dashboardApp(inject("dataDir"));
const {
  post,
  get,
  noticeOf,
  sessionOf,
  clinician,
  invite,
  PASSWORD,
  text,
  addPatient,
  acceptAsPatient,
  patientIdIn,
} = clinicClient(base);

/** The clinic's audit log as its page shows it, newest first: each row's action and text. */
async function auditRows(admin: { cookie: string; clinicId: string }) {
  const log = await text(await get(`/clinic/audit?clinic=${admin.clinicId}`, admin.cookie));
  return [...log.matchAll(/<tr[^>]*data-action="([^"]+)"[^>]*>(.*?)<\/tr>/gs)].map((m) => ({
    action: m[1] ?? "",
    row: m[2] ?? "",
  }));
}

const window = () => {
  const end = Date.now() - 60_000;
  return `startDate=${dt(end - 3 * 86_400_000)}&endDate=${dt(end)}`;
};

describe("a patient invited by a clinic", () => {
  let clinicA: Awaited<ReturnType<typeof clinician>>;
  let clinicB: Awaited<ReturnType<typeof clinician>>;
  let patientCookie: string;
  let otherPatient: string;
  let patientId: string;

  beforeAll(async () => {
    clinicA = await clinician();
    clinicB = await clinician();
    const { token, page } = await addPatient(clinicA, "Pat Example", "1980-02-29");
    expect(page).toContain("Pat Example");
    expect(page).toContain("born 1980-02-29");
    expect(page).toContain("Invitation sent");
    patientId = patientIdIn(page, "Pat Example");
    patientCookie = await acceptAsPatient(token, "SandboxUser2");
    otherPatient = (await signIn(base, "SandboxUser3")).cookie;
  }, 60_000);

  it("shows in the clinic as sharing, and the link cannot be used again", async () => {
    const page = await text(await get(`/clinic?clinic=${clinicA.clinicId}`, clinicA.cookie));
    expect(page).toMatch(/Pat Example.*Sharing/s);
    expect(page).toContain(`/clinic/patients/${patientId}/agp`);
    const sharing = await text(await get("/sharing", patientCookie));
    expect(sharing).toContain(clinicA.form.clinicName);
    expect(sharing).toContain(`Withdraw access of ${clinicA.form.clinicName}`);
  });

  it("refuses a used, a wrong and a missing link with words, not a 500", async () => {
    for (const [token, words] of [
      ["x".repeat(43), "This invitation link is not valid"],
      ["", "This invitation link is not valid"],
    ] as const) {
      const res = await get(`/share?token=${encodeURIComponent(token)}`);
      expect(res.status).toBe(200);
      expect(await text(res)).toContain(words);
    }
    const { token } = await addPatient(clinicA, "Twin Example");
    const twinCookie = await acceptAsPatient(token, "SandboxUser4");
    const again = await post("/api/sharing/accept", { token }, { cookie: twinCookie });
    expect(again.headers.get("location")).toContain("error=invitation_used");
    expect(await text(await get(`/share?token=${encodeURIComponent(token)}`, twinCookie))).toContain(
      "already been used",
    );
    // Accepting without a connected CGM account is sent back to connect first.
    const { token: third } = await addPatient(clinicA, "Third Example");
    const unsigned = await post("/api/sharing/accept", { token: third });
    expect(unsigned.headers.get("location")).toBe(
      `/share?token=${encodeURIComponent(third)}&error=connect_first`,
    );
  }, 60_000);

  it("gives the clinician the patient's dashboard, AGP and the same summary the patient gets", async () => {
    const dashboard = await get(`/clinic/patients/${patientId}`, clinicA.cookie);
    expect(dashboard.status).toBe(200);
    expect(dashboard.headers.get("cache-control")).toMatch(/no-store|private/);
    const html = await text(dashboard);
    expect(html).toContain("Pat Example");
    expect(html).toContain('data-testid="trace-caption"');
    expect(html).not.toContain("Display settings");
    const agp = await text(await get(`/clinic/patients/${patientId}/agp?days=7`, clinicA.cookie));
    expect(agp).toContain('data-testid="agp-report"');
    expect(agp).toMatch(new RegExp(`/api/clinic/patients/${patientId}/agp-pdf\\?[^"]*days=7`));

    const q = window();
    const theirs = await get(`/api/clinic/patients/${patientId}/summary?${q}`, clinicA.cookie);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get("cache-control")).toBe("private, no-store");
    const own = await get(`/api/reports/summary?${q}`, patientCookie);
    expect(await theirs.json()).toEqual(await own.json());
    const bad = await get(`/api/clinic/patients/${patientId}/summary?startDate=yesterday`, clinicA.cookie);
    expect(bad.status).toBe(400);

    // "Sync now": the patient's data in the clinic's copy, and in the population view.
    const synced = await post(`/api/clinic/patients/${patientId}/sync`, {}, { cookie: clinicA.cookie });
    expect(synced.status).toBe(303);
    expect(synced.headers.get("location")).toContain(`&synced=synced&patient=${patientId}`);
    const clinicPage = await text(await get(synced.headers.get("location") ?? "", clinicA.cookie));
    expect(clinicPage).toMatch(/Synced: the clinic's copy of the data is up to date/);
    // On the viewer's clock, which the server writes as UTC, named, until the browser names its own.
    expect(clinicPage).toMatch(
      /data synced (?:<!-- -->)?<time[^>]*>\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC<\/time>/,
    );
    const population = await text(await get(`/clinic/population?clinic=${clinicA.clinicId}`, clinicA.cookie));
    expect(population).toMatch(
      new RegExp(`data-patient="${patientId}"(?:(?!data-patient=).)*data-status="connected"`, "s"),
    );
  }, 60_000);

  it("refuses every patient-id route to other clinics, to patients and to the signed out", async () => {
    const stranger = "00000000-0000-4000-8000-000000000000";
    const { page: pageB } = await addPatient(clinicB, "Bea Elsewhere");
    const otherClinicsPatient = patientIdIn(pageB, "Bea Elsewhere");
    const reads = [
      `/clinic/patients/${patientId}`,
      `/clinic/patients/${patientId}/agp`,
      `/api/clinic/patients/${patientId}/summary?${window()}`,
      `/api/clinic/patients/${patientId}/export?days=7`,
      `/api/clinic/patients/${patientId}/agp-pdf?days=7`,
    ];
    const writes = [
      `/api/clinic/patients/${patientId}/invitation`,
      `/api/clinic/patients/${patientId}/sync`,
      `/api/clinic/patients/${patientId}/remove`,
    ];
    for (const cookie of [clinicB.cookie, patientCookie, otherPatient]) {
      for (const path of reads) expect((await get(path, cookie)).status, `${path}`).toBe(404);
      for (const path of writes) expect((await post(path, {}, { cookie })).status, `${path}`).toBe(404);
      for (const path of reads.map((p) => p.replace(patientId, stranger))) {
        expect((await get(path, cookie)).status, `${path}`).toBe(404);
      }
    }
    // Clinic A's own clinician, with a made-up id and with clinic B's patient: nothing found, and
    // clinic B's patient is neither re-invited, synced nor removed.
    for (const id of [stranger, otherClinicsPatient]) {
      for (const path of reads.map((p) => p.replace(patientId, id))) {
        expect((await get(path, clinicA.cookie)).status, `${path}`).toBe(404);
      }
      for (const path of writes.map((p) => p.replace(patientId, id))) {
        const res = await post(path, {}, { cookie: clinicA.cookie });
        expect(res.status, `${path}`).toBe(404);
        expect(noticeOf(res), `${path}`).toBeNull();
      }
    }
    for (const path of writes.map((p) => p.replace(patientId, stranger))) {
      for (const cookie of [clinicB.cookie, patientCookie]) {
        expect((await post(path, {}, { cookie })).status, `${path}`).toBe(404);
      }
    }
    expect(await text(await get(`/clinic?clinic=${clinicB.clinicId}`, clinicB.cookie))).toMatch(
      /Bea Elsewhere.*Invitation sent/s,
    );
    expect((await auditRows(clinicB)).map((r) => r.action)).toEqual(["patient.added"]);
    for (const path of reads.filter((p) => p.startsWith("/api"))) expect((await get(path)).status).toBe(401);
    for (const path of writes) expect((await post(path, {})).status).toBe(401);
    // A form from another site is refused before anything is looked up.
    const crossSite = await post(
      writes[2] ?? "",
      {},
      { cookie: clinicA.cookie, origin: "https://evil.example" },
    );
    expect(crossSite.status).toBe(403);
    // Another clinic's administrator cannot add a patient to clinic A either.
    const foreignAdd = await post(
      "/api/clinic/patients",
      { clinicId: clinicA.clinicId, name: "Intruder" },
      {
        cookie: clinicB.cookie,
      },
    );
    expect(foreignAdd.status).toBe(404);
    // Nor read its audit log; and clinic A's list is not in clinic B's page.
    expect((await get(`/clinic/audit?clinic=${clinicA.clinicId}`, clinicB.cookie)).status).toBe(404);
    // Clinic A's log is its administrators' only: a clinician of clinic A gets 403 (and is not
    // told they are a patient), a patient's session (which has no clinic) 404, the signed out the sign-in.
    const colleagueEmail = `colleague-${patientId.slice(0, 8)}@clinic.example`;
    const joined = await post("/api/clinic/sign-up", {
      name: "Dr Colleague",
      email: colleagueEmail,
      password: PASSWORD,
      invitation: await invite(clinicA, colleagueEmail),
    });
    const colleague = sessionOf(joined) ?? "";
    expect(colleague).not.toBe("");
    const byColleague = await get(`/clinic/audit?clinic=${clinicA.clinicId}`, colleague);
    expect(byColleague.status).toBe(403);
    const colleaguePage = await text(byColleague);
    expect(colleaguePage).toContain("administrators");
    expect(colleaguePage).not.toContain("patient account");
    expect(colleaguePage).not.toContain('data-testid="audit-log"');
    for (const cookie of [patientCookie, otherPatient]) {
      const byPatient = await get(`/clinic/audit?clinic=${clinicA.clinicId}`, cookie);
      expect(byPatient.status).toBe(404);
      expect(await text(byPatient)).not.toContain('data-testid="audit-log"');
    }
    const signedOut = await get(`/clinic/audit?clinic=${clinicA.clinicId}`);
    expect(signedOut.status).toBe(307);
    expect(signedOut.headers.get("location")).toBe("/clinic/sign-in");
    expect(await text(await get(`/clinic?clinic=${clinicA.clinicId}`, clinicB.cookie))).not.toContain(
      "Pat Example",
    );
    // A patient cannot withdraw another patient's share.
    expect((await post(`/api/sharing/${patientId}/withdraw`, {}, { cookie: otherPatient })).status).toBe(404);
  }, 120_000);

  it("logs who viewed and downloaded what, for the clinic's administrators", async () => {
    const agpViews = async () =>
      (await auditRows(clinicA)).filter((r) => r.action === "view.agp" && r.row.includes("Pat Example"))
        .length;
    const viewsBefore = await agpViews();
    expect(viewsBefore).toBe(1);
    // The PDF is one download; the page the server's browser prints it from is not a view.
    const pdf = await get(`/api/clinic/patients/${patientId}/agp-pdf?days=7`, clinicA.cookie);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(await agpViews()).toBe(viewsBefore);
    // A browser cannot pass itself off as that printer: a made-up marker is still a view.
    const forged = await get(
      `/clinic/patients/${patientId}/agp?days=7`,
      `${clinicA.cookie}; glucose.pdf-render=${Date.now() + 30_000}.${"A".repeat(43)}`,
    );
    expect(await text(forged)).toContain('data-testid="agp-report"');
    expect(await agpViews()).toBe(viewsBefore + 1);

    const exported = await get(`/api/clinic/patients/${patientId}/export?days=7`, clinicA.cookie);
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toBe("application/zip");
    const rows = await auditRows(clinicA);
    const mine = rows.filter((r) => r.row.includes("Pat Example"));
    const actions = mine.map((r) => r.action);
    for (const a of [
      "patient.added",
      "patient.accepted",
      "view.dashboard",
      "view.agp",
      "view.summary",
      "patient.synced",
      "download.agp_pdf",
      "download.export",
    ]) {
      expect(actions, a).toContain(a);
    }
    expect(actions.filter((a) => a === "download.agp_pdf")).toHaveLength(1);
    // "Sync now" says how it went.
    expect(mine.find((r) => r.action === "patient.synced")?.row).toMatch(/Dr Ada Example.*synced/s);
    // The population view, once per view: about all the clinic's patients, not one of them.
    const population = rows.filter((r) => r.action === "view.population");
    expect(population).toHaveLength(1);
    expect(population[0]?.row).toContain("Dr Ada Example");
    expect(population[0]?.row).toContain('data-testid="audit-all-patients"');
    expect(population[0]?.row).toMatch(/\d+ patients?/);
    // Newest first: the export just made is at the top, done by the clinician.
    expect(mine[0]?.action).toBe("download.export");
    expect(mine[0]?.row).toContain("Dr Ada Example");
    expect(mine[0]?.row).toContain("days=7");
    // The refused attempts of the other clinic and the patients left no entry.
    expect(actions.filter((a) => a === "view.dashboard")).toHaveLength(1);
  });

  it("stops the clinic's access when the patient withdraws, and says so", async () => {
    // The sandbox user may share with other tests' clinics too (the suites share one database):
    // withdraw the share of this clinic, found by its name.
    const sharing = await text(await get("/sharing", patientCookie));
    const clinicName = clinicA.form.clinicName;
    const entry = sharing.split("<li").find((li) => li.includes(`Withdraw access of ${clinicName}`)) ?? "";
    const shareId = /action="\/api\/sharing\/([0-9a-f-]{36})\/withdraw"/.exec(entry)?.[1] ?? "";
    expect(shareId).not.toBe("");
    const res = await post(`/api/sharing/${shareId}/withdraw`, {}, { cookie: patientCookie });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/sharing?withdrawn=1");
    const after = await text(await get("/sharing", patientCookie));
    expect(after).not.toContain(`/api/sharing/${shareId}/withdraw`);
    expect(after).toMatch(new RegExp(`id="withdrawn-heading".*${clinicName}, withdrawn`, "s"));
    const logBefore = (await auditRows(clinicA)).length;
    for (const path of [
      `/api/clinic/patients/${patientId}/summary?${window()}`,
      `/api/clinic/patients/${patientId}/export?days=7`,
      `/api/clinic/patients/${patientId}/agp-pdf?days=7`,
    ]) {
      const refused = await get(path, clinicA.cookie);
      expect(refused.status, path).toBe(409);
      expect(await refused.json()).toMatchObject({ error: "not_shared" });
    }
    const sync = await post(`/api/clinic/patients/${patientId}/sync`, {}, { cookie: clinicA.cookie });
    expect(sync.status).toBe(409);
    expect(await sync.json()).toMatchObject({ error: "not_shared" });
    const page = await text(await get(`/clinic/patients/${patientId}`, clinicA.cookie));
    expect(page).toContain("withdrew the clinic's access");
    expect(page).not.toContain('data-testid="trace-caption"');
    const agp = await get(`/clinic/patients/${patientId}/agp?days=7`, clinicA.cookie);
    expect(agp.status).toBe(200);
    const agpPage = await text(agp);
    expect(agpPage).toContain("withdrew the clinic's access");
    expect(agpPage).not.toContain('data-testid="agp-report"');
    // Nothing was shown, so nothing more was logged.
    expect((await auditRows(clinicA)).length).toBe(logBefore);
    expect(await text(await get(`/clinic?clinic=${clinicA.clinicId}`, clinicA.cookie))).toMatch(
      /Pat Example.*Access withdrawn/s,
    );
    // Withdrawing twice finds nothing to withdraw.
    expect((await post(`/api/sharing/${shareId}/withdraw`, {}, { cookie: patientCookie })).status).toBe(404);
  });
});

describe("a clinic's patient list", () => {
  it("explains a bad name or date of birth on the form", async () => {
    const admin = await clinician();
    for (const [fields, code] of [
      [{ name: "  " }, "patient_name"],
      [{ name: "A", birthDate: "2999-01-01" }, "birth_date"],
      [{ name: "A", birthDate: "1990-02-30" }, "birth_date"],
    ] as const) {
      const res = await post(
        "/api/clinic/patients",
        { clinicId: admin.clinicId, ...fields },
        { cookie: admin.cookie },
      );
      expect(res.headers.get("location")).toBe(
        `/clinic?clinic=${admin.clinicId}&patientError=${code}#add-patient`,
      );
    }
    const page = await text(
      await get(`/clinic?clinic=${admin.clinicId}&patientError=birth_date`, admin.cookie),
    );
    expect(page).toContain("Enter the date of birth as a real, past day");
  });

  it("removes a patient: gone from the list, access ended, recorded", async () => {
    const admin = await clinician();
    const { token, page } = await addPatient(admin, "Remy Removed");
    const id = patientIdIn(page, "Remy Removed");
    await acceptAsPatient(token, "SandboxUser1");
    expect((await get(`/api/clinic/patients/${id}/summary?${window()}`, admin.cookie)).status).toBe(200);
    const res = await post(`/api/clinic/patients/${id}/remove`, {}, { cookie: admin.cookie });
    expect(res.status).toBe(303);
    const after = await text(await get(`/clinic?clinic=${admin.clinicId}`, admin.cookie));
    expect(after).not.toContain("Remy Removed</");
    expect(after).toContain("No patients yet");
    expect((await get(`/api/clinic/patients/${id}/summary?${window()}`, admin.cookie)).status).toBe(404);
    const log = await text(await get(`/clinic/audit?clinic=${admin.clinicId}`, admin.cookie));
    expect(log).toMatch(/data-action="patient.removed".*Remy Removed/s);
  }, 60_000);

  it("shows a patient whose authorization was revoked at the service as reconnect needed", async () => {
    const admin = await clinician();
    const { token, page } = await addPatient(admin, "Rita Revoked");
    const id = patientIdIn(page, "Rita Revoked");
    await acceptAsPatient(token, "SandboxUser5");
    await revokeAppAs(base, app.client_id, "SandboxUser5");
    const refused = await get(`/api/clinic/patients/${id}/summary?${window()}`, admin.cookie);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: "reconnect_required" });
    expect(await text(await get(`/clinic?clinic=${admin.clinicId}`, admin.cookie))).toMatch(
      /Rita Revoked.*Reconnect needed.*reconnect their CGM account/s,
    );
  }, 60_000);
});
