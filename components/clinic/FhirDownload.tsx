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
  period,
}: {
  patientId: string;
  period: { startDate: string; endDate: string; startMs: number; endMs: number };
}) {
  const href = (readings: boolean) =>
    `/api/clinic/patients/${encodeURIComponent(patientId)}/fhir?${new URLSearchParams({
      startDate: period.startDate,
      endDate: period.endDate,
      ...(readings ? { readings: "true" } : {}),
    })}`;
  const readingsAllowed = period.endMs - period.startMs <= FHIR_READINGS_MAX_DAYS * MS_PER_DAY;
  return (
    <p className="text-sm print:hidden" data-testid="fhir-download">
      For the health record:{" "}
      <a href={href(false)} className="font-medium text-blue-700 underline dark:text-blue-300">
        Download FHIR Bundle (summary and this PDF)
      </a>
      {readingsAllowed && (
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
