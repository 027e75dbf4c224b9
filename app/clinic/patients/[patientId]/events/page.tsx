import type { Metadata } from "next";
import { EventsView } from "@/components/records/EventsView";
import { type ClinicViewProps, clinicPatientView } from "@/lib/dashboard/clinic-patient-view";
import { loadEvents } from "@/lib/dashboard/records/events";
import { parseEventsQuery } from "@/lib/dashboard/records/events-model";

export const metadata: Metadata = { title: "Patient's events" };

/** A clinic patient's logged events, as the patient's own events page lists them. */
export default function ClinicPatientEvents(props: ClinicViewProps) {
  return clinicPatientView(props, "/events", {
    title: "Events",
    parse: parseEventsQuery,
    load: ({ connection, query, page, viewer }) =>
      loadEvents(connection, query, page.preferences.unit, viewer),
    audit: (_, { query }) => ({ action: "view.events", detail: `days ${query.days}, type ${query.type}` }),
    render: (model, { viewer }) => <EventsView model={model} viewer={viewer} />,
  });
}
