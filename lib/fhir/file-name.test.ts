import { describe, expect, it } from "vitest";
import { fhirFileName } from "./file-name";

const start = Date.UTC(2026, 10, 13, 14, 1);
const end = Date.UTC(2026, 10, 27, 14, 1);

describe("fhirFileName", () => {
  it("names the patient and the period's days in safe characters", () => {
    expect(fhirFileName("Fhir Patient 1", start, end)).toBe("fhir_Fhir-Patient-1_2026-11-13_2026-11-27.json");
    expect(fhirFileName("Renée O'Brien", start, end)).toBe("fhir_Renee-O-Brien_2026-11-13_2026-11-27.json");
    expect(fhirFileName('../"x"\r\n; y', start, end)).toBe("fhir_x-y_2026-11-13_2026-11-27.json");
    expect(fhirFileName("李小龙", start, end)).toBe("fhir_patient_2026-11-13_2026-11-27.json");
  });
});
