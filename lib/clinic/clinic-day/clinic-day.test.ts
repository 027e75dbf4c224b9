import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { PopulationRow } from "../views/population-model";
import { entryNames, type PacketItem, packetCsv } from "./packet";
import { CLINIC_DAY_REFUSALS, chooseRows, parseClinicDayRequest, selectionLabel } from "./selection";
import { zipStream } from "./zip";

const row = (over: Partial<PopulationRow>): PopulationRow => ({
  id: "p1",
  name: "Ada",
  birthDate: null,
  status: "connected",
  firstDay: "2026-03-02",
  lastDay: "2026-03-15",
  metrics: null,
  previousInRange: null,
  lastDataAt: null,
  daysSinceLastData: null,
  hypoglycemiaRisk: null,
  riskKnown: false,
  targetGroup: "standard",
  flags: [],
  veryLowEpisodes: null,
  ...over,
});

describe("the clinic day's form", () => {
  it("takes all, a tag or a flag and one of the AGP's periods", () => {
    expect(parseClinicDayRequest("all", "14")).toEqual({
      ok: true,
      value: { selection: { kind: "all" }, days: 14 },
    });
    expect(parseClinicDayRequest("tag:t1", "90")).toEqual({
      ok: true,
      value: { selection: { kind: "tag", tagId: "t1" }, days: 90 },
    });
    expect(parseClinicDayRequest("flag:inRange", "7")).toEqual({
      ok: true,
      value: { selection: { kind: "flag", flag: "inRange" }, days: 7 },
    });
  });

  it("refuses another period, an unknown flag, an empty tag or nothing, saying what to choose", () => {
    for (const [patients, days] of [
      ["all", "15"],
      ["all", undefined],
      ["flag:nope", "14"],
      ["tag:", "14"],
      [undefined, "14"],
      ["everyone", "14"],
    ] as const) {
      const parsed = parseClinicDayRequest(patients, days);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(/^Choose/);
    }
    expect(Object.values(CLINIC_DAY_REFUSALS).every((m) => m.length > 20)).toBe(true);
  });

  it("chooses only patients who share their data, by flag or tag, in the view's order", () => {
    const rows = [
      row({ id: "a", name: "A", flags: ["inRange"] }),
      row({ id: "b", name: "B", status: "withdrawn", flags: ["inRange"] }),
      row({ id: "c", name: "C", status: "not_synced" }),
      row({ id: "d", name: "D", status: "invited" }),
    ];
    expect(chooseRows(rows, { kind: "all" }).map((r) => r.id)).toEqual(["a", "c"]);
    expect(chooseRows(rows, { kind: "flag", flag: "inRange" }).map((r) => r.id)).toEqual(["a"]);
    expect(chooseRows(rows, { kind: "tag", tagId: "t" }, new Set(["c", "b"])).map((r) => r.id)).toEqual([
      "c",
    ]);
    expect(selectionLabel({ kind: "flag", flag: "inRange" })).toBe("Flag: Low time in range");
    expect(selectionLabel({ kind: "tag", tagId: "t" }, "pump")).toBe("Tag: pump");
  });
});

describe("the packet", () => {
  const item = (over: Partial<PacketItem>): PacketItem => ({
    id: "item-0001-aaaa",
    patientName: "Ada Lovelace",
    birthDate: "1815-12-10",
    clinicPatientId: "11111111-2222",
    period: "2026-03-02_2026-03-15",
    ...over,
  });

  it("names each PDF by patient, date of birth or id, and period, in safe characters", () => {
    expect(entryNames([item({ patientName: "../Zoë O'Brien" })]).get("item-0001-aaaa")).toBe(
      "agp_Zoe_O_Brien_1815-12-10_2026-03-02_2026-03-15.pdf",
    );
    const names = entryNames([
      item({}),
      item({ id: "i2", birthDate: null, clinicPatientId: "abcdef0123456789" }),
    ]);
    expect(names.get("item-0001-aaaa")).toBe("agp_Ada_Lovelace_1815-12-10_2026-03-02_2026-03-15.pdf");
    expect(names.get("i2")).toBe("agp_Ada_Lovelace_id-abcdef01_2026-03-02_2026-03-15.pdf");
  });

  it("never gives two patients of one zip the same name, even with the same name and date of birth", () => {
    const items = [item({ id: "x1" }), item({ id: "x2" }), item({ id: "x3", patientName: "ADA LOVELACE" })];
    const names = [...entryNames(items).values()];
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(3);
  });

  it("writes one CSV row per patient with the population numbers and the PDF or why it is missing", () => {
    const population = row({
      id: "p1",
      metrics: {
        nValues: 4032,
        timeInRanges: { veryLow: 0.5, low: 3.25, inRange: 71.123, high: 20, veryHigh: 5.127 },
        timeInTightRange: 50,
        mean: 151.456,
        gmi: 6.9,
        cv: 33.3333,
        gri: 40,
        sensorActivePercent: 99.5,
        goals: [],
      },
      flags: ["veryHigh"],
    });
    const csv = packetCsv([
      // A 30-day PDF: its own period, beside the population view's 14 days.
      { item: item({ period: "2026-01-01_2026-01-30" }), population, file: "agp_a.pdf", missing: null },
      {
        item: item({ id: "i2", patientName: "=cmd" }),
        population: null,
        file: null,
        missing: "Withdrawn, sadly",
      },
    ]);
    const [header, first, second] = csv.split("\r\n");
    expect(header?.split(",").slice(0, 13)).toEqual([
      "patient",
      "birthDate",
      "patientId",
      "agpPdf",
      "missing",
      "status",
      // The PDF's period and the numbers' (the population view's 14 days), named apart.
      "pdfFirstDay",
      "pdfLastDay",
      "metricsFirstDay",
      "metricsLastDay",
      "metricsDays",
      "readings",
      "below54Percent",
    ]);
    expect(first).toContain(
      ",agp_a.pdf,,Sharing,2026-01-01,2026-01-30,2026-03-02,2026-03-15,14,4032,0.5,3.75,71.12,25.13,5.13,50,151.46,",
    );
    expect(first).toContain(",veryHigh,standard");
    // A name a spreadsheet would run is neutralised; the reason is quoted (it holds a comma).
    expect(second?.startsWith("'=cmd,")).toBe(true);
    expect(second).toContain('"Withdrawn, sadly",Removed,,,,,,');
  });
});

describe("the zip stream", () => {
  it("writes entries as they are read, skipping those without data, and unzips to the same bytes", async () => {
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 1, 2, 3]);
    let reads = 0;
    const stream = zipStream([
      {
        name: "a.pdf",
        data: async () => {
          reads++;
          return pdf;
        },
        compress: false,
      },
      { name: "gone.pdf", data: async () => null, compress: false },
      { name: "b.csv", data: async () => new TextEncoder().encode("x,y\r\n"), compress: true },
    ]);
    expect(reads).toBe(0);
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    const files = unzipSync(bytes);
    expect(Object.keys(files)).toEqual(["a.pdf", "b.csv"]);
    expect(files["a.pdf"]).toEqual(pdf);
    expect(strFromU8(files["b.csv"] as Uint8Array)).toBe("x,y\r\n");
  });
});
