import type { GlucoseUnit } from "@/lib/cgm/units";
import { sentinelValue } from "@/lib/cgm/values";
import { PATIENT, type Viewer, wordsFor } from "@/lib/records/viewer";

/** What the zip holds, said before it is downloaded. */
export function ExportContents({ unit, viewer = PATIENT }: { unit: GlucoseUnit | null; viewer?: Viewer }) {
  const { your, account } = wordsFor(viewer);
  const files = [
    [
      "egvs.csv",
      "every glucose reading (EGV): systemTime, displayTime, value, unit, realtimeValue, smoothedValue, status, trend, trendRate, rateUnit",
    ],
    [
      "events.csv",
      "every logged carbs, insulin, exercise and health event, deleted ones included (eventStatus)",
    ],
    ["calibrations.csv", "every fingerstick calibration: systemTime, displayTime, value, unit"],
    [
      "methods.txt",
      `the period, ${your} data's unit, when the export was made, what each column means, and the methods note below`,
    ],
  ] as const;
  return (
    <>
      <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[9rem_1fr]">
        {files.map(([name, what]) => (
          <div key={name} className="contents">
            <dt className="font-mono font-medium">{name}</dt>
            <dd className="text-slate-700 dark:text-slate-300">{what}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {`The files hold ${your} records exactly as the glucose service sent them, so that every number in a report can be recomputed: `}
        {unit ? `values in ${unit}, the unit ${account} sends, ` : null}
        nothing converted or rounded, gaps left as gaps. Readings below 40 or above 400 mg/dL appear as the
        service writes them, 39 and 401
        {unit === "mmol/L"
          ? ` (${sentinelValue("low", unit)} and ${sentinelValue("high", unit)} in mmol/L)`
          : ""}{" "}
        with status &ldquo;low&rdquo; or &ldquo;high&rdquo;; the dashboard shows them as LOW and HIGH.
        {`systemTime is the service's clock (UTC), displayTime ${your} receiver's. The CSV files open in any spreadsheet.`}
      </p>
    </>
  );
}
