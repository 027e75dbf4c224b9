/**
 * The export's file name: the patient and the period's UTC days, in letters, digits, `-` and `_`
 * only, which every file system and mail client takes ("Renée O'Brien" → `Renee-O-Brien`).
 */
export function fhirFileName(patientName: string, startMs: number, endMs: number): string {
  const safe =
    patientName
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^A-Za-z0-9-]+/g, "-")
      .replace(/-{2,}/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "patient";
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return `fhir_${safe}_${day(startMs)}_${day(endMs)}.json`;
}
