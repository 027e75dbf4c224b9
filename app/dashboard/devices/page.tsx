import type { Metadata } from "next";
import { Panel } from "@/components/patient/Panel";
import { BlockedPage, PatientShell } from "@/components/patient/PatientShell";
import { AlertSettingsTable } from "@/components/records/AlertSettingsTable";
import { DisplayTime, UtcTime } from "@/components/records/RecordTable";
import {
  type CgmDevice,
  type DeviceV1,
  formatDateTime,
  type GlucoseUnit,
  MS_PER_MINUTE,
  parseDateTime,
} from "@/lib/cgm";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import { displayUnit } from "@/lib/preferences/schema";
import {
  DEVICE_DAYS,
  deviceTitle,
  displayDeviceLabel,
  generationLabel,
  overrideText,
  scheduleDaysText,
  scheduleHoursText,
  scheduleName,
} from "@/lib/records/devices";
import { formatDateTimeText } from "@/lib/records/format";
import { patientDaysText } from "@/lib/reports/patient-days";
import { lastDaysOfReadings } from "@/lib/reports/period-load";
import { configuredVersion, getDevices } from "@/lib/service-client/client";
import { readDataRange, readEgvs } from "@/lib/sync/source";

export const metadata: Metadata = { title: "Devices" };

const PATH = "/dashboard/devices";
const TITLE = "Devices";

/**
 * The patient's devices (spec 2.4) that contributed data in the last 30 days on the receiver's
 * clock, ending on the day of their latest reading:
 * v2 records with their alert schedules, and the v1 records' alert settings (v1 has its own shape,
 * with a delay per alert). Glucose thresholds are shown in the patient's display unit: their choice,
 * else the unit their readings come in.
 */
export default async function DevicesPage() {
  const page = await patientPage();
  if (isBlocked(page)) return <BlockedPage current={PATH} title={TITLE} state={page.blocked} />;
  const { connection, preferences } = page;

  const data = await withServiceStates(async () => {
    const range = await readDataRange(connection);
    const egvEnd = range.egvs ? parseDateTime(range.egvs.end.systemTime) : null;
    // The devices of the last 30 receiver days; the clock also puts the uploads, which the service
    // dates in UTC only, on the receiver's clock.
    const { clock, period: window } = await lastDaysOfReadings(connection, range, DEVICE_DAYS, Date.now());
    // The unit of the patient's readings (a few minutes of them): alert values follow it.
    const readingUnit = async (): Promise<GlucoseUnit | null> =>
      egvEnd === null
        ? null
        : (
            await readEgvs(connection, {
              startDate: formatDateTime(egvEnd - 10 * MS_PER_MINUTE),
              endDate: formatDateTime(egvEnd),
            })
          ).unit;
    // API v3 (CGM_API_VERSION) has its own devices and no older interface beside them: only
    // /v3 paths are asked then.
    const version = configuredVersion();
    const [v2, v1, unit] = await Promise.all([
      getDevices(connection, version, window),
      version === "v2" ? getDevices(connection, "v1", window) : null,
      readingUnit(),
    ]);
    // UTC times to put on the receiver's clock: uploads, and the ends of v3's overrides.
    const overrideEnds = v2.devices.flatMap((d) =>
      d.alertScheduleList.flatMap((s) => s.alertScheduleSettings.override?.endTime ?? []),
    );
    const uploadDates = new Set([
      ...[...v2.devices, ...(v1?.devices ?? [])].map((d) => d.lastUploadDate),
      ...overrideEnds,
    ]);
    const uploads = new Map<string, string>();
    await Promise.all(
      [...uploadDates].map(async (utc) => {
        const t = parseDateTime(utc);
        if (t !== null) uploads.set(utc, formatDateTime(await clock.receiverTime(t)));
      }),
    );
    return {
      v2: v2.devices,
      v1: v1 ? (v1.devices as DeviceV1[]) : null,
      uploads,
      readingUnit: unit,
      windowEnd: range.egvs?.end.displayTime ?? null,
      // Days of the receiver's clock only when a reading tells it (else UTC days up to now).
      patientDays: range.egvs ? window.patientDays : undefined,
    };
  });
  if (isBlocked(data)) return <BlockedPage current={PATH} title={TITLE} state={data.blocked} />;

  const glucoseUnit = displayUnit(preferences, data.readingUnit ?? "mg/dL");
  const period =
    data.windowEnd && data.patientDays
      ? `${patientDaysText(data.patientDays)} on your receiver's clock, up to your latest reading at ${formatDateTimeText(data.windowEnd)}`
      : `the last ${DEVICE_DAYS} days`;

  if (data.v2.length === 0 && (data.v1 ?? []).length === 0) {
    return (
      <PatientShell current={PATH} title={TITLE}>
        <Panel title="No devices" id="devices-empty">
          <p>
            No device uploaded data to your CGM account in {period}, so there are no devices or alert settings
            to show.
          </p>
        </Panel>
      </PatientShell>
    );
  }

  return (
    <PatientShell current={PATH} title={TITLE}>
      <p className="text-slate-700 dark:text-slate-300">
        Devices that uploaded data in {period}, with their alert settings as of their last upload. Glucose
        values are shown in {glucoseUnit}.
      </p>
      {data.v2.length === 0 && (
        <Panel title="No current device records" id="devices-v2-empty">
          <p>The service lists no device for this period; the older records below still do.</p>
        </Panel>
      )}
      {data.v2.map((device, i) => (
        <DeviceV2Panel
          // biome-ignore lint/suspicious/noArrayIndexKey: a server-rendered, never-reordered list; two records may share every field.
          key={`${device.lastUploadDate}|${i}`}
          device={device}
          index={i}
          glucoseUnit={glucoseUnit}
          upload={data.uploads.get(device.lastUploadDate)}
          receiverTimes={data.uploads}
        />
      ))}
      {data.v1 && (
        <Panel title="Alert settings reported by the older (v1) interface" id="devices-v1">
          <p className="text-sm text-slate-700 dark:text-slate-300">
            The older interface reports receiver-type devices, one set of alerts each (no schedules), with a
            delay for each alert.
          </p>
          {data.v1.length === 0 ? (
            <p>No device is reported by the older interface for this period.</p>
          ) : (
            data.v1.map((device, i) => (
              <section
                // biome-ignore lint/suspicious/noArrayIndexKey: a server-rendered, never-reordered list; two records may share every field.
                key={`${device.lastUploadDate}|${i}`}
                aria-labelledby={`v1-device-${i}`}
                className="space-y-3 border-t border-slate-200 pt-4 first:border-t-0 first:pt-0 dark:border-slate-800"
              >
                <h3 id={`v1-device-${i}`} className="font-semibold">
                  {device.model === "Unknown" ? "Device (model not reported)" : device.model}
                </h3>
                <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                  <dt className="text-slate-700 dark:text-slate-300">Last upload</dt>
                  <dd>
                    <UploadTime
                      utc={device.lastUploadDate}
                      receiver={data.uploads.get(device.lastUploadDate)}
                    />
                  </dd>
                </dl>
                {device.alertSettings && device.alertSettings.length > 0 ? (
                  <AlertSettingsTable
                    caption={`Alert settings of ${device.model === "Unknown" ? "this device" : device.model} (v1)`}
                    settings={device.alertSettings}
                    glucoseUnit={glucoseUnit}
                  />
                ) : (
                  <p>No alert settings are reported for this device.</p>
                )}
              </section>
            ))
          )}
        </Panel>
      )}
    </PatientShell>
  );
}

/** A device's last upload on the receiver's clock, with the service's own UTC time beside it. */
function UploadTime({ utc, receiver }: { utc: string; receiver: string | undefined }) {
  if (!receiver) return <UtcTime value={utc} />;
  return (
    <span data-testid="last-upload">
      <DisplayTime value={receiver} /> on your receiver&apos;s clock{" "}
      <span className="text-slate-700 dark:text-slate-300">
        (<UtcTime value={utc} />)
      </span>
    </span>
  );
}

function DeviceV2Panel({
  device,
  index,
  glucoseUnit,
  upload,
  receiverTimes,
}: {
  device: CgmDevice;
  index: number;
  glucoseUnit: GlucoseUnit;
  upload: string | undefined;
  /** UTC times (uploads, override ends) on the receiver's clock. */
  receiverTimes: Map<string, string>;
}) {
  const notReported = <span className="text-slate-700 dark:text-slate-300">Not reported</span>;
  return (
    <Panel title={deviceTitle(device)} id={`device-${index}`}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-700 dark:text-slate-300">Transmitter generation</dt>
        <dd>{generationLabel(device.transmitterGeneration) ?? notReported}</dd>
        <dt className="text-slate-700 dark:text-slate-300">Display device</dt>
        <dd>{displayDeviceLabel(device.displayDevice) ?? notReported}</dd>
        <dt className="text-slate-700 dark:text-slate-300">Last upload</dt>
        <dd>
          <UploadTime utc={device.lastUploadDate} receiver={upload} />
        </dd>
      </dl>
      {device.alertScheduleList.length === 0 && <p>No alert schedules are reported for this device.</p>}
      {device.alertScheduleList.map((schedule, j) => {
        const s = schedule.alertScheduleSettings;
        const headingId = `device-${index}-schedule-${j}`;
        const named = scheduleName(s);
        // API v3: the manual override (quiet or vibrate), its end on the receiver's clock.
        const override = overrideText(
          s.override,
          s.override?.endTime ? receiverTimes.get(s.override.endTime) : undefined,
        );
        return (
          <section
            // biome-ignore lint/suspicious/noArrayIndexKey: a server-rendered, never-reordered list; two records may share every field.
            key={`${s.alertScheduleName}|${j}`}
            aria-labelledby={headingId}
            className="space-y-3 border-t border-slate-200 pt-4 dark:border-slate-800"
          >
            <h3 id={headingId} className="flex flex-wrap items-center gap-2 font-semibold">
              <span>{named.heading}</span>
              {s.isDefaultSchedule && (
                <span className="rounded bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-800 dark:bg-slate-800 dark:text-slate-200">
                  Default
                </span>
              )}
              <span
                className={`rounded px-2 py-0.5 text-xs font-medium ${
                  s.isEnabled
                    ? "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200"
                    : "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200"
                }`}
              >
                {s.isEnabled ? "Enabled" : "Disabled"}
              </span>
              {typeof s.isActive === "boolean" && (
                <span
                  data-testid="schedule-active"
                  className={`rounded px-2 py-0.5 text-xs font-medium ${
                    s.isActive
                      ? "bg-blue-100 text-blue-900 dark:bg-blue-950 dark:text-blue-200"
                      : "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200"
                  }`}
                >
                  {s.isActive ? "In use at the last upload" : "Not in use at the last upload"}
                </span>
              )}
            </h3>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-slate-700 dark:text-slate-300">Days</dt>
              <dd>{scheduleDaysText(s.daysOfWeek)}</dd>
              <dt className="text-slate-700 dark:text-slate-300">Hours (receiver time)</dt>
              <dd>{scheduleHoursText(s.startTime, s.endTime)}</dd>
              {override && (
                <>
                  <dt className="text-slate-700 dark:text-slate-300">Override</dt>
                  <dd data-testid="override" data-mode={s.override?.mode}>
                    {override}
                  </dd>
                </>
              )}
            </dl>
            {schedule.alertSettings && schedule.alertSettings.length > 0 ? (
              <AlertSettingsTable
                caption={named.settingsCaption}
                settings={schedule.alertSettings}
                glucoseUnit={glucoseUnit}
              />
            ) : (
              <p>No alert settings are reported for this schedule.</p>
            )}
          </section>
        );
      })}
    </Panel>
  );
}
