import type { CgmEvent } from "@/lib/cgm/app-records";
import type { GlucoseUnit } from "@/lib/cgm/units";
import {
  countByType,
  type DeletedToggle,
  deletedCount,
  type EventTypeFilter,
  eventTypeLabel,
  filterEvents,
  offeredEventTypes,
  parseDeletedToggle,
  parseEventTypeFilter,
} from "@/lib/records/events";
import { type Choice, hrefWith, type SearchParam } from "@/lib/records/query";
import { PATIENT, type Viewer, viewPath } from "@/lib/records/viewer";
import type { PatientDays } from "@/lib/reports/period/patient-days";
import { type PeriodChoice, parsePeriodChoice, REPORT_DEFAULT_DAYS } from "@/lib/reports/period/period";
import { periodChoices } from "@/lib/reports/period/period-choices";

/**
 * The events page's model: the logged events of the chosen days, by type, deleted entries on
 * request; every filter a plain link that keeps the others, so the page works without JavaScript.
 */

export const EVENTS_PATH = "/dashboard/events";
const DEFAULTS = { days: String(REPORT_DEFAULT_DAYS), type: "all", deleted: "hide" };

export interface EventsQuery {
  days: PeriodChoice;
  type: EventTypeFilter;
  deleted: DeletedToggle;
}

/** `?days=`, `?type=` and `?deleted=`; anything unknown is the default. */
export function parseEventsQuery(params: Record<string, SearchParam>): EventsQuery {
  return {
    days: parsePeriodChoice(params.days),
    type: parseEventTypeFilter(params.type),
    deleted: parseDeletedToggle(params.deleted),
  };
}

/** What the loader read: the period's events, its days, and the newest event's receiver time. */
export interface EventsData {
  events: readonly CgmEvent[];
  patientDays: PatientDays;
  latestDisplayTime: string;
}

export interface EventsModel {
  query: EventsQuery;
  patientDays: PatientDays;
  latestDisplayTime: string;
  periodChoices: Choice[];
  typeChoices: Choice[];
  /** Deleted events of the chosen type that are hidden (0 when they are shown). */
  hidden: number;
  /** The link that shows deleted entries, or hides them again. */
  deletedHref: string;
  /** The events listed, newest first. */
  listed: CgmEvent[];
  /** "events", or "carbs events" for one type: what the page lists. */
  what: string;
  caption: string;
  /** Meter readings in the patient's unit; null: as logged. */
  glucoseUnit: GlucoseUnit | null;
}

export function eventsModel(
  data: EventsData,
  query: EventsQuery,
  glucoseUnit: GlucoseUnit | null,
  viewer: Viewer = PATIENT,
): EventsModel {
  const { days, type, deleted } = query;
  const current = { days: String(days), type, deleted };
  const href = (change: Record<string, string>) =>
    hrefWith(viewPath(viewer, "/events"), current, change, DEFAULTS);
  const counts = countByType(data.events, deleted);
  const listed = filterEvents(data.events, { type, deleted });
  const whatOf = (noun: string) => (type === "all" ? noun : `${eventTypeLabel(type).toLowerCase()} ${noun}`);
  const what = whatOf("events");
  return {
    query,
    patientDays: data.patientDays,
    latestDisplayTime: data.latestDisplayTime,
    periodChoices: periodChoices(days, (d) => href({ days: String(d) })),
    typeChoices: [
      { href: href({ type: "all" }), label: "All", current: type === "all", count: counts.all },
      ...offeredEventTypes(counts, type).map((t) => ({
        href: href({ type: t }),
        label: eventTypeLabel(t),
        current: type === t,
        count: counts[t],
      })),
    ],
    hidden: deleted === "hide" ? deletedCount(data.events, type) : 0,
    deletedHref: href({ deleted: deleted === "hide" ? "show" : "hide" }),
    listed,
    what,
    caption: `${listed.length} ${listed.length === 1 ? whatOf("event") : what}, newest first${deleted === "show" ? ", deleted entries included" : ""}`,
    glucoseUnit,
  };
}
