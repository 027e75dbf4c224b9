import type { Metadata } from "next";
import { HypoglycemiaRiskBadge } from "@/components/glucose/HypoglycemiaRiskBadge";
import { Panel } from "@/components/patient/Panel";
import { BlockedPage, PatientShell } from "@/components/patient/PatientShell";
import { ChoiceLinks } from "@/components/records/ChoiceLinks";
import { MethodsNote } from "@/components/reports/MethodsNote";
import { ReportsNav } from "@/components/reports/ReportsNav";
import { StatisticsByWindowTable } from "@/components/reports/StatisticsByWindowTable";
import { StatisticsEditor } from "@/components/reports/StatisticsEditor";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import { displayUnit } from "@/lib/preferences";
import { firstParam, hrefWith, type SearchParam } from "@/lib/records/query";
import { newestRecord, patientDaysText } from "@/lib/reports/period/patient-days";
import { parsePeriodRequest, REPORT_DEFAULT_DAYS } from "@/lib/reports/period/period";
import { periodChoices } from "@/lib/reports/period/period-choices";
import { patientClock, resolveReportPeriod } from "@/lib/reports/period/period-load";
import { loadStatisticsByWindow } from "@/lib/reports/statistics-by-window/load";
import type { StatisticsVersion } from "@/lib/reports/statistics-by-window/model";
import { statisticsWindowsOf } from "@/lib/reports/statistics-by-window/store";
import { rowsFromWindows } from "@/lib/reports/statistics-by-window/windows";
import { configuredVersion } from "@/lib/service-client/client";
import { readSource } from "@/lib/sync/source";
import { formatDisplayTime } from "@/lib/trace/format";

export const metadata: Metadata = { title: "Statistics by time of day" };

const PATH = "/reports/statistics";
const TITLE = "Statistics by time of day";
const DEFAULTS = { days: String(REPORT_DEFAULT_DAYS), version: "v2" };

/**
 * Statistics by time of day (issue 5): the patient's named windows, edited and checked in the
 * browser with the service's own rules and saved per user, and the service's statistics per window
 * over the last 7–90 days on the receiver's clock, ending on the day of the newest reading, as the
 * AGP and the comparison take them (or a systemTime window given as startDate/endDate), v2 (urgent
 * low, low, high) or v1 (one range).
 */
export default async function StatisticsByTimeOfDayPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const params = await searchParams;
  const request = parsePeriodRequest((name) => firstParam(params[name]));
  const version: StatisticsVersion = firstParam(params.version) === "v1" ? "v1" : "v2";

  // API v3 has no statistics: the page then computes them itself and says so.
  const byService = configuredVersion() === "v2";
  const page = await patientPage();
  if (isBlocked(page)) return <BlockedPage current={PATH} title={TITLE} state={page.blocked} />;
  const { windows, saved } = await statisticsWindowsOf(page.userId);
  const data = request.ok
    ? await withServiceStates(async () => {
        const asked = request.value;
        const source = await readSource(page.connection);
        const period =
          asked.kind === "dates"
            ? asked.period
            : await resolveReportPeriod(
                patientClock(page.connection, newestRecord(source.newest), source),
                asked,
              );
        if (!period) return null;
        return {
          period,
          ...(await loadStatisticsByWindow(page.connection, windows, period, version, source)),
        };
      })
    : null;
  if (isBlocked(data)) return <BlockedPage current={PATH} title={TITLE} state={data.blocked} />;

  const unit = displayUnit(page.preferences, data?.dataUnit ?? page.preferences.unit ?? "mg/dL");
  const days = request.ok && request.value.kind === "days" ? request.value.days : null;
  const current = { days: String(days ?? REPORT_DEFAULT_DAYS), version };
  const href = (change: Record<string, string>) => hrefWith(PATH, current, change, DEFAULTS);

  return (
    <PatientShell current={PATH} title={TITLE}>
      <ReportsNav current={PATH} />
      <p className="max-w-3xl text-slate-700 dark:text-slate-300">
        Name parts of the day, such as day and night, give each its own targets, and see how your glucose did
        in each.{" "}
        {byService
          ? "The statistics come from your CGM service, asked with your windows."
          : "The statistics are computed by this dashboard with your CGM service's own method: the service's current interface (API v3) gives none."}
      </p>
      <Panel title="Your time-of-day windows" id="windows">
        {!saved && (
          <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="windows-default-note">
            You have not saved windows yet: these are the suggested day and night windows.
          </p>
        )}
        <StatisticsEditor initialRows={rowsFromWindows(windows, unit)} unit={unit} />
      </Panel>

      <Panel title="Statistics by window" id="results">
        <ChoiceLinks
          id="statistics-period"
          label="Period"
          choices={periodChoices(days, (d) => href({ days: String(d) }))}
        />
        <ChoiceLinks
          id="statistics-version"
          label="Statistics"
          choices={[
            { href: href({ version: "v2" }), label: "v2: urgent low, low, high", current: version === "v2" },
            { href: href({ version: "v1" }), label: "v1: one range per window", current: version === "v1" },
          ]}
        />
        {!request.ok ? (
          <p role="alert" className="text-red-800 dark:text-red-300">
            {request.message}
          </p>
        ) : data === null ? (
          <p data-testid="statistics-empty">
            The glucose service holds no readings for your account yet, so there is nothing to compute. Your
            windows are kept for when readings arrive.
          </p>
        ) : (
          <>
            <p className="text-slate-700 dark:text-slate-300" data-testid="statistics-period">
              {data.period.patientDays
                ? `${patientDaysText(data.period.patientDays)}, up to your newest reading${
                    data.latestDisplayTime ? `, ${formatDisplayTime(data.latestDisplayTime)}` : ""
                  }, on your receiver's clock.`
                : `From ${data.period.startDate.replace("T", " ")} to ${data.period.endDate.replace("T", " ")} UTC (the service's systemTime).`}{" "}
              Glucose in {unit}; times of day are your receiver&apos;s clock.
            </p>
            <StatisticsByWindowTable results={data.results} dataUnit={data.dataUnit} unit={unit} />
            <div className="space-y-2">
              <h3 className="font-semibold">Hypoglycemia risk over the whole period</h3>
              <HypoglycemiaRiskBadge
                risk={data.results.together.hypoglycemiaRisk}
                by={byService ? "service" : "dashboard"}
              />
              <p className="text-sm text-slate-700 dark:text-slate-300">
                {byService
                  ? "The service's estimate, from all readings of the period; it gives none per window."
                  : "This dashboard's estimate with the service's method, from all readings of the period; the method gives none per window."}
              </p>
            </div>
            <details className="text-sm text-slate-700 dark:text-slate-300">
              <summary className="cursor-pointer font-medium text-slate-900 dark:text-slate-100">
                How these numbers are made
              </summary>
              <div className="mt-2 space-y-2">
                {!byService && (
                  <p data-testid="statistics-computed-here">
                    Your CGM service&apos;s current interface (API v3) has no statistics, so this dashboard
                    computes what its statistics (API v2) would answer, with the same method and from the same
                    readings; the methods note below says how the hypoglycemia risk is estimated.
                  </p>
                )}
                <p>
                  The service answers a statistics request for all its windows together: its mean, median, SD,
                  sensor use and hypoglycemia risk are of every reading of the period, whatever the time of
                  day. Only its range groups follow the windows, each reading judged by the bounds of the
                  window it falls in. The last row of the table is that answer.
                </p>
                <p>
                  For one window, the dashboard asks again with that window and the rest of the day as a
                  filler whose readings all fall in one known group; asked twice, filling opposite groups, the
                  {byService ? " service" : " method"} counts the window&apos;s own readings in each group.
                  The mean, median, SD and sensor use of a window are computed by this dashboard from the same
                  readings.
                </p>
                {version === "v2" ? (
                  <p>
                    Urgent low: below the urgent-low bound. Low: from urgent low up to, not including, low. In
                    range: from low to high, both included. High: above high.
                  </p>
                ) : (
                  <p>
                    v1 has one range per window: your low bound is its minimum and your high bound its
                    maximum, both included. Below: under the minimum; above: over the maximum.
                  </p>
                )}
              </div>
            </details>
          </>
        )}
      </Panel>
      <MethodsNote />
    </PatientShell>
  );
}
