import "server-only";
import type { GlucoseUnit } from "@/lib/cgm/units";
import type { Viewer } from "@/lib/records/viewer";
import type { ConnectionRef } from "@/lib/service-client/tokens";
import { readEvents, readSource } from "@/lib/sync/source";
import { type EventsModel, type EventsQuery, eventsModel } from "./events-model";
import { lastDaysOfGroup } from "./period-load";

/**
 * The events page's service calls: the events of the chosen days, ending on the day of the newest
 * event. Null when the service holds no events at all.
 */
export async function loadEvents(
  connection: ConnectionRef,
  query: EventsQuery,
  glucoseUnit: GlucoseUnit | null,
  viewer?: Viewer,
): Promise<EventsModel | null> {
  const source = await readSource(connection);
  const range = source.newest;
  const period = await lastDaysOfGroup(connection, source, "events", query.days);
  if (!range.events || !period?.patientDays) return null;
  const { events } = await readEvents(connection, period, source);
  return eventsModel(
    { events, patientDays: period.patientDays, latestDisplayTime: range.events.end.displayTime },
    query,
    glucoseUnit,
    viewer,
  );
}
