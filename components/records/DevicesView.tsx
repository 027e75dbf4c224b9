import { Panel } from "@/components/patient/Panel";
import type { GlucoseUnit } from "@/lib/cgm/units";
import type { DevicesModel, DeviceView, PlacedTime } from "@/lib/dashboard/records/devices-model";
import { PATIENT, type Viewer, wordsFor } from "@/lib/records/viewer";
import { AlertSettingsTable } from "./AlertSettingsTable";
import { DisplayTime, UtcTime } from "./RecordTable";

/** The devices page's body: each device with its alert schedules, then the older interface's records. */
export function DevicesView({ model, viewer = PATIENT }: { model: DevicesModel; viewer?: Viewer }) {
  const { clock } = wordsFor(viewer);
  const { glucoseUnit, period } = model;
  if (model.empty) {
    return (
      <Panel title="No devices" id="devices-empty">
        <p>
          No device uploaded data to {wordsFor(viewer).account} in {period}, so there are no devices or alert
          settings to show.
        </p>
      </Panel>
    );
  }
  return (
    <>
      <p className="text-slate-700 dark:text-slate-300">
        Devices that uploaded data in {period}, with their alert settings as of their last upload. Glucose
        values are shown in {glucoseUnit}.
      </p>
      {model.devices.length === 0 && (
        <Panel title="No current device records" id="devices-v2-empty">
          <p>The service lists no device for this period; the older records below still do.</p>
        </Panel>
      )}
      {model.devices.map((device, i) => (
        <DevicePanel
          // biome-ignore lint/suspicious/noArrayIndexKey: a server-rendered, never-reordered list; two records may share every field.
          key={`${device.upload.utc}|${i}`}
          device={device}
          index={i}
          glucoseUnit={glucoseUnit}
          clock={clock}
        />
      ))}
      {model.v1 && (
        <Panel title="Alert settings reported by the older (v1) interface" id="devices-v1">
          <p className="text-sm text-slate-700 dark:text-slate-300">
            The older interface reports receiver-type devices, one set of alerts each (no schedules), with a
            delay for each alert.
          </p>
          {model.v1.length === 0 ? (
            <p>No device is reported by the older interface for this period.</p>
          ) : (
            model.v1.map((device, i) => (
              <section
                // biome-ignore lint/suspicious/noArrayIndexKey: a server-rendered, never-reordered list; two records may share every field.
                key={`${device.upload.utc}|${i}`}
                aria-labelledby={`v1-device-${i}`}
                className="space-y-3 border-t border-slate-200 pt-4 first:border-t-0 first:pt-0 dark:border-slate-800"
              >
                <h3 id={`v1-device-${i}`} className="font-semibold">
                  {device.title}
                </h3>
                <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                  <dt className="text-slate-700 dark:text-slate-300">Last upload</dt>
                  <dd>
                    <UploadTime time={device.upload} clock={clock} />
                  </dd>
                </dl>
                <AlertSettings
                  caption={device.settingsCaption}
                  settings={device.settings}
                  glucoseUnit={glucoseUnit}
                  of="device"
                />
              </section>
            ))
          )}
        </Panel>
      )}
    </>
  );
}

/** A device's last upload on the receiver's clock, with the service's own UTC time beside it. */
function UploadTime({ time, clock }: { time: PlacedTime; clock: string }) {
  if (!time.receiver) return <UtcTime value={time.utc} />;
  return (
    <span data-testid="last-upload">
      <DisplayTime value={time.receiver} />
      {` on ${clock} `}
      <span className="text-slate-700 dark:text-slate-300">
        (<UtcTime value={time.utc} />)
      </span>
    </span>
  );
}

function DevicePanel({
  device,
  index,
  glucoseUnit,
  clock,
}: {
  device: DeviceView;
  index: number;
  glucoseUnit: GlucoseUnit;
  clock: string;
}) {
  const notReported = <span className="text-slate-700 dark:text-slate-300">Not reported</span>;
  return (
    <Panel title={device.title} id={`device-${index}`}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-700 dark:text-slate-300">Transmitter generation</dt>
        <dd>{device.generation ?? notReported}</dd>
        <dt className="text-slate-700 dark:text-slate-300">Display device</dt>
        <dd>{device.displayDevice ?? notReported}</dd>
        <dt className="text-slate-700 dark:text-slate-300">Last upload</dt>
        <dd>
          <UploadTime time={device.upload} clock={clock} />
        </dd>
      </dl>
      {device.schedules.length === 0 && <p>No alert schedules are reported for this device.</p>}
      {device.schedules.map((s, j) => {
        const headingId = `device-${index}-schedule-${j}`;
        return (
          <section
            // biome-ignore lint/suspicious/noArrayIndexKey: a server-rendered, never-reordered list; two records may share every field.
            key={`${s.name}|${j}`}
            aria-labelledby={headingId}
            className="space-y-3 border-t border-slate-200 pt-4 dark:border-slate-800"
          >
            <h3 id={headingId} className="flex flex-wrap items-center gap-2 font-semibold">
              <span>{s.heading}</span>
              {s.isDefault && (
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
              {s.isActive !== undefined && (
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
              <dd>{s.daysText}</dd>
              <dt className="text-slate-700 dark:text-slate-300">Hours (receiver time)</dt>
              <dd>{s.hoursText}</dd>
              {s.override && (
                <>
                  <dt className="text-slate-700 dark:text-slate-300">Override</dt>
                  <dd data-testid="override" data-mode={s.overrideMode}>
                    {s.override}
                  </dd>
                </>
              )}
            </dl>
            <AlertSettings
              caption={s.settingsCaption}
              settings={s.settings}
              glucoseUnit={glucoseUnit}
              of="schedule"
            />
          </section>
        );
      })}
    </Panel>
  );
}

/** A device's or schedule's alert settings, or a line saying it reports none. */
function AlertSettings({
  of,
  ...table
}: React.ComponentProps<typeof AlertSettingsTable> & { of: "device" | "schedule" }) {
  if (table.settings.length === 0) return <p>No alert settings are reported for this {of}.</p>;
  return <AlertSettingsTable {...table} />;
}
