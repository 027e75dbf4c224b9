import type { Metadata } from "next";
import { Panel } from "@/components/patient/Panel";
import { BlockedPage, PatientShell } from "@/components/patient/PatientShell";
import { CalibrationsTable } from "@/components/records/CalibrationsTable";
import { ChoiceLinks } from "@/components/records/ChoiceLinks";
import { DisplayTime } from "@/components/records/RecordTable";
import { parseDateTime } from "@/lib/cgm";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import { calibrationRows, calibrationsEmptyText } from "@/lib/records/calibrations";
import { deviceTitle } from "@/lib/records/devices";
import {
  DEFAULT_PERIOD_DAYS,
  PERIOD_DAYS,
  parsePeriod,
  windowEndingAt,
  windowEndingAtOrNow,
} from "@/lib/records/period";
import { hrefWith, type SearchParam } from "@/lib/records/query";
import { configuredVersion, getDevices } from "@/lib/service-client/client";
import { readCalibrations, readDataRange } from "@/lib/sync/source";

export const metadata: Metadata = { title: "Calibrations" };

const PATH = "/dashboard/calibrations";
const TITLE = "Calibrations";
/** The devices consulted when there are no calibrations, to say whether none are expected. */
const DEVICE_LOOKBACK_DAYS = 30;

/**
 * The patient's fingerstick calibrations (spec 2.2, v2) over 7–90 days ending at their latest
 * calibration, in their display unit. The calibration record has no device fields; the device
 * line comes from the devices that contributed readings in the same window.
 */
export default async function CalibrationsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const days = parsePeriod((await searchParams).days);
  const page = await patientPage();
  if (isBlocked(page)) return <BlockedPage current={PATH} title={TITLE} state={page.blocked} />;
  const { connection, preferences } = page;

  const data = await withServiceStates(async () => {
    const range = await readDataRange(connection);
    const endMs = range.calibrations ? parseDateTime(range.calibrations.end.systemTime) : null;
    if (!range.calibrations || endMs === null) {
      // Nothing to list: the sensor generation says whether that is expected.
      const egvEnd = range.egvs ? parseDateTime(range.egvs.end.systemTime) : null;
      const lookback = windowEndingAtOrNow(egvEnd, Date.now(), DEVICE_LOOKBACK_DAYS);
      const { devices } = await getDevices(connection, configuredVersion(), lookback);
      return { kind: "none" as const, generation: devices[0]?.transmitterGeneration ?? null };
    }
    const window = windowEndingAt(endMs, days);
    const [{ calibrations }, devices] = await Promise.all([
      readCalibrations(connection, window),
      getDevices(connection, configuredVersion(), window).then((r) => r.devices),
    ]);
    return {
      kind: "list" as const,
      calibrations,
      devices,
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
        <p className="text-slate-700 dark:text-slate-300">
          The {days} days up to your latest calibration, <DisplayTime value={data.latestDisplayTime} />. Times
          are your receiver&apos;s local time.
        </p>
        {deviceNames.length > 0 && (
          <p className="text-sm text-slate-700 dark:text-slate-300">
            {deviceNames.length === 1 ? "Device" : "Devices"} in this period: {deviceNames.join("; ")}
          </p>
        )}
        <ChoiceLinks
          id="calibrations-period"
          label="Period"
          choices={PERIOD_DAYS.map((d) => ({
            href: hrefWith(
              PATH,
              { days: String(days) },
              { days: String(d) },
              { days: String(DEFAULT_PERIOD_DAYS) },
            ),
            label: `${d} days`,
            current: d === days,
          }))}
        />
        {rows.length === 0 ? (
          <p>No calibrations in these {days} days.</p>
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
