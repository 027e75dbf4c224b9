import Link from "next/link";
import { Panel } from "@/components/patient/Panel";
import type { EventsModel } from "@/lib/dashboard/records/events-model";
import { PATIENT, type Viewer, wordsFor } from "@/lib/records/viewer";
import { ChoiceLinks } from "./ChoiceLinks";
import { EventsTable } from "./EventsTable";
import { RecordsPeriod } from "./RecordsPeriod";

/** The events page's body: the period, the filters, the deleted entries' toggle and the table; null: none logged. */
export function EventsView({ model, viewer = PATIENT }: { model: EventsModel | null; viewer?: Viewer }) {
  const words = wordsFor(viewer);
  if (model === null) {
    return (
      <Panel title="No events recorded" id="events-empty">
        <p>
          {`No events were recorded in ${words.account}. Carbs, insulin, exercise and health entries appear here once they are logged on ${words.your} receiver or app and uploaded.`}
        </p>
      </Panel>
    );
  }
  const { hidden, listed, what } = model;
  return (
    <Panel title={`${words.Your} logged events`} id="events">
      <RecordsPeriod days={model.patientDays} latest={model.latestDisplayTime} what="event" viewer={viewer} />
      <ChoiceLinks id="events-period" label="Period" choices={model.periodChoices} />
      <ChoiceLinks id="events-type" label="Type" choices={model.typeChoices} />
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {model.query.deleted === "hide" ? (
          <>
            {hidden === 0
              ? "No deleted entries in this period. "
              : `${hidden} deleted ${hidden === 1 ? "entry is" : "entries are"} hidden. `}
            {hidden > 0 && (
              <Link
                href={model.deletedHref}
                className="font-medium text-blue-800 underline dark:text-blue-300"
              >
                Show deleted entries
              </Link>
            )}
          </>
        ) : (
          <>
            Deleted entries are listed, struck through and marked &ldquo;Deleted&rdquo;.{" "}
            <Link href={model.deletedHref} className="font-medium text-blue-800 underline dark:text-blue-300">
              Hide deleted entries
            </Link>
          </>
        )}
      </p>
      {listed.length === 0 ? (
        <p>No {what} on these days.</p>
      ) : (
        <EventsTable caption={model.caption} events={listed} glucoseUnit={model.glucoseUnit} />
      )}
    </Panel>
  );
}
