import type { Metadata } from "next";
import { Panel } from "@/components/patient/Panel";
import { BlockedPage, PatientShell } from "@/components/patient/PatientShell";
import { ChoiceLinks } from "@/components/records/ChoiceLinks";
import { DisplayTime, UtcTime } from "@/components/records/RecordTable";
import { ExportContents } from "@/components/reports/ExportContents";
import { ExportDatesForm } from "@/components/reports/ExportDatesForm";
import { MethodsNote } from "@/components/reports/MethodsNote";
import { ReportsNav } from "@/components/reports/ReportsNav";
import { formatDateTime } from "@/lib/cgm/datetime";
import { isBlocked, patientPage, withServiceStates } from "@/lib/dashboard/patient-page";
import { formatDayText } from "@/lib/records/format";
import { firstParam, type SearchParam } from "@/lib/records/query";
import { dataDays, exportFileName, exportHref, exportPageRequest } from "@/lib/reports/export";
import { newestRecord } from "@/lib/reports/patient-days";
import { REPORT_DEFAULT_DAYS, REPORT_PERIOD_DAYS } from "@/lib/reports/period";
import { patientClock, resolveReportPeriod } from "@/lib/reports/period-load";
import { readDataRange, readEgvs } from "@/lib/sync/source";

export const metadata: Metadata = { title: "Export" };

const PATH = "/reports/export";
const TITLE = "Export your data";

/**
 * The export of EGVs, events and calibrations as one zip of CSV files with the methods note: a
 * period of 7–90 days up to the newest record, or the patient's own days. The page only learns
 * where the data ends (and its unit); the download link asks the API, which reads the records.
 */
export default async function ExportPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, SearchParam>>;
}) {
  const params = await searchParams;
  const from = firstParam(params.from);
  const to = firstParam(params.to);
  const { request, error } = exportPageRequest({ days: firstParam(params.days), from, to });

  const page = await patientPage();
  if (isBlocked(page)) return <BlockedPage current={PATH} title={TITLE} state={page.blocked} />;
  const data = await withServiceStates(async () => {
    const range = await readDataRange(page.connection);
    const newest = newestRecord(range, true);
    const span = dataDays(range);
    if (newest === null || span === null) return null;
    // The unit the readings come in, from the newest second of data: the files keep it.
    const probe = range.egvs
      ? await readEgvs(page.connection, {
          startDate: formatDateTime(newest.t - 1000),
          endDate: formatDateTime(newest.t),
        })
      : null;
    const period = request ? await resolveReportPeriod(patientClock(page.connection, newest), request) : null;
    return { newest, span, unit: probe?.unit ?? null, period };
  });
  if (isBlocked(data)) return <BlockedPage current={PATH} title={TITLE} state={data.blocked} />;

  if (data === null) {
    return (
      <PatientShell current={PATH} title={TITLE}>
        <ReportsNav current={PATH} />
        <Panel title="Nothing to export yet" id="export-empty">
          <p>
            Your CGM account holds no readings, events or calibrations yet. Once your receiver or app has
            uploaded data, you can download it here.
          </p>
        </Panel>
      </PatientShell>
    );
  }

  const { period } = data;
  const fileName = period ? exportFileName(period) : null;
  const formDays = period?.patientDays
    ? { from: period.patientDays.firstDay, to: period.patientDays.lastDay }
    : { from: from ?? "", to: to ?? "" };

  return (
    <PatientShell current={PATH} title={TITLE}>
      <ReportsNav current={PATH} />
      <Panel title="Period" id="export-period">
        <p className="text-slate-700 dark:text-slate-300" data-testid="export-span">
          Your records run from {formatDayText(data.span.first)} to {formatDayText(data.span.last)} on your
          receiver&apos;s clock. Periods in days end at your newest record,{" "}
          <DisplayTime value={formatDateTime(data.newest.displayMs)} /> on your receiver&apos;s clock.
        </p>
        <ChoiceLinks
          id="export-days"
          label="Last"
          choices={REPORT_PERIOD_DAYS.map((d) => ({
            href: d === REPORT_DEFAULT_DAYS ? PATH : `${PATH}?days=${d}`,
            label: `${d} days`,
            current: request?.kind === "days" && request.days === d,
          }))}
        />
        <ExportDatesForm from={formDays.from} to={formDays.to} error={error} />
      </Panel>
      <Panel title="Download" id="export-download">
        {period && request && fileName ? (
          <>
            <p data-testid="export-period">
              {request.kind === "days" ? `The ${request.days} days up to your newest record: ` : ""}
              {period.patientDays ? (
                <>
                  {request.kind === "days" ? "from" : "From"}{" "}
                  <time dateTime={period.patientDays.firstDay}>
                    {formatDayText(period.patientDays.firstDay)}
                  </time>{" "}
                  to{" "}
                  <time dateTime={period.patientDays.lastDay}>
                    {formatDayText(period.patientDays.lastDay)}
                  </time>{" "}
                  on your receiver&apos;s clock (the service&apos;s records from{" "}
                  <UtcTime value={period.startDate} /> to <UtcTime value={period.endDate} />
                  ).
                </>
              ) : (
                <>
                  From <UtcTime value={period.startDate} /> to <UtcTime value={period.endDate} />.
                </>
              )}
            </p>
            <a
              href={exportHref(request)}
              download={fileName}
              className="inline-flex flex-wrap items-center gap-x-2 rounded-lg bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-400"
            >
              Download the export
              <span data-testid="export-file-name" className="font-mono text-sm font-normal">
                {/* A phone breaks the long name after the underscore only, never inside a date. */}
                <span className="whitespace-nowrap">{fileName.replace(/_.*/, "_")}</span>
                <wbr />
                <span className="whitespace-nowrap">{fileName.replace(/^[^_]*_/, "")}</span>
              </span>
            </a>
            <ExportContents unit={data.unit} />
          </>
        ) : (
          <p>Choose a period above to download its records.</p>
        )}
      </Panel>
      <MethodsNote />
    </PatientShell>
  );
}
