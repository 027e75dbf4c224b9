import type { Metadata } from "next";
import { Panel } from "@/components/patient/Panel";
import { BlockedPage, PatientShell } from "@/components/patient/PatientShell";
import { CalibrationsTable } from "@/components/records/CalibrationsTable";
import { ChoiceLinks } from "@/components/records/ChoiceLinks";
import { DisplayTime } from "@/components/records/RecordTable";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import { calibrationRows, calibrationsEmptyText } from "@/lib/records/calibrations";
import { DEVICE_DAYS, deviceTitle } from "@/lib/records/devices";
import { hrefWith, type SearchParam } from "@/lib/records/query";
import { newestOf, patientDaysText } from "@/lib/reports/patient-days";
import { parsePeriodChoice, REPORT_DEFAULT_DAYS, REPORT_PERIOD_DAYS } from "@/lib/reports/period";
import { lastDaysOfReadings, patientClock, resolveReportPeriod } from "@/lib/reports/period-load";
import { configuredVersion, getDevices } from "@/lib/service-client/client";
import { readCalibrations, readDataRange } from "@/lib/sync/source";

export const metadata: Metadata = { title: "Calibrations" };

const PATH = "/dashboard/calibrations";
const TITLE = "Calibrations";

/**
 * The patient's fingerstick calibrations (spec 2.2, v2) over the last 7–90 days on the receiver's
 * clock, ending on the day of their latest calibration, in their display unit. The calibration
 * record has no device fields; the device line comes from the devices that contributed readings
 * in the same window.
 */
export default async function CalibrationsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const days = parsePeriodChoice((await searchParams).days);
  const page = await patientPage();
  if (isBlocked(page)) return <BlockedPage current={PATH} title={TITLE} state={page.blocked} />;
  const { connection, preferences } = page;

  const data = await withServiceStates(async () => {
    const range = await readDataRange(connection);
    const clock = patientClock(connection, newestOf(range, "calibrations"));
    const period = await resolveReportPeriod(clock, { kind: "days", days });
    if (!range.calibrations || !period?.patientDays) {
      // Nothing to list: the sensor generation of the devices page's devices says whether that is expected.
      const lookback = (await lastDaysOfReadings(connection, range, DEVICE_DAYS, Date.now())).period;
      const devices = (await getDevices(connection, configuredVersion(), lookback)).devices;
      return { kind: "none" as const, generation: devices[0]?.transmitterGeneration ?? null };
    }
    const [{ calibrations }, devices] = await Promise.all([
      readCalibrations(connection, period),
      getDevices(connection, configuredVersion(), period).then((r) => r.devices),
    ]);
    return {
      kind: "list" as const,
      calibrations,
      devices,
      patientDays: period.patientDays,
      latestDisplayTime: range.calibrations.end.displayTime,
    };
  });
  if (isBlocked(data)) return <BlockedPage current={PATH} title={TITLE} state={data.blocked} />;

  if (data.kind === "none") {
    return (
      <PatientShell current={PATH} title={TITLE}>
        <Panel title="No calibrations" id="calibrations-empty">
          <p>{calibrationsEmptyText(data.generation)}</p>
        </Panel>
      </PatientShell>
    );
  }

  const rows = calibrationRows(data.calibrations, preferences);
  const deviceNames = [...new Set(data.devices.map(deviceTitle))];
  return (
    <PatientShell current={PATH} title={TITLE}>
      <Panel title="Fingerstick calibrations" id="calibrations">
        <p
          className="text-slate-700 dark:text-slate-300"
          data-period={`${data.patientDays.firstDay}_${data.patientDays.lastDay}`}
        >
          {patientDaysText(data.patientDays)}, up to your latest calibration,{" "}
          <DisplayTime value={data.latestDisplayTime} />. Days and times are your receiver&apos;s clock.
        </p>
        {deviceNames.length > 0 && (
          <p className="text-sm text-slate-700 dark:text-slate-300">
            {deviceNames.length === 1 ? "Device" : "Devices"} in this period: {deviceNames.join("; ")}
          </p>
        )}
        <ChoiceLinks
          id="calibrations-period"
          label="Period"
          choices={REPORT_PERIOD_DAYS.map((d) => ({
            href: hrefWith(
              PATH,
              { days: String(days) },
              { days: String(d) },
              { days: String(REPORT_DEFAULT_DAYS) },
            ),
            label: `${d} days`,
            current: d === days,
          }))}
        />
        {rows.length === 0 ? (
          <p>No calibrations on these days.</p>
        ) : (
          <CalibrationsTable
            caption={`${rows.length} ${rows.length === 1 ? "calibration" : "calibrations"}, newest first`}
            rows={rows}
          />
        )}
      </Panel>
    </PatientShell>
  );
}
