import { describe, expect, it } from "vitest";
import { calibrationsEmptyText } from "./calibrations";
import { clinicViewer, exportApiPath, PATIENT, viewPath, wordsFor } from "./viewer";

describe("who views a patient's pages", () => {
  const clinic = clinicViewer("p 1");

  it("leads the patient to their own pages and a clinician under the patient's clinic page", () => {
    expect(viewPath(PATIENT, "")).toBe("/dashboard");
    expect(viewPath(PATIENT, "/day")).toBe("/dashboard/day");
    expect(viewPath(PATIENT, "/agp")).toBe("/reports");
    expect(viewPath(PATIENT, "/statistics")).toBe("/reports/statistics");
    expect(viewPath(clinic, "")).toBe("/clinic/patients/p%201");
    expect(viewPath(clinic, "/statistics")).toBe("/clinic/patients/p%201/statistics");
    expect(exportApiPath(PATIENT)).toBe("/api/reports/export");
    expect(exportApiPath(clinic)).toBe("/api/clinic/patients/p%201/export");
  });

  it("addresses the patient as you and a clinician about the patient", () => {
    expect(wordsFor(PATIENT).clock).toBe("your receiver's clock");
    expect(wordsFor(clinic).clock).toBe("the patient's receiver clock");
    expect(calibrationsEmptyText("g7", wordsFor(clinic))).toMatch(/^The patient's G7 sensor/);
    expect(calibrationsEmptyText(null, wordsFor(clinic))).toContain("in the patient's CGM account");
    for (const text of Object.values(wordsFor(clinic))) expect(text).not.toMatch(/\byour?\b/i);
  });
});
