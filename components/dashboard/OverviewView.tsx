"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { GlucoseTrace } from "@/components/charts/GlucoseTrace";
import { GoalHeadline } from "@/components/glucose/GoalHeadline";
import { HypoglycemiaRiskBadge } from "@/components/glucose/HypoglycemiaRiskBadge";
import { NowPanel } from "@/components/glucose/NowPanel";
import { StatisticsComparison } from "@/components/glucose/StatisticsComparison";
import { TimeInRange } from "@/components/glucose/TimeInRange";
import { Panel } from "@/components/patient/Panel";
import { MS_PER_MINUTE, parseDateTime } from "@/lib/cgm/datetime";
import { type Overview, summaryPeriodText } from "@/lib/dashboard/overview-model";
import { overviewPath, TRACE_RANGE_LABELS, type TraceRange } from "@/lib/dashboard/ranges";
import type { ResolvedTargetGroup } from "@/lib/preferences/target-group";
import { formatDisplayTime } from "@/lib/trace";
import { EpisodesPanel } from "./EpisodesPanel";
import { MarkersTable } from "./MarkersTable";
import { PreferencesForm } from "./PreferencesForm";
import { RangePicker } from "./RangePicker";
import { TraceTable } from "./TraceTable";

const FIVE_MINUTES = 5 * MS_PER_MINUTE;

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  const body = await res.json().catch(() => null);
  if (!res.ok)
    throw new ApiError(
      res.status,
      body?.error ?? "error",
      body?.message ?? `The server answered ${res.status}.`,
    );
  return body as T;
}

/**
 * The overview, kept fresh: every 5 minutes and whenever the tab regains focus it asks the
 * service's dataRange (one small call) whether a newer EGV exists, and only then fetches the
 * overview again. The server's first render arrives as initial data, so the page paints at once.
 */
export function OverviewView({
  initial,
  range,
  unitChoice,
  goals,
  clinician,
  apiVersion = "v2",
}: {
  initial: Overview;
  range: TraceRange;
  unitChoice: Overview["unit"] | null;
  /** The patient's choice of goals and their clinic's (the settings form); absent in a clinician's view. */
  goals?: ResolvedTargetGroup;
  /**
   * A clinician's view of a clinic patient: a snapshot of the server's render (the refresh APIs
   * answer for the signed-in patient only), ranges under `basePath`, and no patient settings.
   */
  clinician?: { basePath: string };
  /**
   * The API version the server reads the service with (CGM_API_VERSION): the poll for newer
   * readings asks the proxy's dataRange of that version, the only one the proxy serves then.
   */
  apiVersion?: "v2" | "v3";
}) {
  const queryClient = useQueryClient();
  const overview = useQuery({
    queryKey: ["overview", range],
    queryFn: () =>
      getJson<{ overview: Overview | null }>(`/api/dashboard/overview?range=${range}`).then(
        (b) => b.overview,
      ),
    initialData: initial,
    staleTime: Number.POSITIVE_INFINITY,
    // Each visit of a period brings the server's fresh render as `initial`; kept after the page
    // left that period, the earlier visit's overview would come back instead, with the reading's
    // age as it was then (and no stale warning) while the service had stopped releasing readings.
    gcTime: 0,
  });
  const dataRange = useQuery({
    queryKey: ["dataRange", apiVersion],
    queryFn: () =>
      // v2's and v3's dataRange both carry egvs.end.systemTime (UTC).
      getJson<{ egvs: { end: { systemTime: string } } | null }>(
        `/api/cgm/${apiVersion}/users/self/dataRange`,
      ),
    refetchInterval: FIVE_MINUTES,
    refetchOnWindowFocus: true,
    enabled: clinician === undefined,
  });
  const shown = overview.data ?? initial;
  const newestAtService = dataRange.data?.egvs ? parseDateTime(dataRange.data.egvs.end.systemTime) : null;
  useEffect(() => {
    if (newestAtService !== null && newestAtService > shown.dataEndMs) {
      void queryClient.invalidateQueries({ queryKey: ["overview"] });
    }
  }, [newestAtService, shown.dataEndMs, queryClient]);

  const failure = overview.error ?? dataRange.error;
  const reconnect = failure instanceof ApiError && failure.code === "reconnect_required";
  const { summary, unit } = shown;
  // The summary ends at the newest reading, which may be days old: each card names its true period.
  const summaryPeriod = summaryPeriodText(shown);
  return (
    <div className="space-y-6">
      {failure && (
        <div
          role="alert"
          className="rounded-lg border border-amber-400 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          {reconnect ? (
            <>
              The glucose service no longer accepts this dashboard&apos;s access.{" "}
              <a className="font-medium underline" href="/dashboard">
                Reconnect your CGM account
              </a>
              .
            </>
          ) : (
            <>
              Could not check for newer readings: {failure.message}{" "}
              <button
                type="button"
                className="font-medium underline"
                onClick={() => {
                  void dataRange.refetch();
                  void overview.refetch();
                }}
              >
                Retry
              </button>
            </>
          )}
        </div>
      )}
      {summary.headline && <GoalHeadline headline={summary.headline} detailsHref="#tir-heading" />}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        {shown.latest && shown.freshness && (
          <NowPanel latest={shown.latest} freshness={shown.freshness} unit={unit} />
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
        </p>
        <GlucoseTrace overview={shown} />
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
