import type { Metadata } from "next";
import Link from "next/link";
import { Panel } from "@/components/patient/Panel";
import { BlockedPage, PatientShell } from "@/components/patient/PatientShell";
import { ChoiceLinks } from "@/components/records/ChoiceLinks";
import { EventsTable } from "@/components/records/EventsTable";
import { DisplayTime } from "@/components/records/RecordTable";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import {
  countByType,
  deletedCount,
  eventTypeLabel,
  filterEvents,
  offeredEventTypes,
  parseDeletedToggle,
  parseEventTypeFilter,
} from "@/lib/records/events";
import { hrefWith, type SearchParam } from "@/lib/records/query";
import { newestOf, patientDaysText } from "@/lib/reports/patient-days";
import { parsePeriodChoice, REPORT_DEFAULT_DAYS, REPORT_PERIOD_DAYS } from "@/lib/reports/period";
import { patientClock, resolveReportPeriod } from "@/lib/reports/period-load";
import { readDataRange, readEvents } from "@/lib/sync/source";

export const metadata: Metadata = { title: "Events" };

const PATH = "/dashboard/events";
const TITLE = "Events";
const DEFAULTS = { days: String(REPORT_DEFAULT_DAYS), type: "all", deleted: "hide" };

/**
 * The patient's logged events (spec 2.3, v2) over the last 7–90 days on the receiver's clock,
 * ending on the day of their latest event (the service publishes late, and events come when they
 * are logged: counting back from today could show an empty page), by type, with deleted entries
 * on request. Filters are links: the page works without JavaScript.
 */
export default async function EventsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const params = await searchParams;
  const days = parsePeriodChoice(params.days);
  const type = parseEventTypeFilter(params.type);
  const deleted = parseDeletedToggle(params.deleted);

  const page = await patientPage();
  if (isBlocked(page)) return <BlockedPage current={PATH} title={TITLE} state={page.blocked} />;
  const data = await withServiceStates(async () => {
    const range = await readDataRange(page.connection);
    const clock = patientClock(page.connection, newestOf(range, "events"));
    const period = await resolveReportPeriod(clock, { kind: "days", days });
    if (!range.events || !period?.patientDays) return null;
    const { events } = await readEvents(page.connection, period);
    return {
      events,
      patientDays: period.patientDays,
      latestDisplayTime: range.events.end.displayTime,
    };
  });
  if (isBlocked(data)) return <BlockedPage current={PATH} title={TITLE} state={data.blocked} />;

  if (data === null) {
    return (
      <PatientShell current={PATH} title={TITLE}>
        <Panel title="No events recorded" id="events-empty">
          <p>
            No events were recorded in your CGM account. Carbs, insulin, exercise and health entries appear
            here once they are logged on your receiver or app and uploaded.
          </p>
        </Panel>
      </PatientShell>
    );
  }

  const current = { days: String(days), type, deleted };
  const href = (change: Record<string, string>) => hrefWith(PATH, current, change, DEFAULTS);
  const counts = countByType(data.events, deleted);
  const hidden = deletedCount(data.events, type);
  const listed = filterEvents(data.events, { type, deleted });
  const whatOf = (noun: string) => (type === "all" ? noun : `${eventTypeLabel(type).toLowerCase()} ${noun}`);
  const what = whatOf("events");

  return (
    <PatientShell current={PATH} title={TITLE}>
      <Panel title="Your logged events" id="events">
        <p
          className="text-slate-700 dark:text-slate-300"
          data-period={`${data.patientDays.firstDay}_${data.patientDays.lastDay}`}
        >
          {patientDaysText(data.patientDays)}, up to your latest event,{" "}
          <DisplayTime value={data.latestDisplayTime} />. Days and times are your receiver&apos;s clock.
        </p>
        <ChoiceLinks
          id="events-period"
          label="Period"
          choices={REPORT_PERIOD_DAYS.map((d) => ({
            href: href({ days: String(d) }),
            label: `${d} days`,
            current: d === days,
          }))}
        />
        <ChoiceLinks
          id="events-type"
          label="Type"
          choices={[
            { href: href({ type: "all" }), label: "All", current: type === "all", count: counts.all },
            ...offeredEventTypes(counts, type).map((t) => ({
              href: href({ type: t }),
              label: eventTypeLabel(t),
              current: type === t,
              count: counts[t],
            })),
          ]}
        />
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {deleted === "hide" ? (
            <>
              {hidden === 0
                ? "No deleted entries in this period. "
                : `${hidden} deleted ${hidden === 1 ? "entry is" : "entries are"} hidden. `}
              {hidden > 0 && (
                <Link
                  href={href({ deleted: "show" })}
                  className="font-medium text-blue-800 underline dark:text-blue-300"
                >
                  Show deleted entries
                </Link>
              )}
            </>
          ) : (
            <>
              Deleted entries are listed, struck through and marked &ldquo;Deleted&rdquo;.{" "}
              <Link
                href={href({ deleted: "hide" })}
                className="font-medium text-blue-800 underline dark:text-blue-300"
              >
                Hide deleted entries
              </Link>
            </>
          )}
        </p>
        {listed.length === 0 ? (
          <p>No {what} on these days.</p>
        ) : (
          <EventsTable
            caption={`${listed.length} ${listed.length === 1 ? whatOf("event") : what}, newest first${deleted === "show" ? ", deleted entries included" : ""}`}
            events={listed}
            glucoseUnit={page.preferences.unit}
          />
        )}
      </Panel>
    </PatientShell>
  );
}
