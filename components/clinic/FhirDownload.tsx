import { MS_PER_DAY } from "@/lib/cgm/datetime";
import { FHIR_READINGS_MAX_DAYS } from "@/lib/fhir/export-limits";

/**
 * The period shown, as the FHIR CGM IG's Bundle for the clinic's health record: the summary, the
 * patient, the device and this AGP as PDF (GET /api/clinic/patients/{id}/fhir). A plain link, so
 * the browser saves the file the server names; the readings are offered for periods the export
 * takes them for.
 */
export function FhirDownload({
  patientId,
  query,
  label,
  readings,
}: {
  patientId: string;
  /** The period: startDate/endDate, or days. */
  query: Record<string, string>;
  label: string;
  /** Whether to offer the readings too (periods of up to FHIR_READINGS_MAX_DAYS days). */
  readings: boolean;
}) {
  const href = (withReadings: boolean) =>
    `/api/clinic/patients/${encodeURIComponent(patientId)}/fhir?${new URLSearchParams({
      ...query,
      ...(withReadings ? { readings: "true" } : {}),
    })}`;
  return (
    <p className="text-sm print:hidden" data-testid="fhir-download">
      For the health record:{" "}
      <a href={href(false)} className="font-medium text-blue-700 underline dark:text-blue-300">
        {label}
      </a>
      {readings && (
        <>
          {" · "}
          <a href={href(true)} className="text-blue-700 underline dark:text-blue-300">
            with the sensor readings
          </a>
        </>
      )}
    </p>
  );
}

/** Whether a period of [startMs, endMs] may carry its readings (lib/api/fhir-export.ts checks it again). */
export const readingsFit = (startMs: number, endMs: number) =>
  endMs - startMs <= FHIR_READINGS_MAX_DAYS * MS_PER_DAY;
