import { describe, expect, it } from "vitest";
import { parseDateTime } from "@/lib/cgm/datetime";
import { periodOf } from "../period/period";
import {
  attachmentDisposition,
  fileNamePart,
  MAX_PATIENT_PART,
  periodFileName,
  reportFileName,
} from "./file-name";

const SAFE = /^[A-Za-z0-9_.-]+$/;

describe("fileNamePart", () => {
  it("transliterates accents and keeps letters, digits and hyphens", () => {
    expect(fileNamePart("José García-Núñez")).toBe("Jose_Garcia-Nunez");
    expect(fileNamePart("Zoë Ørsted Straße")).toBe("Zoe_Orsted_Strasse");
    expect(fileNamePart("Łukasz Đorđević")).toBe("Lukasz_Dordevic");
  });

  it("turns slashes, quotes, dots and spaces into one underscore, never a path or a quoted name", () => {
    expect(fileNamePart('../etc/"passwd"')).toBe("etc_passwd");
    expect(fileNamePart("O'Brien \\ Smith")).toBe("O_Brien_Smith");
    expect(fileNamePart("a;b\r\nContent-Type: x")).toBe("a_b_Content-Type_x");
  });

  it("bounds a very long name without a trailing separator", () => {
    const part = fileNamePart(`${"Maximilian ".repeat(20)}End`);
    expect(part.length).toBeLessThanOrEqual(MAX_PATIENT_PART);
    expect(part).toMatch(/^Maximilian_Maximilian/);
    expect(part).not.toMatch(/[_-]$/);
  });

  it('is "patient" for no name, a blank one, or one with no ASCII letter left', () => {
    expect(fileNamePart(null)).toBe("patient");
    expect(fileNamePart("")).toBe("patient");
    expect(fileNamePart("  / ")).toBe("patient");
    expect(fileNamePart("王小明")).toBe("patient");
  });
});

describe("reportFileName", () => {
  it("names the AGP PDF and the export zip by patient and period", () => {
    const period = { firstDay: "2026-11-13", lastDay: "2026-11-26" };
    expect(reportFileName({ kind: "agp", patientName: "José García", ...period })).toBe(
      "agp_Jose_Garcia_2026-11-13_2026-11-26.pdf",
    );
    expect(reportFileName({ kind: "cgm-export", patientName: null, ...period })).toBe(
      "cgm-export_patient_2026-11-13_2026-11-26.zip",
    );
  });

  it("names a period by its receiver-clock days when chosen as days, else by its bounds' days", () => {
    const bounds = periodOf(parseDateTime("2026-11-13T14:01:00")!, parseDateTime("2026-11-27T14:01:00")!);
    expect(periodFileName("fhir", "Renée O'Brien", bounds)).toBe(
      "fhir_Renee_O_Brien_2026-11-13_2026-11-27.json",
    );
    expect(
      periodFileName("agp", "X", {
        ...bounds,
        patientDays: { firstDay: "2026-11-14", lastDay: "2026-11-27" },
      }),
    ).toBe("agp_X_2026-11-14_2026-11-27.pdf");
  });

  it("gives two patients of the same period two names, each safe", () => {
    const a = reportFileName({
      kind: "agp",
      patientName: "Ann Lee",
      firstDay: "2026-11-01",
      lastDay: "2026-11-14",
    });
    const b = reportFileName({
      kind: "agp",
      patientName: "Bo Lee",
      firstDay: "2026-11-01",
      lastDay: "2026-11-14",
    });
    expect(a).not.toBe(b);
    for (const n of [a, b]) expect(n).toMatch(SAFE);
  });

  it("says unknown for a day it was not given, rather than inventing one or passing junk", () => {
    expect(reportFileName({ kind: "agp", patientName: "X", firstDay: null, lastDay: "../../x" })).toBe(
      "agp_X_unknown_unknown.pdf",
    );
  });
});

describe("attachmentDisposition", () => {
  it("carries filename and filename* (RFC 6266, RFC 5987) with the same safe name", () => {
    expect(attachmentDisposition("agp_Ann_2026-11-01_2026-11-14.pdf")).toBe(
      "attachment; filename=\"agp_Ann_2026-11-01_2026-11-14.pdf\"; filename*=UTF-8''agp_Ann_2026-11-01_2026-11-14.pdf",
    );
    expect(attachmentDisposition('a"b\\c.pdf')).toBe(
      "attachment; filename=\"a_b_c.pdf\"; filename*=UTF-8''a_b_c.pdf",
    );
  });
});
