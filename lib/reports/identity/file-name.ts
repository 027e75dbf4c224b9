import { namedPeriodDays } from "../period/period-days";

/**
 * The names downloads are saved under. A clinician files reports of many patients in one folder,
 * so a name carries whose report it is and the period it covers (`agp_<patient>_<start>_<end>.pdf`),
 * in characters every file system and mail client keeps: ASCII letters, digits, `-` and `_`.
 */

/** The longest patient part of a name: long enough to tell patients apart, short for any file system. */
export const MAX_PATIENT_PART = 40;

/** What a patient's own report is named after when their account has no name. */
export const UNNAMED_PATIENT = "patient";

/**
 * A person's name as a file-name part: accents transliterated (é → e, ß → ss), every other run of
 * characters outside [A-Za-z0-9-] one `_`, at most MAX_PATIENT_PART long; "patient" when nothing
 * is left (no name, or a name in a script that has no ASCII letters).
 */
export function fileNamePart(name: string | null | undefined, max = MAX_PATIENT_PART): string {
  const ascii = (name ?? "")
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/ß/g, "ss")
    .replace(/[æÆ]/g, (c) => (c === "æ" ? "ae" : "AE"))
    .replace(/[øØ]/g, (c) => (c === "ø" ? "o" : "O"))
    .replace(/[łŁ]/g, (c) => (c === "ł" ? "l" : "L"))
    .replace(/[đĐ]/g, (c) => (c === "đ" ? "d" : "D"));
  const safe = ascii
    .replace(/[^A-Za-z0-9-]+/g, "_")
    .replace(/-{2,}/g, "-")
    .replace(/^[_-]+|[_-]+$/g, "");
  const cut = safe.slice(0, max).replace(/[_-]+$/, "");
  return cut === "" ? UNNAMED_PATIENT : cut;
}

/** A yyyy-mm-dd day as it goes into a name, or "unknown" for none (no reading in the period). */
const dayPart = (day: string | null | undefined) =>
  day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : "unknown";

export interface ReportFile {
  /** "agp" for the AGP PDF, "cgm-export" for the export's zip, "fhir" for the FHIR Bundle. */
  kind: "agp" | "cgm-export" | "fhir";
  patientName: string | null | undefined;
  /**
   * The period's first and last day (yyyy-mm-dd): on the patient's receiver clock when it was
   * chosen as days, else the UTC days of the startDate/endDate asked (period-days.ts), which the
   * report's identity lines name as UTC.
   */
  firstDay: string | null | undefined;
  lastDay: string | null | undefined;
}

const EXTENSIONS: Record<ReportFile["kind"], string> = { agp: "pdf", "cgm-export": "zip", fhir: "json" };

/** `agp_Jose_Garcia_2026-11-13_2026-11-26.pdf`, `cgm-export_patient_2026-11-13_2026-11-26.zip`. */
export function reportFileName(file: ReportFile): string {
  return `${file.kind}_${fileNamePart(file.patientName)}_${dayPart(file.firstDay)}_${dayPart(file.lastDay)}.${EXTENSIONS[file.kind]}`;
}

/**
 * The name of a download of a report's period: the days its identity lines name
 * (namedPeriodDays): the receiver's days when chosen as days, else the UTC days of its bounds.
 */
export function periodFileName(
  kind: ReportFile["kind"],
  patientName: string | null | undefined,
  period: Parameters<typeof namedPeriodDays>[0],
): string {
  const { firstDay, lastDay } = namedPeriodDays(period);
  return reportFileName({ kind, patientName, firstDay, lastDay });
}

/**
 * Content-Disposition for a download (RFC 6266): `filename` for every client and `filename*`
 * (RFC 5987, UTF-8) for those that read it. The names made here are ASCII already, so both carry
 * the same name; a name with any other character is reduced to a safe one rather than quoted.
 */
export function attachmentDisposition(fileName: string): string {
  const safe = fileName.replace(/[^A-Za-z0-9._-]/g, "_");
  return `attachment; filename="${safe}"; filename*=UTF-8''${encodeURIComponent(safe)}`;
}
