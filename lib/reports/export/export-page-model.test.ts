import { describe, expect, it } from "vitest";
import { parseDateTime } from "@/lib/cgm/datetime";
import { type ExportData, exportModel, parseExportQuery } from "./export-page-model";

const ms = (s: string) => parseDateTime(s)!;
const period = {
  startDate: "2026-11-10T06:00:00",
  endDate: "2026-11-23T14:05:00",
  startMs: ms("2026-11-10T06:00:00"),
  endMs: ms("2026-11-23T14:05:00"),
  patientDays: { firstDay: "2026-11-10", lastDay: "2026-11-23" },
};
const data = (extra: Partial<ExportData> = {}): ExportData => ({
  newest: { t: ms("2026-11-23T14:05:00"), displayMs: ms("2026-11-23T08:05:00") },
  span: { first: "2026-09-01", last: "2026-11-23" },
  unit: "mg/dL",
  period,
  ...extra,
});

describe("parseExportQuery", () => {
  it("asks for the last 14 days by default, and for the own days when either is given", () => {
    expect(parseExportQuery({})).toEqual({
      request: { kind: "days", days: 14 },
      error: null,
      from: undefined,
      to: undefined,
    });
    expect(parseExportQuery({ from: "2026-11-01", to: "2026-11-07" }).request).toEqual({
      kind: "patientDays",
      patientDays: { firstDay: "2026-11-01", lastDay: "2026-11-07" },
    });
  });

  it("keeps the typed dates and the message after a mistake", () => {
    const q = parseExportQuery({ from: "2026-11-07", to: "2026-11-01" });
    expect(q.request).toBeNull();
    expect(q.error).toMatch(/\.$/);
    expect([q.from, q.to]).toEqual(["2026-11-07", "2026-11-01"]);
  });
});

describe("exportModel", () => {
  it("offers the download of the period, its file name breakable after the underscore", () => {
    const m = exportModel(data(), parseExportQuery({ days: "14" }));
    expect(m.newestDisplayTime).toBe("2026-11-23T08:05:00");
    expect(m.download).toMatchObject({
      href: "/api/reports/export?days=14",
      fileName: "cgm-export_patient_2026-11-10_2026-11-23.zip",
      fileNameParts: ["cgm-export_patient_", "2026-11-10_2026-11-23.zip"],
    });
    expect(m.form).toEqual({ from: "2026-11-10", to: "2026-11-23", error: null });
    expect(m.choices.map((c) => [c.href, c.current])).toEqual([
      ["/reports/export?days=7", false],
      ["/reports/export", true],
      ["/reports/export?days=30", false],
      ["/reports/export?days=90", false],
    ]);
  });

  it("marks no period link for own days, and keeps them in the form's link", () => {
    const m = exportModel(data(), parseExportQuery({ from: "2026-11-10", to: "2026-11-23" }));
    expect(m.choices.some((c) => c.current)).toBe(false);
    expect(m.download?.href).toBe("/api/reports/export?from=2026-11-10&to=2026-11-23");
  });

  it("offers no download after a mistake, and gives the form back as typed", () => {
    const m = exportModel(data({ period: null }), parseExportQuery({ from: "2026-11-23", to: "2026-11-10" }));
    expect(m.download).toBeNull();
    expect(m.form).toMatchObject({ from: "2026-11-23", to: "2026-11-10", error: expect.any(String) });
  });
});
