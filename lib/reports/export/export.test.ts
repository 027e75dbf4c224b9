import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { parseDateTime } from "@/lib/cgm/datetime";
import type { DataRangeResponse } from "@/lib/cgm/schemas";
import { lastDays, periodOf } from "../period/period";
import {
  COLUMN_MEANINGS,
  dataDays,
  daysFromDates,
  EXPORT_COLUMNS,
  EXPORT_FILES,
  type ExportData,
  type ExportInfo,
  exportDataEndMs,
  exportFileName,
  exportFiles,
  exportHref,
  exportMethodsText,
  exportPageRequest,
  exportZip,
} from "./export";
import { METHODS_ENTRIES } from "./methods";

const ms = (t: string) => parseDateTime(t)!;

const data: ExportData = {
  apiVersion: "v2",
  egvs: {
    unit: "mmol/L",
    rateUnit: "mmol/L/min",
    egvs: [
      {
        systemTime: "2026-11-20T08:05:00",
        displayTime: "2026-11-20T09:05:00",
        value: 2.2,
        realtimeValue: 2.2,
        smoothedValue: null,
        status: "low",
        trend: "singleDown",
        trendRate: -0.12,
      },
    ],
  },
  events: [
    {
      systemTime: "2026-11-20T07:00:00",
      displayTime: "2026-11-20T08:00:00",
      eventType: "insulin",
      eventSubType: null,
      value: 4.5,
      unit: "units",
      eventId: "e1",
      eventStatus: "deleted",
    },
    {
      systemTime: "2026-11-20T07:01:00",
      displayTime: "2026-11-20T08:01:00",
      eventType: "carbs",
      eventSubType: null,
      value: 40,
      unit: "grams",
      eventId: "e2",
      eventStatus: "created",
    },
  ],
  calibrations: [],
};

const period = periodOf(ms("2026-11-09T14:05:00"), ms("2026-11-23T14:05:00"));
const info: ExportInfo = {
  period,
  request: { kind: "days", days: 14 },
  exportedAtMs: Date.UTC(2026, 10, 23, 14, 10, 12),
};

describe("exportFileName", () => {
  it("names whose records and the period's first and last day", () => {
    expect(exportFileName(period)).toBe("cgm-export_patient_2026-11-09_2026-11-23.zip");
    expect(exportFileName(lastDays(ms("2026-11-23T14:05:00"), 90), "Zoë Ann")).toBe(
      "cgm-export_Zoe_Ann_2026-08-25_2026-11-23.zip",
    );
  });
});

describe("exportHref", () => {
  it("asks the API for a number of days, or for the period's exact bounds", () => {
    expect(exportHref({ kind: "days", days: 30 })).toBe("/api/reports/export?days=30");
    expect(exportHref({ kind: "dates", period })).toBe(
      "/api/reports/export?startDate=2026-11-09T14%3A05%3A00&endDate=2026-11-23T14%3A05%3A00",
    );
  });
});

describe("exportDataEndMs", () => {
  const bounds = (end: string) => ({
    start: { systemTime: "2026-01-01T00:00:00", displayTime: "2026-01-01T00:00:00" },
    end: { systemTime: end, displayTime: end },
  });

  it("ends at the newest reading when there are readings, like every report", () => {
    const range: DataRangeResponse = {
      egvs: bounds("2026-11-23T14:05:00"),
      events: bounds("2026-11-23T15:00:00"),
      calibrations: null,
    };
    expect(exportDataEndMs(range)).toBe(ms("2026-11-23T14:05:00"));
  });

  it("ends at the newest event or calibration without readings, and is null for an empty account", () => {
    expect(
      exportDataEndMs({
        egvs: null,
        events: bounds("2026-11-20T10:00:00"),
        calibrations: bounds("2026-11-21T10:00:00"),
      }),
    ).toBe(ms("2026-11-21T10:00:00"));
    expect(exportDataEndMs({ egvs: null, events: null, calibrations: null })).toBeNull();
  });
});

describe("dataDays", () => {
  it("spans the earliest start and the latest end of any group", () => {
    const b = (start: string, end: string) => ({
      start: { systemTime: start, displayTime: start },
      end: { systemTime: end, displayTime: end },
    });
    expect(
      dataDays({
        egvs: b("2025-01-01T00:03:00", "2026-11-23T14:05:00"),
        events: b("2024-12-31T23:00:00", "2026-11-23T15:00:00"),
        calibrations: null,
      }),
    ).toEqual({ first: "2024-12-31", last: "2026-11-23" });
    expect(dataDays({ egvs: null, events: null, calibrations: null })).toBeNull();
  });
});

describe("daysFromDates", () => {
  it("is the patient's days, both included", () => {
    const r = daysFromDates("2026-11-09", "2026-11-23");
    expect(r).toEqual({ ok: true, days: { firstDay: "2026-11-09", lastDay: "2026-11-23" } });
  });

  it("takes one day and 90 days, not 91", () => {
    expect(daysFromDates("2026-11-23", "2026-11-23").ok).toBe(true);
    expect(daysFromDates("2026-08-26", "2026-11-23").ok).toBe(true);
    const r = daysFromDates("2026-08-25", "2026-11-23");
    expect(r).toEqual({ ok: false, message: "Choose at most 90 days; these span 91." });
  });

  it.each([
    [undefined, "2026-11-23", /both/],
    ["2026-11-09", "", /both/],
    ["09/11/2026", "2026-11-23", /first day is not a date/],
    ["2026-02-30", "2026-03-03", /first day is not a date/],
    ["2026-11-09", "2026-11-23T00:00:00", /last day is not a date/],
    ["2026-11-23", "2026-11-09", /must not be before/],
  ])("refuses %j to %j with a message", (from, to, message) => {
    const r = daysFromDates(from, to);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });
});

describe("exportPageRequest", () => {
  it("is one of the period choices, 14 days unless another is asked", () => {
    expect(exportPageRequest({})).toEqual({ request: { kind: "days", days: 14 }, error: null });
    expect(exportPageRequest({ days: "90" })).toEqual({ request: { kind: "days", days: 90 }, error: null });
    expect(exportPageRequest({ days: "91" }).request).toEqual({ kind: "days", days: 14 });
  });

  it("is the person's own days when either is given, and their days win over a choice", () => {
    expect(exportPageRequest({ days: "7", from: "2026-10-01", to: "2026-10-07" })).toEqual({
      request: { kind: "patientDays", patientDays: { firstDay: "2026-10-01", lastDay: "2026-10-07" } },
      error: null,
    });
    expect(exportPageRequest({ from: "2026-10-01" })).toEqual({
      request: null,
      error: "Choose both a first and a last day.",
    });
  });
});

describe("methods.txt", () => {
  const text = exportMethodsText(data, info);

  it("names the period, the data unit, the export time and the files", () => {
    expect(text).toContain(
      "Period: the 14 days up to the newest record, 2026-11-09T14:05:00 to 2026-11-23T14:05:00",
    );
    expect(text).toContain("Data unit: mmol/L (trend rates in mmol/L/min)");
    expect(text).toContain("Exported: 2026-11-23T14:10:12Z");
    expect(text).toContain("egvs.csv: 1 reading");
    expect(text).toContain("events.csv: 2 events, 1 of them deleted");
    expect(text).toContain("calibrations.csv: 0 calibrations");
  });

  it("heads the file with whose records they are, as every report names them, and no source path", () => {
    const identity = [
      { key: "patient", label: "Patient", value: "José García" },
      { key: "clinic", label: "Clinic", value: "Riverside" },
    ] as const;
    const t = exportMethodsText(data, { ...info, identity: [...identity] });
    expect(t).toContain("Patient: José García\r\nClinic: Riverside\r\n");
    expect(text).not.toMatch(/\blib\/|\.ts\b/);
  });

  it("names the API the records were read with, and how v3's records fill v2's columns", () => {
    expect(text).toContain("the records of the glucose data service (API v2), as it sent them");
    expect(text).not.toContain("API v3, which sends one value");
    const v3 = exportMethodsText({ ...data, apiVersion: "v3" }, info);
    expect(v3).toContain("read with its API v3, in the columns of its v2 records");
    expect(v3).toContain("it is written as value and as realtimeValue,\r\n  and smoothedValue is empty");
    expect(v3).not.toContain("(API v2), as it sent them");
  });

  it("names explicit dates as they are", () => {
    const t = exportMethodsText(data, { ...info, request: { kind: "dates", period } });
    expect(t).toContain("Period: 2026-11-09T14:05:00 to 2026-11-23T14:05:00 on systemTime (UTC)");
  });

  it("names a period chosen as days by its days on the receiver's clock, then its systemTime bounds", () => {
    const days = { firstDay: "2026-11-10", lastDay: "2026-11-23" };
    const t = exportMethodsText(data, { ...info, period: { ...period, patientDays: days } });
    expect(t).toContain(
      "Period: the 14 days up to the newest record, 2026-11-10 to 2026-11-23 on the receiver's clock (displayTime); 2026-11-09T14:05:00 to 2026-11-23T14:05:00 on systemTime (UTC)",
    );
    expect(exportFileName({ ...period, patientDays: days })).toBe(
      "cgm-export_patient_2026-11-10_2026-11-23.zip",
    );
    expect(exportHref({ kind: "patientDays", patientDays: days })).toBe(
      "/api/reports/export?from=2026-11-10&to=2026-11-23",
    );
  });

  it("says how 39, 401 and gaps were treated, and that values are as received", () => {
    expect(text).toMatch(/39 and 401/);
    expect(text).toContain("2.2 and 22.3");
    expect(text).toMatch(/Gaps are not filled/);
    expect(text).toMatch(/nothing converted .* nothing rounded/s);
  });

  it("describes every column of every file, and nothing else", () => {
    for (const [file, columns] of Object.entries(EXPORT_COLUMNS)) {
      expect(Object.keys(COLUMN_MEANINGS[file]!).sort()).toEqual(columns.map((c) => c.name).sort());
      for (const c of columns) expect(text).toContain(`    ${c.name}: ${COLUMN_MEANINGS[file]![c.name]}`);
    }
  });

  it("carries the whole methods note, and uses CRLF line ends", () => {
    for (const e of METHODS_ENTRIES) {
      expect(text).toContain(`${e.term}: ${e.definition}`);
      expect(text).toContain(`Source: ${e.source}`);
    }
    expect(text.replaceAll("\r\n", "")).not.toContain("\n");
  });
});

describe("exportZip", () => {
  it("holds the three CSVs and methods.txt, as exportFiles writes them", () => {
    const files = unzipSync(exportZip(data, info));
    expect(Object.keys(files)).toEqual([...EXPORT_FILES]);
    const expected = exportFiles(data, info);
    for (const name of EXPORT_FILES) expect(strFromU8(files[name]!)).toBe(expected[name]);
    expect(strFromU8(files["calibrations.csv"]!)).toBe("systemTime,displayTime,value,unit\r\n");
  });
});
