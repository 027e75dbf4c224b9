import type { Metadata } from "next";
import { CalibrationsView } from "@/components/records/CalibrationsView";
import { type ClinicViewProps, clinicPatientView } from "@/lib/dashboard/clinic-patient-view";
import { loadCalibrations } from "@/lib/dashboard/records/calibrations";
import { parsePeriodChoice } from "@/lib/reports/period/period";

export const metadata: Metadata = { title: "Patient's calibrations" };

/** A clinic patient's fingerstick calibrations, as the patient's own calibrations page lists them. */
export default function ClinicPatientCalibrations(props: ClinicViewProps) {
  return clinicPatientView(props, "/calibrations", {
    title: "Calibrations",
    parse: (search) => parsePeriodChoice(search.days),
    load: ({ connection, query: days, page, viewer }) =>
      loadCalibrations(connection, days, page.preferences, viewer),
    audit: (_, { query: days }) => ({ action: "view.calibrations", detail: `days ${days}` }),
    render: (model, { viewer }) => <CalibrationsView model={model} viewer={viewer} />,
  });
}
