import { type CsvColumn, toCsv } from "@/lib/reports/export/csv";
import { fileNamePart } from "@/lib/reports/identity/file-name";
import { PERIOD_DAYS as POPULATION_DAYS, type PopulationRow, STATUS_LABELS } from "../views/population-model";

/**
 * The clinic day's packet: each PDF's name in the zip and the CSV of the population rows. Pure.
 */

export interface PacketItem {
  id: string;
  patientName: string;
  birthDate: string | null;
  clinicPatientId: string | null;
  /** The period as the report stated it ("2026-01-01_2026-01-14"), or null. */
  period: string | null;
}

/**
 * Each item's entry name, `agp_<name>_<date of birth, or the patient's id>_<period>.pdf`, in the
 * items' order. Two patients of the same name and date of birth get their item's id added, so no
 * two entries of one zip can ever share a name (a zip with two equal names silently drops one).
 */
export function entryNames(items: readonly PacketItem[]): Map<string, string> {
  const names = new Map<string, string>();
  const used = new Set<string>();
  for (const item of items) {
    const who = item.birthDate ?? `id-${(item.clinicPatientId ?? item.id).slice(0, 8)}`;
    // The period as the page states it, "<first day>_<last day>": each day kept apart by "_".
    const period = (item.period ?? "period").split("_").map((d) => fileNamePart(d, 20));
    const stem = ["agp", fileNamePart(item.patientName), fileNamePart(who), ...period].join("_");
    let name = `${stem}.pdf`;
    if (used.has(name.toLowerCase())) name = `${stem}_${fileNamePart(item.id)}.pdf`;
    used.add(name.toLowerCase());
    names.set(item.id, name);
  }
  return names;
}

/** A row of the packet's CSV: the patient's population row (null: no longer in the clinic) and the PDF's fate. */
export interface PacketRow {
  item: PacketItem;
  population: PopulationRow | null;
  /** The PDF's name in the zip, or null when it is missing. */
  file: string | null;
  /** Why the PDF is missing, in words. */
  missing: string | null;
}

/** Percentages and the mean to two decimals: the population view shows one (never across a threshold). */
const two = (v: number | null | undefined) =>
  v === null || v === undefined ? null : Math.round(v * 100) / 100;
const sum = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined ? null : two(a + b);
const ranges = (r: PacketRow) => r.population?.metrics?.timeInRanges ?? null;

/** The first and last day of a report's period as the page states it ("2026-01-01_2026-01-14"). */
function pdfDays(period: string | null): [string, string] | null {
  const m = /^(\d{4}-\d{2}-\d{2})_(\d{4}-\d{2}-\d{2})$/.exec(period ?? "");
  return m ? [m[1] as string, m[2] as string] : null;
}

const COLUMNS: readonly CsvColumn<PacketRow>[] = [
  { name: "patient", kind: "text", get: (r) => r.item.patientName },
  { name: "birthDate", kind: "text", get: (r) => r.item.birthDate },
  { name: "patientId", kind: "text", get: (r) => r.item.clinicPatientId },
  { name: "agpPdf", kind: "text", get: (r) => r.file },
  { name: "missing", kind: "text", get: (r) => r.missing },
  {
    name: "status",
    kind: "text",
    get: (r) => (r.population ? STATUS_LABELS[r.population.status] : "Removed"),
  },
  // The PDF's period and the numbers' period side by side, named apart: the numbers are the
  // population view's (its last 14 days, POPULATION_DAYS), whatever period the job's PDFs cover.
  { name: "pdfFirstDay", kind: "time", get: (r) => (r.file ? pdfDays(r.item.period)?.[0] : null) },
  { name: "pdfLastDay", kind: "time", get: (r) => (r.file ? pdfDays(r.item.period)?.[1] : null) },
  { name: "metricsFirstDay", kind: "time", get: (r) => r.population?.firstDay },
  { name: "metricsLastDay", kind: "time", get: (r) => r.population?.lastDay },
  { name: "metricsDays", kind: "number", get: (r) => (r.population?.metrics ? POPULATION_DAYS : null) },
  { name: "readings", kind: "number", get: (r) => r.population?.metrics?.nValues },
  // As the population view's columns: below 70 includes below 54, above 180 above 250.
  { name: "below54Percent", kind: "number", get: (r) => two(ranges(r)?.veryLow) },
  { name: "below70Percent", kind: "number", get: (r) => sum(ranges(r)?.veryLow, ranges(r)?.low) },
  { name: "inRangePercent", kind: "number", get: (r) => two(ranges(r)?.inRange) },
  { name: "above180Percent", kind: "number", get: (r) => sum(ranges(r)?.high, ranges(r)?.veryHigh) },
  { name: "above250Percent", kind: "number", get: (r) => two(ranges(r)?.veryHigh) },
  { name: "tightRangePercent", kind: "number", get: (r) => two(r.population?.metrics?.timeInTightRange) },
  { name: "meanMgdl", kind: "number", get: (r) => two(r.population?.metrics?.mean) },
  { name: "gmiPercent", kind: "number", get: (r) => two(r.population?.metrics?.gmi) },
  { name: "cvPercent", kind: "number", get: (r) => two(r.population?.metrics?.cv) },
  { name: "gri", kind: "number", get: (r) => two(r.population?.metrics?.gri) },
  {
    name: "sensorActivePercent",
    kind: "number",
    get: (r) => two(r.population?.metrics?.sensorActivePercent),
  },
  { name: "previousInRangePercent", kind: "number", get: (r) => two(r.population?.previousInRange) },
  { name: "flags", kind: "code", get: (r) => r.population?.flags.join(" ") },
  { name: "targetGroup", kind: "code", get: (r) => r.population?.targetGroup },
];

/**
 * One row per patient of the job, with the PDF's name and period (or why it is missing) and the
 * population view's numbers, of its last 14 days whatever the PDFs' period: the columns
 * metricsFirstDay, metricsLastDay and metricsDays say which days they cover.
 */
export function packetCsv(rows: readonly PacketRow[]): string {
  return toCsv(COLUMNS, rows);
}
