import type { Metadata } from "next";
import { ClinicPatientShell, ServiceStateNotice } from "@/components/clinic/ClinicPatientShell";
import { EventsView } from "@/components/records/EventsView";
import { clinicPatientPage } from "@/lib/clinic/views/patient-page";
import { isBlocked, withServiceStates } from "@/lib/dashboard/patient-page";
import { loadEvents } from "@/lib/dashboard/records/events";
import { parseEventsQuery } from "@/lib/dashboard/records/events-model";
import type { SearchParam } from "@/lib/records/query";
import { clinicViewer } from "@/lib/records/viewer";

export const metadata: Metadata = { title: "Patient's events" };

/** A clinic patient's logged events, as the patient's own events page lists them. */
export default async function ClinicPatientEvents({
  params,
  searchParams,
}: {
  params: Promise<{ patientId: string }>;
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const { patientId } = await params;
  const query = parseEventsQuery(await searchParams);
  const page = await clinicPatientPage(patientId);
  const shell = { access: page.access, current: "/events", title: "Events" } as const;
  if (!page.connection) return <ClinicPatientShell {...shell} sharing={false} />;
  const { connection } = page;
  const viewer = clinicViewer(patientId);
  const model = await withServiceStates(() => loadEvents(connection, query, page.preferences.unit, viewer));
  if (!isBlocked(model)) await page.audit("view.events", `days ${query.days}, type ${query.type}`);
  return (
    <ClinicPatientShell {...shell} sharing>
      {isBlocked(model) ? (
        <ServiceStateNotice state={model.blocked} />
      ) : (
        <EventsView model={model} viewer={viewer} />
      )}
    </ClinicPatientShell>
  );
}
