import { Panel } from "@/components/patient/Panel";
import { ChoiceLinks } from "@/components/records/ChoiceLinks";
import { DisplayTime, UtcTime } from "@/components/records/RecordTable";
import { formatDayText } from "@/lib/records/format";
import { PATIENT, type Viewer, viewPath, wordsFor } from "@/lib/records/viewer";
import type { ExportModel } from "@/lib/reports/export/export-page-model";
import { ExportContents } from "./ExportContents";
import { ExportDatesForm } from "./ExportDatesForm";
import { MethodsNote } from "./MethodsNote";

/** The export page's body: the period (links and own dates), the download, the methods; null: nothing to export. */
export function ExportView({ model, viewer = PATIENT }: { model: ExportModel | null; viewer?: Viewer }) {
  const { your, Your, clock } = wordsFor(viewer);
  if (model === null) {
    return (
      <Panel title="Nothing to export yet" id="export-empty">
        <p>
          {`${viewer.kind === "clinic" ? "The patient's CGM account" : "Your CGM account"} holds no readings, events or calibrations yet. Once ${your} receiver or app has uploaded data, ${viewer.kind === "clinic" ? "the clinic" : "you"} can download it here.`}
        </p>
      </Panel>
    );
  }
  const { download } = model;
  return (
    <>
      <Panel title="Period" id="export-period">
        <p className="text-slate-700 dark:text-slate-300" data-testid="export-span">
          {`${Your} records run from ${formatDayText(model.span.first)} to ${formatDayText(model.span.last)} on ${clock}. Periods in days end at ${your} newest record, `}
          <DisplayTime value={model.newestDisplayTime} />
          {` on ${clock}.`}
        </p>
        <ChoiceLinks id="export-days" label="Last" choices={model.choices} />
        <ExportDatesForm
          from={model.form.from}
          to={model.form.to}
          error={model.form.error}
          action={viewPath(viewer, "/export")}
          clock={clock}
        />
      </Panel>
      <Panel title="Download" id="export-download">
        {download ? (
          <>
            <ExportPeriodText download={download} viewer={viewer} />
            {/* A plain link, not `download`: the file comes as an attachment under its name, and a
                download that cannot be made shows its page that says why, not a failed download. */}
            <a
              href={download.href}
              className="inline-flex flex-wrap items-center gap-x-2 rounded-lg bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-400"
            >
              Download the export
              <span data-testid="export-file-name" className="font-mono text-sm font-normal">
                <span className="break-all">{download.fileNameParts[0]}</span>
                <wbr />
                <span className="whitespace-nowrap">{download.fileNameParts[1]}</span>
              </span>
            </a>
            <ExportContents unit={model.unit} viewer={viewer} />
          </>
        ) : (
          <p>Choose a period above to download its records.</p>
        )}
      </Panel>
      <MethodsNote />
    </>
  );
}

/** The chosen period in words: as asked, its days on the receiver's clock, its bounds on the service's clock. */
function ExportPeriodText({
  download: { request, period },
  viewer,
}: {
  download: NonNullable<ExportModel["download"]>;
  viewer: Viewer;
}) {
  const { your, clock } = wordsFor(viewer);
  return (
    <p data-testid="export-period">
      {request.kind === "days" ? `The ${request.days} days up to ${your} newest record: ` : ""}
      {period.patientDays ? (
        <>
          {request.kind === "days" ? "from" : "From"}{" "}
          <time dateTime={period.patientDays.firstDay}>{formatDayText(period.patientDays.firstDay)}</time> to{" "}
          <time dateTime={period.patientDays.lastDay}>{formatDayText(period.patientDays.lastDay)}</time>
          {` on ${clock} (the service's records from `} <UtcTime value={period.startDate} /> to{" "}
          <UtcTime value={period.endDate} />
          ).
        </>
      ) : (
        <>
          From <UtcTime value={period.startDate} /> to <UtcTime value={period.endDate} />.
        </>
      )}
    </p>
  );
}
