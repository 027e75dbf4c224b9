"use client";

import type { NoteBand } from "@/components/charts/note-bands";
import { TraceLayers } from "@/components/charts/TraceLayers";
import { GoalHeadline } from "@/components/glucose/GoalHeadline";
import { HypoglycemiaRiskBadge } from "@/components/glucose/HypoglycemiaRiskBadge";
import { NowPanel } from "@/components/glucose/NowPanel";
import { StatisticsComparison } from "@/components/glucose/StatisticsComparison";
import { TimeInRange } from "@/components/glucose/TimeInRange";
import { Panel } from "@/components/patient/Panel";
import { type Overview, type SentOverview, summaryPeriodText } from "@/lib/dashboard/overview-model";
import { overviewPath, TRACE_RANGE_LABELS, type TraceRange } from "@/lib/dashboard/ranges";
import type { ResolvedTargetGroup } from "@/lib/preferences/target-group";
import { formatDisplayTime } from "@/lib/trace";
import { EpisodesPanel } from "./EpisodesPanel";
import { MarkersTable } from "./MarkersTable";
import { OverviewRefresh } from "./OverviewRefresh";
import { PreferencesForm } from "./PreferencesForm";
import { RangePicker } from "./RangePicker";
import { TraceTable } from "./TraceTable";

/**
 * The overview. A client component on purpose: rendered on the server as well, its tables and cards
 * travel as the overview's data (the trace's points as columns, lib/trace/series.ts) instead of
 * React's serialized elements, which doubled the HTML at 90 days (1,328 kB against 580 kB). Kept
 * fresh by OverviewRefresh, which has the server render the page again when the service holds a
 * newer EGV; recharts is loaded after the first paint (TraceLayers).
 */
export function OverviewView({
  overview: shown,
  range,
  unitChoice,
  goals,
  clinician,
  apiVersion = "v2",
  noteBands,
}: {
  overview: SentOverview;
  range: TraceRange;
  unitChoice: Overview["unit"] | null;
  /** The patient's choice of goals and their clinic's (the settings form); absent in a clinician's view. */
  goals?: ResolvedTargetGroup;
  /**
   * A clinician's view of a clinic patient: a snapshot of the server's render (the refresh APIs
   * answer for the signed-in patient only), ranges under `basePath`, and no patient settings.
   */
  clinician?: { basePath: string; patientId: string };
  /**
   * The API version the server reads the service with (CGM_API_VERSION): the poll for newer
   * readings asks the proxy's dataRange of that version, the only one the proxy serves then.
   */
  apiVersion?: "v2" | "v3";
  /** Notes' time ranges, shaded on the trace (the notes themselves are listed on the page). */
  noteBands?: readonly NoteBand[];
}) {
  const { summary, unit } = shown;
  // The summary ends at the newest reading, which may be days old: each card names its true period.
  const summaryPeriod = summaryPeriodText(shown);
  return (
    <div className="space-y-6">
      {clinician === undefined && <OverviewRefresh dataEndMs={shown.dataEndMs} apiVersion={apiVersion} />}
      {summary.headline && <GoalHeadline headline={summary.headline} detailsHref="#tir-heading" />}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        {shown.latest && shown.freshness && (
          <NowPanel
            latest={shown.latest}
            freshness={shown.freshness}
            unit={unit}
            viewer={clinician ? { kind: "clinic", ...clinician } : undefined}
          />
        )}
        <Panel title="Hypoglycemia risk" id="risk">
          <HypoglycemiaRiskBadge risk={summary.hypoglycemiaRisk.risk} by={summary.hypoglycemiaRisk.by} />
          <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="hypo-risk-source">
            {summary.hypoglycemiaRisk.by === "service"
              ? `From the glucose service's statistics over the ${summaryPeriod}.`
              : `Computed by this dashboard over the ${summaryPeriod}, with the glucose service's own method (its API v3 gives no statistics; see the methods note of the reports).`}
          </p>
        </Panel>
      </div>
      {/* Issue 14: the CGM episodes of the summary window (work-episodes). */}
      <Panel title="Lows and highs" id="episodes">
        <EpisodesPanel episodes={summary.episodes} period={summaryPeriod} unit={unit} />
      </Panel>
      <Panel
        title="Glucose trace"
        id="trace"
        actions={<RangePicker current={range} basePath={clinician?.basePath} />}
      >
        <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="trace-caption">
          Last {TRACE_RANGE_LABELS[range]}: {shown.trace.readings} readings up to{" "}
          {shown.latest ? formatDisplayTime(shown.latest.displayTime) : "the newest reading"}. {shown.shading}{" "}
          Dashed lines at the very low and very high limits.
          {shown.clockChanges.length > 0 && " A dotted line marks a change of the receiver's clock."}
          {noteBands &&
            noteBands.length > 0 &&
            " Orange columns mark the time ranges of notes (listed under Notes)."}
        </p>
        <TraceLayers chart={shown} bands={noteBands} />
        <TraceTable rows={shown.trace.table} unit={unit} by={shown.trace.tableBy} />
        <MarkersTable
          events={shown.events}
          calibrations={shown.calibrations}
          alerts={shown.alerts}
          unit={unit}
        />
      </Panel>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title={`Time in ranges, ${summaryPeriod}`} id="tir">
          {summary.goals ? (
            <TimeInRange judged={summary.goals} unit={unit} />
          ) : (
            <p>No readings in this period.</p>
          )}
        </Panel>
        <Panel title={`Statistics, ${summaryPeriod}`} id="stats">
          <StatisticsComparison
            ours={summary.ours}
            service={summary.service}
            serviceGivesStatistics={summary.hypoglycemiaRisk.by === "service"}
            unit={unit}
          />
        </Panel>
      </div>
      {!clinician && goals && (
        <Panel title="Settings" id="settings">
          <PreferencesForm
            unitChoice={unitChoice}
            unit={unit}
            dataUnit={shown.dataUnit}
            target={shown.target}
            goals={goals}
            returnTo={overviewPath(range)}
          />
        </Panel>
      )}
    </div>
  );
}
