import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type DataRangeResponse, egvsV2ResponseSchema, parseDateTime } from "@/lib/cgm";
import type { Overview } from "@/lib/dashboard/overview-model";
import { clinicClient } from "../support/clinic-client";
import { dashboardApp, developer, proxyGet } from "../support/dashboard-client";
import { dt } from "../support/sandbox-client";
import { apiVersion, dataPath } from "../support/service-reference";

/**
 * The patient's own overview when a clinic has synced their data and the service has released
 * readings since: the synced copy must not hold the latest glucose back. Over HTTP against the real
 * server and sandbox: a clinic syncs the patient ("Sync now") while the service acts an hour late
 * (its releaseDelayMinutes fault), the delay is lifted (an hour of readings released after the
 * sync), and the overview must show the service's newest reading, with every reading of its
 * windows exactly once: the copy's part and the service's newer part joined without a duplicate
 * or a gap.
 */

const base = inject("baseUrl");
const service = developer(base, dashboardApp(inject("dataDir")));
const { post, clinician, addPatient, acceptAsPatient, patientIdIn } = clinicClient(base);
const DELAY_MINUTES = 60;

afterAll(async () => {
  await service.faults({});
});

describe("a patient's overview after a clinic's sync that the service has moved past", () => {
  let patient: { cookie: string };
  let syncedEndMs: number;

  beforeAll(async () => {
    const clinic = await clinician();
    const { token, page } = await addPatient(clinic, "Sam Synced");
    const patientId = patientIdIn(page, "Sam Synced");
    patient = { cookie: await acceptAsPatient(token, "SandboxUser1") };
    try {
      await service.faults({ releaseDelayMinutes: DELAY_MINUTES });
      syncedEndMs = await newestAtService();
      const synced = await post(`/api/clinic/patients/${patientId}/sync`, {}, { cookie: clinic.cookie });
      expect(synced.headers.get("location")).toContain("&synced=synced&");
    } finally {
      await service.faults({});
    }
  }, 120_000);

  async function newestAtService(): Promise<number> {
    const range = (await (await proxyGet(base, patient, dataPath("dataRange"))).json()) as DataRangeResponse;
    return parseDateTime(range.egvs?.end.systemTime ?? "") ?? 0;
  }

  async function serviceEgvTimes(startMs: number, endMs: number): Promise<number[]> {
    const res = await proxyGet(
      base,
      patient,
      `${dataPath("egvs")}?startDate=${dt(startMs)}&endDate=${dt(endMs)}`,
    );
    const body = await res.json();
    // v3: the envelope's records, as the dashboard reads them (systemTime a UTC DateTime).
    const records: Array<{ systemTime: string }> =
      apiVersion() === "v3" ? body.records : egvsV2ResponseSchema.parse(body).egvs;
    return records.map((e) => parseDateTime(e.systemTime) ?? 0);
  }

  it("shows the service's newest reading, not the copy's, and every reading once", async () => {
    // The sandbox is live: a reading may land between the overview and the check; then again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const newest = await newestAtService();
      expect(newest, "readings were released after the clinic's sync").toBeGreaterThan(syncedEndMs);
      const res = await fetch(`${base}/api/dashboard/overview?range=3h`, {
        headers: { Cookie: patient.cookie },
      });
      expect(res.status).toBe(200);
      const o = (await res.json()).overview as Overview;
      if ((await newestAtService()) !== newest) continue;
      expect(o.dataEndMs).toBe(newest);
      expect(o.latest?.t).toBe(newest);
      expect(o.freshness?.stale).toBe(false);
      // The 3-hour trace spans the join (the sync ended an hour ago): each reading exactly once.
      const drawn = o.trace.points.filter((p) => p.value !== null).map((p) => p.t);
      expect(drawn).toEqual(await serviceEgvTimes(o.trace.startMs, o.trace.endMs));
      expect(drawn.some((t) => t <= syncedEndMs)).toBe(true);
      expect(drawn.some((t) => t > syncedEndMs)).toBe(true);
      // And the 14-day summary counts the same readings as the service holds.
      const summarized = await serviceEgvTimes(o.summary.startMs, o.summary.endMs);
      expect(o.summary.ours.nValues).toBe(summarized.length);
      return;
    }
    throw new Error("the service's newest reading kept moving");
  }, 60_000);
});
