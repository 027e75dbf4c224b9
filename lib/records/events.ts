import { CGM_EVENT_TYPES, type CgmEvent, type CgmEventType } from "@/lib/cgm/app-records";
import { eventTypeSchema } from "@/lib/cgm/schemas";
import type { GlucoseUnit } from "@/lib/cgm/units";
import { eventSubTypeLabel, eventTypeLabel, eventValueText } from "./labels";
import { firstParam, type SearchParam } from "./query";

export { eventSubTypeLabel, eventTitle, eventTypeLabel, eventValueText } from "./labels";

/**
 * The events page (spec 2.3): which events to list and how each one reads. v2 events carry
 * `eventStatus`; a deleted event is still listed on request, marked as deleted.
 */

export const EVENT_TYPES = CGM_EVENT_TYPES;
export type EventTypeFilter = CgmEventType | "all";
export type DeletedToggle = "show" | "hide";

/** `?type=`: carbs, insulin, exercise, health, or one of API v3's types; anything else is "all". */
export function parseEventTypeFilter(param: SearchParam): EventTypeFilter {
  const text = firstParam(param);
  return EVENT_TYPES.find((t) => t === text) ?? "all";
}

/** `?deleted=show` lists deleted events; anything else hides them. */
export function parseDeletedToggle(param: SearchParam): DeletedToggle {
  return firstParam(param) === "show" ? "show" : "hide";
}

/**
 * The events to list, newest first. Newest by systemTime: displayTime follows the receiver's clock,
 * which jumps when the patient travels or the clocks change, so it can run backwards.
 */
export function filterEvents(
  events: readonly CgmEvent[],
  filter: { type: EventTypeFilter; deleted: DeletedToggle },
): CgmEvent[] {
  return events
    .filter((e) => filter.type === "all" || e.eventType === filter.type)
    .filter((e) => filter.deleted === "show" || e.eventStatus !== "deleted")
    .sort((a, b) =>
      a.systemTime === b.systemTime
        ? a.eventId.localeCompare(b.eventId)
        : a.systemTime < b.systemTime
          ? 1
          : -1,
    );
}

/** How many events each type filter would list (deleted ones only when shown). */
export function countByType(
  events: readonly CgmEvent[],
  deleted: DeletedToggle,
): Record<EventTypeFilter, number> {
  const counts = Object.fromEntries([["all", 0], ...EVENT_TYPES.map((t) => [t, 0])]) as Record<
    EventTypeFilter,
    number
  >;
  for (const e of events) {
    if (deleted === "hide" && e.eventStatus === "deleted") continue;
    counts.all++;
    counts[e.eventType]++;
  }
  return counts;
}

/** Deleted events of the chosen type (the number the "show deleted" link offers). */
export function deletedCount(events: readonly CgmEvent[], type: EventTypeFilter): number {
  return events.filter((e) => e.eventStatus === "deleted" && (type === "all" || e.eventType === type)).length;
}

/**
 * The types to offer as filters: v2's four always (a patient sees what can be logged), API v3's
 * blood glucose, notes and other types when there are some, or when asked for.
 */
export function offeredEventTypes(
  counts: Record<EventTypeFilter, number>,
  current: EventTypeFilter,
): CgmEventType[] {
  const always = new Set<string>(eventTypeSchema.options);
  return EVENT_TYPES.filter((t) => always.has(t) || counts[t] > 0 || current === t);
}

/** An event as every list of events reads it (the events page, the day view): its columns' text. */
export interface EventRow {
  key: string;
  displayTime: string;
  type: string;
  /** A note's text (API v3) or the subtype's label; null: neither. */
  detail: string | null;
  /** The amount, a meter reading in `unit` (null: as logged); null: none. */
  amount: string | null;
}

export function eventRow(e: CgmEvent, unit: GlucoseUnit | null): EventRow {
  return {
    key: e.eventId,
    displayTime: e.displayTime,
    type: eventTypeLabel(e.eventType),
    // A note (API v3) has its text where other events have their detail.
    detail: e.text ?? eventSubTypeLabel(e.eventSubType),
    amount: eventValueText(e, unit),
  };
}
