import type { Metadata } from "next";
import { Panel } from "@/components/patient/Panel";
import { BlockedPage, PatientShell } from "@/components/patient/PatientShell";
import { AlertsTable } from "@/components/records/AlertsTable";
import { ChoiceLinks } from "@/components/records/ChoiceLinks";
import { DisplayTime } from "@/components/records/RecordTable";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import { alertSoundings, soundingCounts } from "@/lib/records/alerts";
import { hrefWith, type SearchParam } from "@/lib/records/query";
import { newestOf, patientDaysText } from "@/lib/reports/patient-days";
import { parsePeriodChoice, REPORT_DEFAULT_DAYS, REPORT_PERIOD_DAYS } from "@/lib/reports/period";
import { patientClock, resolveReportPeriod } from "@/lib/reports/period-load";
import { configuredVersion, getAlerts } from "@/lib/service-client/client";
import { readDataRange } from "@/lib/sync/source";

export const metadata: Metadata = { title: "Alerts" };

const PATH = "/dashboard/alerts";
const TITLE = "Alerts";
const DEFAULTS = { days: String(REPORT_DEFAULT_DAYS) };

/**
 * The alerts that sounded on the patient's device (API v3 only, service-v3-notes §3.5) over the
 * last 7–90 days on the receiver's clock, ending on the day of their latest reading (alerts follow
 * the readings; the service gives alerts no data range). Each sounding: which alert, when, how long
 * until it was acknowledged or its condition cleared. v2 has no alerts: the page says so and asks
 * nothing.
 */
export default async function AlertsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const params = await searchParams;
  const days = parsePeriodChoice(params.days);

  if (configuredVersion() !== "v3") {
    return (
      <PatientShell current={PATH} title={TITLE}>
        <Panel title="Alerts need API v3" id="alerts-unavailable">
          <p>
            The alerts your device sounded are available only through version 3 of the glucose service&apos;s
            interface. This dashboard reads version 2, which reports alert settings (see Devices) but not the
            alerts themselves.
          </p>
        </Panel>
      </PatientShell>
    );
  }

  const page = await patientPage();
  if (isBlocked(page)) return <BlockedPage current={PATH} title={TITLE} state={page.blocked} />;
  const data = await withServiceStates(async () => {
    const range = await readDataRange(page.connection);
    const clock = patientClock(page.connection, newestOf(range, "egvs"));
    const period = await resolveReportPeriod(clock, { kind: "days", days });
    if (!range.egvs || !period?.patientDays) return null;
    const { alerts } = await getAlerts(page.connection, period);
    return {
      soundings: alertSoundings(alerts),
      period,
      patientDays: period.patientDays,
      latestDisplayTime: range.egvs.end.displayTime,
    };
  });
  if (isBlocked(data)) return <BlockedPage current={PATH} title={TITLE} state={data.blocked} />;

  if (data === null) {
    return (
      <PatientShell current={PATH} title={TITLE}>
        <Panel title="No readings recorded" id="alerts-empty">
          <p>
            Your CGM account has no readings yet, so no alerts either. Alerts appear here once your device has
            uploaded readings.
          </p>
        </Panel>
      </PatientShell>
    );
  }

  const href = (change: Record<string, string>) => hrefWith(PATH, { days: String(days) }, change, DEFAULTS);
  const counts = soundingCounts(data.soundings);
  return (
    <PatientShell current={PATH} title={TITLE}>
      <Panel title="Alerts your device sounded" id="alerts">
        <p
          className="text-slate-700 dark:text-slate-300"
          data-period={`${data.patientDays.firstDay}_${data.patientDays.lastDay}`}
          data-window={`${data.period.startDate}_${data.period.endDate}`}
        >
          {patientDaysText(data.patientDays)}, up to your latest reading,{" "}
          <DisplayTime value={data.latestDisplayTime} />. Days and times are your receiver&apos;s clock. An
          alert sounds until you acknowledge it (it is then snoozed, and may sound again) or until its
          condition clears.
        </p>
        <ChoiceLinks
          id="alerts-period"
          label="Period"
          choices={REPORT_PERIOD_DAYS.map((d) => ({
            href: href({ days: String(d) }),
            label: `${d} days`,
            current: d === days,
          }))}
        />
        {data.soundings.length === 0 ? (
          <p>No alert sounded on these days.</p>
        ) : (
          <>
            <ul aria-label="Alerts by kind" className="flex flex-wrap gap-2 text-sm">
              {counts.map((c) => (
                <li
                  key={c.label}
                  className="rounded bg-slate-100 px-2 py-0.5 text-slate-800 dark:bg-slate-800 dark:text-slate-200"
                >
                  {c.label}: <span className="tabular-nums">{c.count}</span>
                </li>
              ))}
            </ul>
            <AlertsTable
              caption={`${data.soundings.length} alert${data.soundings.length === 1 ? "" : "s"} sounded, newest first`}
              soundings={data.soundings}
            />
          </>
        )}
      </Panel>
    </PatientShell>
  );
}
