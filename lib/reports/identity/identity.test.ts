import { describe, expect, it } from "vitest";
import type { CgmDevice } from "@/lib/cgm/app-records";
import {
  agpIdentity,
  deviceText,
  identityText,
  type ReportIdentityInput,
  reportIdentityLines,
} from "./identity";

const device = (d: Partial<CgmDevice>): CgmDevice => ({
  transmitterGeneration: "g7",
  displayDevice: "iOS",
  lastUploadDate: "2026-11-26T08:00:00",
  alertScheduleList: [],
  ...d,
});

const clinicInput: ReportIdentityInput = {
  viewer: "clinic",
  patientName: "José García",
  birthDate: "1980-04-02",
  clinicName: "Riverside Diabetes Clinic",
  period: { firstDay: "2026-11-13", lastDay: "2026-11-26", days: 14 },
  generatedAtMs: Date.UTC(2026, 10, 27, 13, 45, 10),
  devices: [device({ transmitterGenerationVariant: "g715day", displayApp: "G7" })],
  targetGroup: "Type 1 and type 2 diabetes",
};

const lineValue = (lines: ReturnType<typeof reportIdentityLines>, key: string) =>
  lines.find((l) => l.key === key)?.value;

describe("reportIdentityLines", () => {
  it("names a clinic's patient, date of birth, clinic, period, time made with its zone, device and target group", () => {
    const lines = reportIdentityLines(clinicInput);
    expect(lines.map((l) => l.key)).toEqual([
      "patient",
      "birthDate",
      "clinic",
      "period",
      "targetGroup",
      "generated",
      "device",
    ]);
    expect(lineValue(lines, "patient")).toBe("José García");
    expect(lineValue(lines, "birthDate")).toBe("1980-04-02");
    expect(lineValue(lines, "clinic")).toBe("Riverside Diabetes Clinic");
    expect(lineValue(lines, "period")).toBe(
      "2026-11-13 to 2026-11-26, 14 days on the patient's receiver clock",
    );
    expect(lineValue(lines, "generated")).toMatch(/^2026-11-27 13:45 UTC \(/);
    expect(lineValue(lines, "device")).toBe("Dexcom G7 15-day sensor, read by the Dexcom G7 app on iOS");
    expect(lineValue(lines, "targetGroup")).toContain("Type 1 and type 2 diabetes");
  });

  it("names the patient's own account, with no clinic or date of birth, on their receiver's clock", () => {
    const lines = reportIdentityLines({
      ...clinicInput,
      viewer: "patient",
      patientName: "Sam",
      clinicName: null,
    });
    expect(lines.map((l) => l.key)).not.toContain("clinic");
    expect(lines.map((l) => l.key)).not.toContain("birthDate");
    expect(lines[0]).toEqual({ key: "patient", label: "Account", value: "Sam" });
    expect(lineValue(lines, "period")).toContain("your receiver's clock");
  });

  it("names UTC as the clock of a window asked as startDate/endDate, never the receiver's", () => {
    const lines = reportIdentityLines({
      ...clinicInput,
      period: { firstDay: "2026-11-13", lastDay: "2026-11-26", days: 14, clock: "utc" },
    });
    expect(lineValue(lines, "period")).toBe(
      "2026-11-13 to 2026-11-26, 14 days on UTC (the service's systemTime, as startDate and endDate were asked)",
    );
    expect(lineValue(lines, "period")).not.toContain("receiver");
  });

  it("says what is missing instead of leaving a line empty", () => {
    const lines = reportIdentityLines({
      ...clinicInput,
      birthDate: null,
      period: { firstDay: null, lastDay: null, days: 7 },
      devices: null,
    });
    expect(lineValue(lines, "birthDate")).toBe("Not recorded");
    expect(lineValue(lines, "period")).toContain("no readings in it");
    expect(lineValue(lines, "device")).toMatch(/^Not known/);
    expect(lineValue(reportIdentityLines({ ...clinicInput, devices: [] }), "device")).toBe(
      "None uploaded in this period",
    );
  });

  it("puts the newest upload first as the device in use, and the period's others after it once", () => {
    const lines = reportIdentityLines({
      ...clinicInput,
      devices: [
        device({
          transmitterGeneration: "g6",
          displayDevice: "receiver",
          lastUploadDate: "2026-11-15T08:00:00",
        }),
        device({ displayApp: "G7", lastUploadDate: "2026-11-26T08:00:00" }),
        device({
          transmitterGeneration: "g6",
          displayDevice: "receiver",
          lastUploadDate: "2026-11-14T08:00:00",
        }),
      ],
    });
    expect(lineValue(lines, "device")).toBe(
      "Dexcom G7 sensor, read by the Dexcom G7 app on iOS; also in this period: Dexcom G6 sensor, read by a Dexcom receiver",
    );
  });
});

describe("deviceText", () => {
  it("reads v2's shape (no app, no variant) and v3's alike", () => {
    expect(deviceText(device({ displayDevice: "android" }))).toBe(
      "Dexcom G7 sensor, read by the Dexcom app on Android",
    );
    expect(deviceText(device({ transmitterGeneration: "dexcomPro", displayDevice: null }))).toBe(
      "Dexcom Pro sensor",
    );
    expect(deviceText(device({ transmitterGeneration: null, displayDevice: "unknown" }))).toBe(
      "Sensor of an unnamed generation",
    );
  });
});

describe("agpIdentity", () => {
  it("names the file after the same patient and period the lines show", () => {
    const identity = agpIdentity(clinicInput);
    expect(identity.fileName).toBe("agp_Jose_Garcia_2026-11-13_2026-11-26.pdf");
    expect(identityText(identity.lines).split("\n")[0]).toBe("Patient: José García");
  });
});
