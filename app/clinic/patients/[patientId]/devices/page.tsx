import type { Metadata } from "next";
import { ClinicPatientShell, ServiceStateNotice } from "@/components/clinic/ClinicPatientShell";
import { DevicesView } from "@/components/records/DevicesView";
import { clinicPatientPage } from "@/lib/clinic/views/patient-page";
import { isBlocked, withServiceStates } from "@/lib/dashboard/patient-page";
import { loadDevices } from "@/lib/dashboard/records/devices";
import { clinicViewer } from "@/lib/records/viewer";

export const metadata: Metadata = { title: "Patient's devices" };

/** A clinic patient's devices and their alert settings, as the patient's own devices page shows them. */
export default async function ClinicPatientDevices({ params }: { params: Promise<{ patientId: string }> }) {
  const { patientId } = await params;
  const page = await clinicPatientPage(patientId);
  const shell = { access: page.access, current: "/devices", title: "Devices" } as const;
  if (!page.connection) return <ClinicPatientShell {...shell} sharing={false} />;
  const { connection } = page;
  const viewer = clinicViewer(patientId);
  const model = await withServiceStates(() => loadDevices(connection, page.preferences, viewer));
  if (!isBlocked(model)) await page.audit("view.devices");
  return (
    <ClinicPatientShell {...shell} sharing>
      {isBlocked(model) ? (
        <ServiceStateNotice state={model.blocked} />
      ) : (
        <DevicesView model={model} viewer={viewer} />
      )}
    </ClinicPatientShell>
  );
}
