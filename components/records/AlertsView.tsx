import { Panel } from "@/components/patient/Panel";
import type { AlertsModel } from "@/lib/dashboard/records/alerts-model";
import { PATIENT, type Viewer, wordsFor } from "@/lib/records/viewer";
import { AlertsTable } from "./AlertsTable";
import { ChoiceLinks } from "./ChoiceLinks";
import { RecordsPeriod } from "./RecordsPeriod";

/** API v2 has no alerts: the page says so and asks nothing. */
export function AlertsUnavailable({ viewer = PATIENT }: { viewer?: Viewer }) {
  return (
    <Panel title="Alerts need API v3" id="alerts-unavailable">
      <p>
        {`The alerts ${wordsFor(viewer).your} device sounded are available only through version 3 of the glucose service's interface.`}{" "}
        This dashboard reads version 2, which reports alert settings (see Devices) but not the alerts
        themselves.
      </p>
    </Panel>
  );
}

/** The alerts page's body: the period, its links, the count of each alert and the table; null: no readings. */
export function AlertsView({ model, viewer = PATIENT }: { model: AlertsModel | null; viewer?: Viewer }) {
  const words = wordsFor(viewer);
  if (model === null) {
    return (
      <Panel title="No readings recorded" id="alerts-empty">
        <p>
          {`${viewer.kind === "clinic" ? "The patient's CGM account" : "Your CGM account"} has no readings yet, so no alerts either. Alerts appear here once ${words.your} device has uploaded readings.`}
        </p>
      </Panel>
    );
  }
  return (
    <Panel title={`Alerts ${words.your} device sounded`} id="alerts">
      <RecordsPeriod
        days={model.patientDays}
        latest={model.latestDisplayTime}
        what="reading"
        window={model.window}
        viewer={viewer}
        note={`An alert sounds until ${viewer.kind === "clinic" ? "the patient acknowledges" : "you acknowledge"} it (it is then snoozed, and may sound again) or until its condition clears.`}
      />
      <ChoiceLinks id="alerts-period" label="Period" choices={model.periodChoices} />
      {model.soundings.length === 0 ? (
        <p>No alert sounded on these days.</p>
      ) : (
        <>
          <ul aria-label="Alerts by kind" className="flex flex-wrap gap-2 text-sm">
            {model.counts.map((c) => (
              <li
                key={c.label}
                className="rounded bg-slate-100 px-2 py-0.5 text-slate-800 dark:bg-slate-800 dark:text-slate-200"
              >
                {c.label}: <span className="tabular-nums">{c.count}</span>
              </li>
            ))}
          </ul>
          <AlertsTable caption={model.caption} soundings={model.soundings} />
        </>
      )}
    </Panel>
  );
}
