import { GlucoseTrace } from "@/components/charts/GlucoseTrace";
import type { NoteBand } from "@/components/charts/note-bands";
import { TraceTable } from "@/components/dashboard/TraceTable";
import { TimeInRange } from "@/components/glucose/TimeInRange";
import { Panel } from "@/components/patient/Panel";
import { AlertsTable } from "@/components/records/AlertsTable";
import { CalibrationsTable } from "@/components/records/CalibrationsTable";
import type { DayClockChange, DayModel } from "@/lib/dashboard/day-model";
import { PATIENT, type Viewer, wordsFor } from "@/lib/records/viewer";
import { DayEpisodes } from "./DayEpisodes";
import { DayEventsTable } from "./DayEventsTable";
import { DayNav } from "./DayNav";
import { DaySummary } from "./DaySummary";

function ClockChangeNotes({ changes }: { changes: DayClockChange[] }) {
  return (
    <div
      role="note"
      data-testid="clock-change-note"
      className="rounded-lg border border-sky-300 bg-sky-50 px-4 py-3 text-sm text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100"
    >
      {changes.map((c) => (
        <p key={c.t}>{c.note}</p>
      ))}
    </div>
  );
}

/** One day on the patient's clock: its trace, numbers, events and calibrations, and the way to other days. */
export function DayView({
  model,
  viewer = PATIENT,
  noteBands,
}: {
  model: DayModel;
  viewer?: Viewer;
  noteBands?: readonly NoteBand[];
}) {
  const { chart, unit, summary, coverage } = model;
  const readings = model.points.length;
  return (
    <div className="space-y-6">
      <DayNav
        day={model.day}
        previous={model.previous}
        next={model.next}
        firstDay={model.bounds.firstDay}
        lastDay={model.bounds.lastDay}
        viewer={viewer}
      />
      <Panel title="Glucose" id="day-trace">
        {model.clockChanges.length > 0 && <ClockChangeNotes changes={model.clockChanges} />}
        {readings === 0 ? (
          <p data-testid="no-readings">
            No readings on this day: the sensor was not sending, or its data has not reached the glucose
            service.
          </p>
        ) : (
          <>
            <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="trace-caption">
              {readings} {readings === 1 ? "reading" : "readings"} from{" "}
              {`${model.points[0]?.display.slice(11, 16)} to ${model.points.at(-1)?.display.slice(11, 16)} on ${wordsFor(viewer).clock}.`}{" "}
              {model.shading} Dashed lines at the very low and very high limits.
              {model.clockChanges.length > 0 && " A dotted line marks the change of the clock."}
              {noteBands && noteBands.length > 0 && " Orange columns mark the time ranges of notes."}
            </p>
            <GlucoseTrace overview={chart} bands={noteBands} />
            <TraceTable rows={model.table} unit={unit} by="hour" />
          </>
        )}
      </Panel>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="The day in numbers" id="day-numbers">
          <DaySummary summary={summary} coverage={coverage} unit={unit} />
        </Panel>
        <Panel title="Time in ranges" id="day-tir">
          {summary.goals ? (
            <TimeInRange
              judged={summary.goals}
              unit={unit}
              oneDay
              goalsCaption={
                <>
                  This day against the consensus goals · {summary.goals.groupLabel}
                  <span className="block text-xs font-normal text-slate-700 dark:text-slate-300">
                    One day judged alone: the goals are set for 14 days or more, so a single day can miss them
                    without the pattern doing so.
                  </span>
                </>
              }
            />
          ) : (
            <p>No readings on this day.</p>
          )}
        </Panel>
      </div>
      {/* Issue 14: the day's CGM episodes (work-episodes). */}
      <Panel title="Lows and highs" id="day-episodes">
        <DayEpisodes episodes={model.episodes} />
      </Panel>
      <Panel title="Events" id="day-events">
        {model.events.length === 0 ? (
          <p>No events were logged on this day.</p>
        ) : (
          <DayEventsTable events={model.events} />
        )}
      </Panel>
      {model.chart.alerts && model.chart.alerts.length > 0 && (
        <Panel title="Alerts" id="day-alerts">
          <AlertsTable
            caption={`${model.chart.alerts.length} ${model.chart.alerts.length === 1 ? "alert" : "alerts"} sounded on this day, newest first`}
            soundings={[...model.chart.alerts].reverse()}
          />
        </Panel>
      )}
      {model.calibrations.length > 0 && (
        <Panel title="Calibrations" id="day-calibrations">
          <CalibrationsTable
            caption={`${model.calibrations.length} fingerstick ${model.calibrations.length === 1 ? "calibration" : "calibrations"}, in the order they were entered`}
            rows={model.calibrations}
          />
        </Panel>
      )}
    </div>
  );
}
