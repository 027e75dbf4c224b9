import type { Bundle, DiagnosticReport, Observation } from "@medplum/fhirtypes";
import { NextRequest } from "next/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { CODES } from "@/lib/fhir/cgm-ig";
import { DEVICE_DAYS } from "@/lib/records/devices";
import { InputError } from "./errors";
import { fhirClientErrors, fhirExportRead } from "./fhir-export";
import type { PatientContext } from "./route";

/**
 * The FHIR export's own logic (lib/api/fhir-export.ts) with the service, the database and the PDF
 * printer replaced: which window the devices are read over, what a server that cannot print
 * answers, and the clock the Bundle's period is written on. The HTTP suite
 * (test/http/fhir-export.test.ts) tries the same against the real server and sandbox.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;

const calls = vi.hoisted(() => ({
  devices: [] as Array<{ startMs: number; endMs: number }>,
  pdf: null as null | (() => Promise<Response>),
  readings: [] as Array<{ t: number; displayTime: string; displayMs: number; mgdl: number }>,
}));

vi.mock("@/lib/service-client/client", () => ({
  configuredVersion: () => "v3",
  getDevices: async (_c: unknown, _v: unknown, w: { startMs: number; endMs: number }) => {
    calls.devices.push({ startMs: w.startMs, endMs: w.endMs });
    return {
      devices: [
        {
          transmitterGeneration: "g6",
          displayDevice: "iOS",
          lastUploadDate: "2026-01-02T00:00:00",
          alertScheduleList: [],
        },
        {
          transmitterGeneration: "g7",
          displayDevice: "android",
          lastUploadDate: "2026-01-14T00:00:00",
          alertScheduleList: [],
        },
      ],
    };
  },
}));
vi.mock("@/lib/db", () => ({ db: async () => ({}), schema: {} }));
vi.mock("@/lib/platform/env", () => ({ env: () => ({ APP_URL: "https://dash.example" }) }));
vi.mock("@/lib/clinic/security/pdf-render", () => ({ pdfRenderCookie: () => null }));
vi.mock("@/lib/clinic/domain/patients", () => ({
  clinicPatientFor: async (_v: string, id: string) => ({
    patient: { id, name: "Ann Example", birthDate: "1980-02-03" },
  }),
}));
vi.mock("@/lib/sync/source", () => ({ readSource: async () => ({ newest: {} }) }));
vi.mock("@/lib/reports/period/readings", () => ({
  loadReadings: async (_c: unknown, p: { startMs: number; endMs: number }) => ({
    dataUnit: "mg/dL",
    readings: calls.readings.filter((r) => r.t >= p.startMs && r.t <= p.endMs),
  }),
}));
vi.mock("./reports", async () => {
  const { reportPeriodSchema } = await import("@/lib/reports/period/period");
  return {
    reportPeriodFrom: (q: URLSearchParams) =>
      reportPeriodSchema.parse({ startDate: q.get("startDate"), endDate: q.get("endDate") }),
    agpPdfOf: () => calls.pdf?.() ?? Promise.resolve(new Response(new Uint8Array([37, 80, 68, 70]))),
  };
});

/** Readings every 15 minutes over [startMs, endMs] on a receiver `offsetH` hours from UTC. */
function wear(startMs: number, endMs: number, offsetH: number) {
  calls.readings = [];
  for (let t = startMs; t <= endMs; t += 15 * 60_000) {
    const displayMs = t + offsetH * HOUR;
    calls.readings.push({
      t,
      displayMs,
      displayTime: new Date(displayMs).toISOString().slice(0, 19),
      mgdl: 130,
    });
  }
}

function ctx(query: string): PatientContext {
  return {
    req: new NextRequest(`https://dash.example/api/clinic/patients/p-1/fhir?${query}`),
    params: { patientId: "p-1" },
    userId: "u-1",
    viewerId: "v-1",
    connection: {} as PatientContext["connection"],
    targetGroup: async () => ({ group: "standard" }) as Awaited<ReturnType<PatientContext["targetGroup"]>>,
  };
}

const byType = <T>(b: Bundle, type: string) =>
  (b.entry ?? []).map((e) => e.resource).filter((r) => r?.resourceType === type) as T[];

beforeEach(() => {
  calls.devices = [];
  calls.pdf = null;
});

describe("fhirExportRead", () => {
  it("reads the devices once, over the period's last 30 days at most, and names the newest upload", async () => {
    const end = Date.UTC(2026, 0, 15, 12);
    wear(end - 90 * DAY, end, 0);
    const q = `startDate=${new Date(end - 90 * DAY).toISOString().slice(0, 19)}&endDate=${new Date(end).toISOString().slice(0, 19)}`;
    const res = await fhirExportRead(ctx(q));
    expect(res.status).toBe(200);
    expect(calls.devices).toEqual([{ startMs: end - DEVICE_DAYS * DAY, endMs: end }]);
    const [device] = byType<{ deviceName: Array<{ name: string }> }>(await res.json(), "Device");
    expect(device?.deviceName[0]?.name).toBe("G7 transmitter · Android app");
  });

  it("serves the Bundle without the PDF when the server cannot print, marked as such", async () => {
    calls.pdf = () =>
      Promise.reject(new InputError("PDF rendering needs Chromium at /nowhere.", 503, "pdf_unavailable"));
    const end = Date.UTC(2026, 0, 15, 12);
    wear(end - 2 * DAY, end, 0);
    const res = await fhirExportRead(ctx("startDate=2026-01-13T12:00:00&endDate=2026-01-15T12:00:00"));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-cgm-summary-pdf")).toBe("omitted");
    const bundle = (await res.json()) as Bundle;
    expect(byType<DiagnosticReport>(bundle, "DiagnosticReport")).toHaveLength(0);
    expect(bundle.meta?.tag?.[0]).toMatchObject({ code: "summary-pdf-omitted" });
    expect(bundle.meta?.tag?.[0]?.display).toContain("Chromium");
    // A health record keeps the Bundle: no server path or browser output in it.
    expect(JSON.stringify(bundle)).not.toContain("/nowhere");
    const summary = byType<Observation>(bundle, "Observation").find(
      (o) => o.code.coding?.[0]?.code === CODES.summary,
    );
    expect(summary?.note?.[0]?.text).toMatch(
      /^No AGP report \(PDF\) in this Bundle: this server could not print the AGP report \(its Chromium/,
    );
  });

  it("keeps every other failure of the PDF an error (the clinician can retry)", async () => {
    calls.pdf = () => Promise.reject(new InputError("Try again in a moment.", 503, "report_unavailable"));
    wear(Date.UTC(2026, 0, 13, 12), Date.UTC(2026, 0, 15, 12), 0);
    await expect(
      fhirExportRead(ctx("startDate=2026-01-13T12:00:00&endDate=2026-01-15T12:00:00")),
    ).rejects.toMatchObject({
      code: "report_unavailable",
    });
  });

  it("includes the PDF when it prints", async () => {
    wear(Date.UTC(2026, 0, 13, 12), Date.UTC(2026, 0, 15, 12), 0);
    const res = await fhirExportRead(ctx("startDate=2026-01-13T12:00:00&endDate=2026-01-15T12:00:00"));
    expect(res.headers.get("x-cgm-summary-pdf")).toBe("included");
    const bundle = (await res.json()) as Bundle;
    expect(byType<DiagnosticReport>(bundle, "DiagnosticReport")[0]?.presentedForm?.[0]?.data).toBe(
      "JVBERg==",
    );
    expect(bundle.meta?.tag).toBeUndefined();
  });

  it("writes an explicit period's instants on the receiver's clock (Chicago, UTC−6) and names the file by its days", async () => {
    // 06:00 UTC is Chicago's midnight in January: the period is the receiver's 1 to 14 January.
    wear(Date.UTC(2026, 0, 1, 6), Date.UTC(2026, 0, 15, 5, 59), -6);
    const res = await fhirExportRead(ctx("startDate=2026-01-01T06:00:00&endDate=2026-01-15T05:59:59"));
    const bundle = (await res.json()) as Bundle;
    const summary = byType<Observation>(bundle, "Observation").find(
      (o) => o.code.coding?.[0]?.code === CODES.summary,
    );
    expect(summary?.effectivePeriod).toEqual({
      start: "2026-01-01T00:00:00-06:00",
      end: "2026-01-14T23:59:59-06:00",
    });
    // The same instants as asked.
    expect(Date.parse(summary?.effectivePeriod?.start ?? "")).toBe(Date.UTC(2026, 0, 1, 6));
    expect(res.headers.get("content-disposition")).toContain(
      'filename="fhir_Ann_Example_2026-01-01_2026-01-14.json"',
    );
    const wearDays = byType<Observation>(bundle, "Observation").find(
      (o) => o.code.coding?.[0]?.code === CODES.daysOfWear,
    );
    expect(wearDays?.valueQuantity?.value).toBe(14);
  });

  it("answers a FHIR client's error as an OperationOutcome, with the status and headers kept", async () => {
    const failing = fhirClientErrors(async () =>
      Response.json(
        { error: "too_many_requests", message: "Wait a minute." },
        { status: 429, headers: { "Retry-After": "30", "Cache-Control": "private, no-store" } },
      ),
    );
    const ask = (accept: string) =>
      failing(new NextRequest("https://dash.example/x", { headers: { Accept: accept } }), {
        params: Promise.resolve({}),
      });
    const res = await ask("application/fhir+json");
    expect(res.status).toBe(429);
    expect(res.headers.get("content-type")).toBe("application/fhir+json; charset=utf-8");
    expect(res.headers.get("retry-after")).toBe("30");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(await res.json()).toMatchObject({
      resourceType: "OperationOutcome",
      issue: [{ code: "throttled", details: { text: "Wait a minute." }, diagnostics: "too_many_requests" }],
    });
    expect(await (await ask("application/json")).json()).toEqual({
      error: "too_many_requests",
      message: "Wait a minute.",
    });
  });
});
