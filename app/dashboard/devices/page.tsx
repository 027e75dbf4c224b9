import type { Metadata } from "next";
import { BlockedPage, PatientShell } from "@/components/patient/PatientShell";
import { DevicesView } from "@/components/records/DevicesView";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import { loadDevices } from "@/lib/dashboard/records/devices";
import { DEVICES_PATH } from "@/lib/dashboard/records/devices-model";

export const metadata: Metadata = { title: "Devices" };

const TITLE = "Devices";

/**
 * The patient's devices (spec 2.4) that contributed data in the last 30 days on the receiver's
 * clock, with their alert schedules and settings; glucose thresholds in the patient's display unit.
 */
export default async function DevicesPage() {
  const page = await patientPage();
  if (isBlocked(page)) return <BlockedPage current={DEVICES_PATH} title={TITLE} state={page.blocked} />;
  const model = await withServiceStates(() => loadDevices(page.connection, page.preferences));
  if (isBlocked(model)) return <BlockedPage current={DEVICES_PATH} title={TITLE} state={model.blocked} />;
  return (
    <PatientShell current={DEVICES_PATH} title={TITLE}>
      <DevicesView model={model} />
    </PatientShell>
  );
}
