import type { CgmAlertSetting } from "@/lib/cgm/app-records";
import type { GlucoseUnit } from "@/lib/cgm/units";
import {
  alertNameLabel,
  alertSoundText,
  alertValueText,
  orderAlertSettings,
  snoozeText,
} from "@/lib/records/devices";
import { countText } from "@/lib/records/format";
import { Blank, ColumnHeads, DisplayTime, RecordTable, TD, TH_ROW, TR } from "./RecordTable";

/**
 * A device's alert settings: name, value (glucose in the display unit), snooze, on/off and when
 * it was last changed. v1 settings (app records as they are) also have a delay; v2 settings have none (spec 2.4); v3
 * settings may have one (and may not say when they were changed).
 */
export function AlertSettingsTable({
  caption,
  settings,
  glucoseUnit,
}: {
  caption: string;
  settings: CgmAlertSetting[];
  glucoseUnit: GlucoseUnit;
}) {
  const withDelay = settings.some((s) => typeof s.delay === "number");
  // API v3's sound settings (G7 family); the column only when some setting has one.
  const soundOf = (s: CgmAlertSetting) => ("soundOutputMode" in s ? alertSoundText(s) : null);
  const withSound = settings.some((s) => soundOf(s) !== null);
  return (
    <RecordTable caption={caption}>
      <ColumnHeads
        names={[
          "Alert",
          "Alert at",
          "Snooze",
          withDelay && "Delay",
          withSound && "Sound",
          "Enabled",
          "Last changed (receiver)",
        ]}
      />
      <tbody>
        {orderAlertSettings(settings).map((s) => {
          const value = alertValueText(s, glucoseUnit);
          const snooze = snoozeText(s.snooze);
          return (
            <tr key={s.alertName} className={TR}>
              <th scope="row" className={TH_ROW}>
                {alertNameLabel(s.alertName)}
              </th>
              <td data-label="Alert at" className={`${TD} whitespace-nowrap tabular-nums`}>
                {value ?? <Blank label="not set" />}
              </td>
              <td data-label="Snooze" className={`${TD} whitespace-nowrap tabular-nums`}>
                {snooze ?? <Blank label="not given" />}
              </td>
              {withDelay && (
                <td data-label="Delay" className={`${TD} whitespace-nowrap tabular-nums`}>
                  {typeof s.delay === "number" ? (
                    countText(s.delay, "minute", "minutes")
                  ) : (
                    <Blank label="not given" />
                  )}
                </td>
              )}
              {withSound && (
                <td data-label="Sound" className={`${TD} whitespace-nowrap`}>
                  {soundOf(s) ?? <Blank label="not given" />}
                </td>
              )}
              <td data-label="Enabled" className={TD}>
                {s.enabled ? "On" : "Off"}
              </td>
              <td data-label="Last changed (receiver)" className={`${TD} whitespace-nowrap`}>
                {s.displayTime ? <DisplayTime value={s.displayTime} /> : <Blank label="not given" />}
              </td>
            </tr>
          );
        })}
      </tbody>
    </RecordTable>
  );
}
