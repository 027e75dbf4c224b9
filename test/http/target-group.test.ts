import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { clientUnderTest } from "../support/client-under-test";
import { clinicClient } from "../support/clinic-client";
import { signIn } from "../support/dashboard-client";

/**
 * The target group per patient over HTTP, against the real server and sandbox (PGlite or
 * PostgreSQL): the patient chooses their goals in their settings, a clinic sets them on the
 * patient's page (audited; other clinics' and made-up ids get 404, a bad value a 400), each view
 * says which goals it uses, the patient is shown the clinic's choice, and the population view's
 * flags judge a pregnancy patient by the pregnancy goals (63–140 mg/dL), not the standard ones.
 */

const base = inject("baseUrl");
const { post, get, clinician, text, addPatient, acceptAsPatient, patientIdIn } = clinicClient(base);

const PREFS = { unit: "auto", inputUnit: "mg/dL", targetLow: "70", targetHigh: "180", returnTo: "/reports" };

const savePreferences = (cookie: string, fields: Record<string, string>) =>
  post("/api/preferences", { ...PREFS, ...fields }, { cookie });

const setGroup = (patientId: string, targetGroup: string, cookie?: string) =>
  post(`/api/clinic/patients/${patientId}/target-group`, { targetGroup }, { cookie });

/** The sentence the AGP page says its goals with. */
const goalsLine = (html: string) =>
  /data-testid="report-goals"[^>]*>(.*?)<\/p>/s.exec(html)?.[1]?.replace(/<[^>]+>/g, "") ?? "";

describe("the patient's own choice of goals", () => {
  let cookie: string;

  beforeAll(async () => {
    cookie = (await signIn(base, "SandboxUser5")).cookie;
  });

  afterAll(async () => {
    await savePreferences(cookie, { targetGroup: "" });
  });

  it("is saved from the settings form and used by the AGP, and a bad value is a 400 that says why", async () => {
    expect(goalsLine(await text(await get("/reports", cookie)))).toBe(
      "Goals: Type 1 and type 2 diabetes (the standard goals; none chosen).",
    );
    const saved = await savePreferences(cookie, { targetGroup: "pregnancy" });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe("/reports");
    const agp = await text(await get("/reports", cookie));
    expect(goalsLine(agp)).toBe("Goals: Pregnancy, type 1 diabetes (chosen by you).");
    // The metrics panel judges by the pregnancy range, and the PDF link asks for no other group.
    expect(agp).toContain("· Pregnancy, type 1 diabetes");
    expect(agp).toMatch(/data-testid="pdf-a4"/);
    expect(agp).not.toMatch(/agp-pdf\?[^"]*targets=/);
    // The query still overrides for a one-off look, and the page says so.
    const oneOff = await text(await get("/reports?targets=standard", cookie));
    expect(goalsLine(oneOff)).toBe(
      "Showing the goals for Type 1 and type 2 diabetes for this look only; your goals are Pregnancy, type 1 diabetes. Show your goals",
    );

    const bad = await savePreferences(cookie, { targetGroup: "children" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toContain(
      'targetGroup must be "standard", "olderHighRisk", "pregnancy"',
    );
    // A form without the field (an older page) keeps the choice.
    const { returnTo: _, ...withoutGroup } = PREFS;
    expect(
      (await post("/api/preferences", { ...withoutGroup, returnTo: "/reports" }, { cookie })).status,
    ).toBe(303);
    expect(goalsLine(await text(await get("/reports", cookie)))).toContain("Pregnancy, type 1 diabetes");

    // The settings form shows it chosen, beside the target band, labelled as shading only.
    const dashboard = await text(await get("/dashboard", cookie));
    expect(dashboard).toContain("Goals for");
    expect(dashboard).toMatch(/<option value="pregnancy" selected="">/);
    expect(dashboard).toContain("Target band (shading only)");

    expect((await savePreferences(cookie, { targetGroup: "" })).status).toBe(303);
    expect(goalsLine(await text(await get("/reports", cookie)))).toContain("none chosen");
  }, 60_000);
});

describe("a clinic's choice of goals", () => {
  let clinicA: Awaited<ReturnType<typeof clinician>>;
  let clinicB: Awaited<ReturnType<typeof clinician>>;
  let patientCookie: string;
  let patientId: string;

  beforeAll(async () => {
    clinicA = await clinician();
    clinicB = await clinician();
    const { token, page } = await addPatient(clinicA, "Gwen Goals");
    patientId = patientIdIn(page, "Gwen Goals");
    // About 80 % in range 70–180 mg/dL and few lows, so within the standard goals; but much of
    // that range above 140.
    patientCookie = await acceptAsPatient(token, "SandboxUser3");
  }, 60_000);

  afterAll(async () => {
    await setGroup(patientId, "", clinicA.cookie);
    await savePreferences(patientCookie, { targetGroup: "" });
  });

  it("is set on the patient's page, written to the audit log, and refused outside the clinic", async () => {
    const page = await text(await get(`/clinic/patients/${patientId}`, clinicA.cookie));
    expect(page).toContain(
      "This clinic judges Gwen Goals by the goals for <strong>Type 1 and type 2 diabetes",
    );
    expect(page).toContain('action="/api/clinic/patients/');

    const saved = await setGroup(patientId, "pregnancy", clinicA.cookie);
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe(`/clinic/patients/${patientId}?goals=saved#goals`);
    const after = await text(await get(saved.headers.get("location") ?? "", clinicA.cookie));
    expect(after).toContain(
      "by the goals for <strong>Pregnancy, type 1 diabetes</strong>, as the clinic set them.",
    );
    expect(after).toMatch(/<option value="pregnancy" selected="">/);
    const agp = await text(await get(`/clinic/patients/${patientId}/agp`, clinicA.cookie));
    expect(goalsLine(agp)).toBe("Goals: Pregnancy, type 1 diabetes (set by the clinic).");
    expect(agp).toContain("· Pregnancy, type 1 diabetes");

    const log = await text(await get(`/clinic/audit?clinic=${clinicA.clinicId}`, clinicA.cookie));
    const entry = /<tr[^>]*data-action="patient\.target_group_set"[^>]*>(.*?)<\/tr>/s.exec(log)?.[1] ?? "";
    expect(entry).toContain("Gwen Goals");
    expect(entry).toContain("pregnancy: Pregnancy, type 1 diabetes");

    // Another clinic, a made-up id, the patient and the signed out: as if the patient did not exist.
    expect((await setGroup(patientId, "standard", clinicB.cookie)).status).toBe(404);
    expect((await setGroup("00000000-0000-4000-8000-000000000000", "standard", clinicA.cookie)).status).toBe(
      404,
    );
    expect((await setGroup(patientId, "standard", patientCookie)).status).toBe(404);
    expect((await setGroup(patientId, "standard")).status).toBe(401);
    // A value that is no group: a 400 that names the choices, and nothing changes.
    const bad = await setGroup(patientId, "teen", clinicA.cookie);
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toContain(
      'targetGroup must be "standard", "olderHighRisk", "pregnancy"',
    );
    const missing = await post(
      `/api/clinic/patients/${patientId}/target-group`,
      {},
      { cookie: clinicA.cookie },
    );
    expect(missing.status).toBe(400);
    const still = await text(await get(`/clinic/patients/${patientId}/agp`, clinicA.cookie));
    expect(goalsLine(still)).toContain("Pregnancy, type 1 diabetes");
  }, 60_000);

  it("is shown to the patient, whose own pages follow it until they choose, and the clinic's still win there", async () => {
    await setGroup(patientId, "pregnancy", clinicA.cookie);
    const dashboard = await text(await get("/dashboard", patientCookie));
    expect(dashboard).toContain(
      `Your clinic (${clinicA.form.clinicName}) has set your goals to: Pregnancy, type 1 diabetes. Your pages use them too.`,
    );
    expect(goalsLine(await text(await get("/reports", patientCookie)))).toBe(
      "Goals: Pregnancy, type 1 diabetes (set by your clinic).",
    );
    // The patient chooses otherwise: their own pages use theirs, the clinic's keep the clinic's.
    await savePreferences(patientCookie, { targetGroup: "standard" });
    expect(goalsLine(await text(await get("/reports", patientCookie)))).toBe(
      "Goals: Type 1 and type 2 diabetes (chosen by you).",
    );
    expect(await text(await get("/dashboard", patientCookie))).toContain(
      "Your own pages use the goals you chose (Type 1 and type 2 diabetes); your clinic's pages use theirs.",
    );
    expect(goalsLine(await text(await get(`/clinic/patients/${patientId}/agp`, clinicA.cookie)))).toBe(
      "Goals: Pregnancy, type 1 diabetes (set by the clinic).",
    );
    // Handed back to the patient, the clinic's pages follow the patient's choice.
    await setGroup(patientId, "", clinicA.cookie);
    expect(goalsLine(await text(await get(`/clinic/patients/${patientId}/agp`, clinicA.cookie)))).toBe(
      "Goals: Type 1 and type 2 diabetes (chosen by the patient).",
    );
    await savePreferences(patientCookie, { targetGroup: "" });
  }, 60_000);

  it("flags the pregnancy patient in the population view on the pregnancy goals, not the standard ones", async () => {
    const synced = await post(`/api/clinic/patients/${patientId}/sync`, {}, { cookie: clinicA.cookie });
    expect(synced.headers.get("location")).toContain("synced=synced");
    const rowOf = async () => {
      const html = await text(await get(`/clinic/population?clinic=${clinicA.clinicId}`, clinicA.cookie));
      const row = new RegExp(`<tr[^>]*data-patient="${patientId}"[\\s\\S]*?</tr>`).exec(html)?.[0] ?? "";
      return { html, row, flags: /data-flags="([^"]*)"/.exec(row)?.[1] ?? "" };
    };
    await setGroup(patientId, "standard", clinicA.cookie);
    const standard = await rowOf();
    await setGroup(patientId, "pregnancy", clinicA.cookie);
    const pregnancy = await rowOf();
    expect(pregnancy.row).toContain("Goals: Pregnancy, type 1 diabetes");
    expect(standard.row).not.toContain("Goals:");
    // The same readings: within the standard goals on highs, beyond the pregnancy goal above 140
    // (and short of its range 63–140).
    expect(standard.flags.split(" ")).not.toContain("high");
    expect(standard.flags.split(" ")).not.toContain("inRange");
    expect(pregnancy.flags.split(" ")).toEqual(expect.arrayContaining(["high", "inRange"]));
    expect(pregnancy.row).toContain("Above 140 ≥ 25 %");
    expect(pregnancy.row).toContain("In range 63–140 ≤ 70 %");
    // The triage settings say how the other groups are judged.
    expect(pregnancy.html).toContain(
      "Pregnancy, type 1 diabetes: Below 54 ≥ 1 %; Below 63 ≥ 4 %; Above 140 ≥ 25 %",
    );
  }, 90_000);
});

describe("migration 0015's daily counts below 63 and above 140 mg/dL", () => {
  it("fills the days synced before it exactly as the sync counts them", async () => {
    // The service client and database of this process (as population.test.ts): configured first.
    const client = await clientUnderTest(base);
    const { db, schema } = await import("@/lib/db");
    const sync = await import("@/lib/sync/pass");
    const database = await db();
    const connectionId = await client.connectPatient("SandboxUser2");
    await sync.runSyncPass({ connectionIds: [connectionId], settings: { backfillDays: 10 } });
    const days = schema.syncedEgvDays;
    const counts = () =>
      database
        .select({ day: days.day, n: days.n, below63: days.below63, above140: days.above140 })
        .from(days)
        .where(eq(days.connectionId, connectionId))
        .orderBy(days.day);
    const bySync = await counts();
    expect(bySync.length).toBeGreaterThanOrEqual(10);
    expect(bySync.some((d) => d.below63 > 0) && bySync.some((d) => d.above140 > 0)).toBe(true);
    // The days as they were before the migration: no counts yet (the column's default).
    await database.update(days).set({ below63: 0, above140: 0 }).where(eq(days.connectionId, connectionId));
    const migration = readFileSync("lib/db/migrations/0015_target_groups.sql", "utf8");
    const backfill = migration.split("--> statement-breakpoint").at(-1) ?? "";
    expect(backfill).toContain('UPDATE "synced_egv_days"');
    await database.execute(sql.raw(backfill));
    expect(await counts()).toEqual(bySync);
  }, 120_000);
});
