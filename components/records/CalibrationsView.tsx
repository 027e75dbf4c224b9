import { Panel } from "@/components/patient/Panel";
import type { CalibrationsModel } from "@/lib/dashboard/records/calibrations-model";
import { PATIENT, type Viewer } from "@/lib/records/viewer";
import { CalibrationsTable } from "./CalibrationsTable";
import { ChoiceLinks } from "./ChoiceLinks";
import { RecordsPeriod } from "./RecordsPeriod";

/** The calibrations page's body: the period, the devices, the period links and the table, or why there is nothing. */
export function CalibrationsView({ model, viewer = PATIENT }: { model: CalibrationsModel; viewer?: Viewer }) {
  if (model.kind === "none") {
    return (
      <Panel title="No calibrations" id="calibrations-empty">
        <p>{model.emptyText}</p>
      </Panel>
    );
  }
  const { deviceNames, rows } = model;
  return (
    <Panel title="Fingerstick calibrations" id="calibrations">
      <RecordsPeriod
        days={model.patientDays}
        latest={model.latestDisplayTime}
        what="calibration"
        viewer={viewer}
      />
      {deviceNames.length > 0 && (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {deviceNames.length === 1 ? "Device" : "Devices"} in this period: {deviceNames.join("; ")}
        </p>
      )}
      <ChoiceLinks id="calibrations-period" label="Period" choices={model.periodChoices} />
      {rows.length === 0 ? (
        <p>No calibrations on these days.</p>
      ) : (
        <CalibrationsTable caption={model.caption} rows={rows} />
      )}
    </Panel>
  );
}
