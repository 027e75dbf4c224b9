import type { Metadata } from "next";
import { BlockedPage, PatientShell } from "@/components/patient/PatientShell";
import { EventsView } from "@/components/records/EventsView";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import { loadEvents } from "@/lib/dashboard/records/events";
import { EVENTS_PATH, parseEventsQuery } from "@/lib/dashboard/records/events-model";
import type { SearchParam } from "@/lib/records/query";

export const metadata: Metadata = { title: "Events" };

const TITLE = "Events";

/**
 * The patient's logged events (spec 2.3, v2) over the last 7–90 days on the receiver's clock,
 * ending on the day of their latest event, by type, with deleted entries on request.
 */
export default async function EventsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const query = parseEventsQuery(await searchParams);
  const page = await patientPage();
  if (isBlocked(page)) return <BlockedPage current={EVENTS_PATH} title={TITLE} state={page.blocked} />;
  const model = await withServiceStates(() => loadEvents(page.connection, query, page.preferences.unit));
  if (isBlocked(model)) return <BlockedPage current={EVENTS_PATH} title={TITLE} state={model.blocked} />;
  return (
    <PatientShell current={EVENTS_PATH} title={TITLE}>
      <EventsView model={model} />
    </PatientShell>
  );
}
