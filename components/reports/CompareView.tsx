import { Panel } from "@/components/patient/Panel";
import { ChoiceLinks } from "@/components/records/ChoiceLinks";
import { PATIENT, type PatientView, type Viewer, viewPath, wordsFor } from "@/lib/records/viewer";
import { ATTRIBUTION_MIN_CHANGE_POINTS } from "@/lib/reports/comparison/comparison";
import type { ComparisonReport } from "@/lib/reports/comparison/comparison-report";
import {
  blockRows,
  comparisonRows,
  type parseComparisonRequest,
  periodDays,
  SENSOR_ACTIVE_MIN_PERCENT,
  sensorShortfalls,
} from "@/lib/reports/comparison/comparison-view";
import { dayCount } from "@/lib/reports/period/patient-days";
import { REPORT_DEFAULT_DAYS } from "@/lib/reports/period/period";
import { periodChoices } from "@/lib/reports/period/period-choices";
import { BlockChart, BlockTable } from "./BlockChart";
import { CompareGoals } from "./CompareGoals";
import { AttributionMethod, CompareGriGrid, ComparePeriodForm, PeriodsText } from "./CompareParts";
import { ComparisonTable } from "./ComparisonTable";
import { MethodsNote } from "./MethodsNote";

const VIEW: PatientView = "/compare";

/**
 * Two periods side by side, as the patient's page and the clinic's page about the patient both
 * show them: the last `days` days of data (or a chosen recent period) against the same length
 * just before, every metric with its change, and where on the clock the shares of time in range
 * changed. Links and a GET form: it works without JavaScript.
 */
export function CompareView({
  request,
  report,
  viewer = PATIENT,
}: {
  request: ReturnType<typeof parseComparisonRequest>;
  /** Null: the service holds no readings (unused while the request is refused). */
  report: ComparisonReport | null;
  viewer?: Viewer;
}) {
  const path = viewPath(viewer, VIEW);
  const daysHref = (d: number) => (d === REPORT_DEFAULT_DAYS ? path : `${path}?days=${d}`);
  const words = wordsFor(viewer);
  const choices = (
    <ChoiceLinks
      id="compare-length"
      label="Length"
      choices={periodChoices(
        request.ok && request.value.kind === "days" ? request.value.days : null,
        daysHref,
      )}
    />
  );

  if (!request.ok) {
    return (
      <Panel title="This period cannot be compared" id="compare-invalid">
        <p data-testid="compare-invalid" className="break-words">
          {request.message}.
        </p>
        {choices}
        <ComparePeriodForm action={path} clock={words.clock} />
      </Panel>
    );
  }

  if (report === null) {
    return (
      <Panel title="No readings yet" id="empty">
        <p data-testid="empty-state">
          {viewer.kind === "clinic"
            ? "The glucose service holds no readings for this patient yet, so there are no periods to compare."
            : "Your CGM account is connected, but the glucose service holds no readings for it yet, so there are no periods to compare. Comparisons appear here once your sensor has uploaded readings for a while."}
        </p>
      </Panel>
    );
  }

  const { earlier, recent, unit } = report;
  const show = { earlier: earlier.nValues > 0, recent: recent.nValues > 0 };
  const both = show.earlier && show.recent;
  const days =
    request.value.kind === "days"
      ? request.value.days
      : request.value.kind === "patientDays"
        ? dayCount(request.value.patientDays)
        : periodDays(request.value.period);
  const rows = comparisonRows(report, unit);
  const blocks = blockRows(report.blocks);
  const shortfalls = sensorShortfalls(report);
  const sentences = report.attribution.flatMap((a) =>
    a.sentence ? [{ band: a.band, text: a.sentence }] : [],
  );

  return (
    <>
      <Panel title="Periods" id="compare-periods">
        <PeriodsText
          earlier={earlier}
          recent={recent}
          days={days}
          byDays={request.value.kind === "days"}
          viewer={viewer}
        />
        {choices}
        <ComparePeriodForm recent={recent} action={path} clock={words.clock} />
      </Panel>

      {!both && (
        <div
          role="note"
          data-testid="period-empty"
          className="rounded-lg border border-sky-300 bg-sky-50 px-4 py-3 text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100"
        >
          {!show.earlier && !show.recent
            ? "Neither period holds any readings, so there is nothing to show. Choose another period."
            : !show.earlier
              ? "The earlier period holds no readings, so there is nothing to compare with: the recent period is shown alone."
              : "The recent period holds no readings, so there is nothing to compare: the earlier period is shown alone."}
        </div>
      )}

      {shortfalls.length > 0 && (
        <div
          role="note"
          data-testid="sensor-warning"
          className="rounded-lg border border-amber-400 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          <p>
            <strong>Too little data to compare reliably.</strong> Sensor active time was{" "}
            {shortfalls.map((s, i) => (
              <span key={s.which}>
                {i > 0 && " and "}
                {s.percent.toFixed(1)}% in the {s.which} period
              </span>
            ))}
            , below the {SENSOR_ACTIVE_MIN_PERCENT}% the international consensus asks for before CGM metrics
            are trusted. Read the changes below with caution.
          </p>
        </div>
      )}

      {(show.earlier || show.recent) && (
        <Panel title="Goals" id="compare-goals">
          <CompareGoals goals={report.goals} show={show} />
        </Panel>
      )}

      {(show.earlier || show.recent) && (
        <Panel title="Metrics" id="compare-metrics">
          <ComparisonTable
            rows={rows}
            earlierLabel="Earlier period"
            recentLabel="Recent period"
            show={show}
          />
          {both && (
            <p className="text-sm text-slate-700 dark:text-slate-300">
              Changes are recent minus earlier; changes of percentages are in percentage points. Better and
              worse are said only where the consensus makes them unambiguous (time in and out of range, CV,
              GRI, LBGI, HBGI), and only for changes of at least {ATTRIBUTION_MIN_CHANGE_POINTS} point (0.5
              for LBGI and HBGI). Mean, SD and GMI are not judged: a lower mean can come with more lows.
            </p>
          )}
        </Panel>
      )}

      {(show.earlier || show.recent) && (
        <Panel title="Glycemia Risk Index grid" id="compare-gri">
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Where each period&apos;s GRI comes from: its hypoglycaemia component across, its hyperglycaemia
            component up. Lower and further left is better.
          </p>
          <CompareGriGrid earlier={earlier} recent={recent} />
        </Panel>
      )}

      {(show.earlier || show.recent) && (
        <Panel title="When in the day the changes happened" id="compare-attribution">
          {both &&
            (sentences.length > 0 ? (
              <ul data-testid="attribution" className="list-disc space-y-1 pl-5">
                {sentences.map((s) => (
                  <li key={s.band} data-band={s.band}>
                    {s.text}
                  </li>
                ))}
              </ul>
            ) : (
              <p data-testid="attribution-none">
                No share of time in, below or above range changed by {ATTRIBUTION_MIN_CHANGE_POINTS}{" "}
                percentage point or more, so no change is traced to a time of day.
              </p>
            ))}
          <BlockChart rows={blocks} show={show} clock={words.clock} />
          <BlockTable rows={blocks} show={show} />
        </Panel>
      )}

      <AttributionMethod clock={words.clock} />
      <MethodsNote />
    </>
  );
}
