import type { Metadata } from "next";
import { DevicesView } from "@/components/records/DevicesView";
import { type ClinicViewProps, clinicPatientView } from "@/lib/dashboard/clinic-patient-view";
import { loadDevices } from "@/lib/dashboard/records/devices";

export const metadata: Metadata = { title: "Patient's devices" };

/** A clinic patient's devices and their alert settings, as the patient's own devices page shows them. */
export default function ClinicPatientDevices(props: ClinicViewProps) {
  return clinicPatientView(props, "/devices", {
    title: "Devices",
    load: ({ connection, page, viewer }) => loadDevices(connection, page.preferences, viewer),
    audit: () => ({ action: "view.devices" }),
    render: (model, { viewer }) => <DevicesView model={model} viewer={viewer} />,
  });
}
