import { describe, expect, it } from "vitest";
import {
  type Calibration,
  calibrationSchema,
  type EgvsV2Response,
  type EventV2,
  egvV2Schema,
  eventV2Schema,
} from "@/lib/cgm/schemas";
import { parseCsv } from "@/test/support/csv";
import {
  bySystemTime,
  CALIBRATION_COLUMNS,
  calibrationsCsv,
  csvField,
  EGV_COLUMNS,
  EVENT_COLUMNS,
  egvsCsv,
  eventsCsv,
  neutraliseFormula,
  toCsv,
} from "./csv";

describe("csvField", () => {
  it("writes plain text and codes as they are", () => {
    expect(csvField("carbs", "code")).toBe("carbs");
    expect(csvField("mg/dL", "code")).toBe("mg/dL");
    expect(csvField("2026-11-23T08:05:00", "time")).toBe("2026-11-23T08:05:00");
  });

  it("quotes a field holding a comma, a quote, CR or LF, doubling the quotes inside", () => {
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("two\r\nlines")).toBe('"two\r\nlines"');
    expect(csvField("cr\ronly")).toBe('"cr\ronly"');
    expect(csvField('"')).toBe('""""');
  });

  it("writes null and undefined as an empty field, and an empty string as one too", () => {
    expect(csvField(null, "number")).toBe("");
    expect(csvField(undefined, "text")).toBe("");
    expect(csvField("", "text")).toBe("");
  });

  it("writes numbers exactly, in their shortest form, never guarded or rounded", () => {
    expect(csvField(39, "number")).toBe("39");
    expect(csvField(401, "number")).toBe("401");
    expect(csvField(-1.5, "number")).toBe("-1.5");
    expect(csvField(-0.1, "number")).toBe("-0.1");
    expect(csvField(7.8, "number")).toBe("7.8");
    expect(csvField(0.1 + 0.2, "number")).toBe("0.30000000000000004");
    expect(csvField(5.0, "number")).toBe("5");
    expect(csvField(0, "number")).toBe("0");
    // Even a number in a text column is a number.
    expect(csvField(-3, "text")).toBe("-3");
  });

  it("refuses a number that JSON cannot carry", () => {
    expect(() => csvField(Number.NaN, "number")).toThrow(/not finite/);
    expect(() => csvField(Number.POSITIVE_INFINITY, "number")).toThrow(/not finite/);
  });

  describe("formula injection", () => {
    it.each([
      ['=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'],
      ["+1+1", "'+1+1"],
      ["-2+3", "'-2+3"],
      ["@SUM(A1)", "'@SUM(A1)"],
      ["\tfoo", "'\tfoo"],
      ["\r=1", "'\r=1"],
    ])("a text field %j gets a leading apostrophe", (text, guarded) => {
      expect(neutraliseFormula(text)).toBe(guarded);
    });

    it("leaves text that does not start with a trigger alone, also when a trigger comes later", () => {
      expect(neutraliseFormula("heavy")).toBe("heavy");
      expect(neutraliseFormula("a=b")).toBe("a=b");
      expect(neutraliseFormula("")).toBe("");
    });

    it("guards text fields, then quotes them as any other", () => {
      expect(csvField("=1+2", "text")).toBe("'=1+2");
      expect(csvField('=cmd|" /C calc"!A0', "text")).toBe(`"'=cmd|"" /C calc""!A0"`);
      expect(csvField("-", "text")).toBe("'-");
    });

    it("never changes times, codes or numbers", () => {
      expect(csvField("-1.2", "code")).toBe("-1.2");
      expect(csvField("2026-01-01T00:00:00", "time")).toBe("2026-01-01T00:00:00");
      expect(csvField(-8, "number")).toBe("-8");
    });
  });
});

describe("toCsv", () => {
  const columns = [
    { name: "n", kind: "number" as const, get: (r: { n: number | null; s: string }) => r.n },
    { name: "s", kind: "text" as const, get: (r: { n: number | null; s: string }) => r.s },
  ];

  it("writes a header row and every row ended by CRLF", () => {
    expect(toCsv(columns, [{ n: 1, s: "a" }])).toBe("n,s\r\n1,a\r\n");
    expect(toCsv(columns, [])).toBe("n,s\r\n");
  });

  it("round-trips awkward text through an RFC 4180 reader", () => {
    const awkward = 'line one\r\nline "two", with comma';
    const text = toCsv(columns, [
      { n: null, s: awkward },
      { n: -2.5, s: "=1" },
    ]);
    expect(parseCsv(text)).toEqual([
      ["n", "s"],
      ["", awkward],
      ["-2.5", "'=1"],
    ]);
  });
});

describe("bySystemTime", () => {
  it("orders by systemTime and keeps the service's order within a second", () => {
    const rows = [
      { systemTime: "2026-01-02T00:00:00", id: "c" },
      { systemTime: "2026-01-01T00:00:00", id: "a" },
      { systemTime: "2026-01-02T00:00:00", id: "d" },
      { systemTime: "2026-01-01T23:59:59", id: "b" },
    ];
    expect(bySystemTime(rows).map((r) => r.id)).toEqual(["a", "b", "c", "d"]);
    expect(rows[0]?.id).toBe("c"); // the input is not changed
  });
});

// ---- The three files, from hand-written records -------------------------------------------------

const egvResponse: EgvsV2Response = {
  unit: "mg/dL",
  rateUnit: "mg/dL/min",
  egvs: [
    {
      systemTime: "2026-11-20T08:10:00",
      displayTime: "2026-11-20T09:10:00",
      value: 39,
      realtimeValue: 39,
      smoothedValue: null,
      status: "low",
      trend: "doubleDown",
      trendRate: -3.4,
    },
    {
      systemTime: "2026-11-20T08:05:00",
      displayTime: "2026-11-20T09:05:00",
      value: 121,
      realtimeValue: 118,
      smoothedValue: 121,
      status: null,
      trend: "flat",
      trendRate: 0.3,
    },
    {
      systemTime: "2026-11-20T08:15:00",
      displayTime: "2026-11-20T09:15:00",
      value: 401,
      realtimeValue: 401,
      smoothedValue: null,
      status: "high",
      trend: null,
      trendRate: null,
    },
  ],
};

describe("egvs.csv", () => {
  it("has a column for every field of the v2 EGV, plus the response's unit and rateUnit", () => {
    const names = EGV_COLUMNS.map((c) => c.name);
    expect([...names].sort()).toEqual([...Object.keys(egvV2Schema.shape), "unit", "rateUnit"].sort());
    expect(names).toEqual([
      "systemTime",
      "displayTime",
      "value",
      "unit",
      "realtimeValue",
      "smoothedValue",
      "status",
      "trend",
      "trendRate",
      "rateUnit",
    ]);
  });

  it("writes each reading as received, in systemTime order: 39 and 401 stay numbers with their status", () => {
    expect(parseCsv(egvsCsv(egvResponse))).toEqual([
      EGV_COLUMNS.map((c) => c.name),
      [
        "2026-11-20T08:05:00",
        "2026-11-20T09:05:00",
        "121",
        "mg/dL",
        "118",
        "121",
        "",
        "flat",
        "0.3",
        "mg/dL/min",
      ],
      [
        "2026-11-20T08:10:00",
        "2026-11-20T09:10:00",
        "39",
        "mg/dL",
        "39",
        "",
        "low",
        "doubleDown",
        "-3.4",
        "mg/dL/min",
      ],
      ["2026-11-20T08:15:00", "2026-11-20T09:15:00", "401", "mg/dL", "401", "", "high", "", "", "mg/dL/min"],
    ]);
  });

  it("keeps mmol/L values unconverted and unrounded", () => {
    const rows = parseCsv(
      egvsCsv({
        unit: "mmol/L",
        rateUnit: "mmol/L/min",
        egvs: [
          {
            systemTime: "2026-11-20T08:05:00",
            displayTime: "2026-11-20T08:05:00",
            value: 6.66,
            realtimeValue: 6.66,
            smoothedValue: null,
            status: null,
            trend: "fortyFiveDown",
            trendRate: -0.07,
          },
        ],
      }),
    );
    expect(rows[1]).toEqual([
      "2026-11-20T08:05:00",
      "2026-11-20T08:05:00",
      "6.66",
      "mmol/L",
      "6.66",
      "",
      "",
      "fortyFiveDown",
      "-0.07",
      "mmol/L/min",
    ]);
  });

  it("is a header row alone when there are no readings", () => {
    expect(egvsCsv({ ...egvResponse, egvs: [] })).toBe(
      "systemTime,displayTime,value,unit,realtimeValue,smoothedValue,status,trend,trendRate,rateUnit\r\n",
    );
  });
});

const events: EventV2[] = [
  {
    systemTime: "2026-11-20T12:30:00",
    displayTime: "2026-11-20T13:30:00",
    eventType: "exercise",
    eventSubType: "heavy",
    value: 45,
    unit: "minutes",
    eventId: "b7a9c0e4-0000-4000-8000-000000000002",
    eventStatus: "created",
  },
  {
    systemTime: "2026-11-20T07:00:00",
    displayTime: "2026-11-20T08:00:00",
    eventType: "carbs",
    eventSubType: null,
    value: 42.5,
    unit: "grams",
    eventId: "b7a9c0e4-0000-4000-8000-000000000001",
    eventStatus: "deleted",
  },
  {
    systemTime: "2026-11-20T12:30:00",
    displayTime: "2026-11-20T13:30:00",
    eventType: "health",
    eventSubType: "illness",
    value: null,
    unit: null,
    eventId: "b7a9c0e4-0000-4000-8000-000000000003",
    eventStatus: "created",
  },
];

describe("events.csv", () => {
  it("has a column for every field of the v2 event", () => {
    // v2's fields, and a note's text (API v3).
    expect(EVENT_COLUMNS.map((c) => c.name).sort()).toEqual(
      [...Object.keys(eventV2Schema.shape), "text"].sort(),
    );
  });

  it("lists every event, deleted ones included and marked, in systemTime order", () => {
    const rows = parseCsv(eventsCsv(events));
    const header = rows[0]!;
    const at = (row: string[], name: string) => row[header.indexOf(name)];
    expect(rows).toHaveLength(4);
    expect(rows.slice(1).map((r) => at(r, "eventId"))).toEqual([
      "b7a9c0e4-0000-4000-8000-000000000001",
      "b7a9c0e4-0000-4000-8000-000000000002",
      "b7a9c0e4-0000-4000-8000-000000000003",
    ]);
    const deleted = rows[1]!;
    expect(at(deleted, "eventStatus")).toBe("deleted");
    expect(at(deleted, "eventType")).toBe("carbs");
    expect(at(deleted, "eventSubType")).toBe("");
    expect(at(deleted, "value")).toBe("42.5");
    expect(at(deleted, "unit")).toBe("grams");
    const health = rows[3]!;
    expect([at(health, "eventSubType"), at(health, "value"), at(health, "unit")]).toEqual([
      "illness",
      "",
      "",
    ]);
  });

  it("guards a subtype or id that a spreadsheet would run, and nothing else", () => {
    const hostile = {
      ...events[0]!,
      eventSubType: '=HYPERLINK("https://evil.example","x")',
      eventId: "@id",
    } as unknown as EventV2;
    const rows = parseCsv(eventsCsv([hostile]));
    const header = rows[0]!;
    const at = (name: string) => rows[1]![header.indexOf(name)];
    expect(at("eventSubType")).toBe('\'=HYPERLINK("https://evil.example","x")');
    expect(at("eventId")).toBe("'@id");
    expect(at("value")).toBe("45");
  });
});

describe("calibrations.csv", () => {
  const calibrations: Calibration[] = [
    { systemTime: "2026-11-20T19:00:00", displayTime: "2026-11-20T20:00:00", value: 6.2, unit: "mmol/L" },
    { systemTime: "2026-11-20T07:00:00", displayTime: "2026-11-20T08:00:00", value: 5.8, unit: "mmol/L" },
  ];

  it("has a column for every field of the calibration", () => {
    expect(CALIBRATION_COLUMNS.map((c) => c.name).sort()).toEqual(
      Object.keys(calibrationSchema.shape).sort(),
    );
  });

  it("writes each calibration as received, in systemTime order", () => {
    expect(calibrationsCsv(calibrations)).toBe(
      "systemTime,displayTime,value,unit\r\n" +
        "2026-11-20T07:00:00,2026-11-20T08:00:00,5.8,mmol/L\r\n" +
        "2026-11-20T19:00:00,2026-11-20T20:00:00,6.2,mmol/L\r\n",
    );
  });
});
