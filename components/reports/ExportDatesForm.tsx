import { DayField } from "@/components/forms/DayField";

/**
 * The export's own dates: a plain GET form back to the page (it works without JavaScript), which
 * turns the two days into a period. A mistake comes back as a message beside the fields.
 */
export function ExportDatesForm({
  from,
  to,
  error,
  action = "/reports/export",
  clock = "your receiver's clock",
}: {
  from: string;
  to: string;
  error: string | null;
  /** The export page the form comes back to: the patient's own, or the clinic's for its patient. */
  action?: string;
  clock?: string;
}) {
  const described = error ? "export-dates-error export-dates-help" : "export-dates-help";
  return (
    <form method="get" action={action} aria-labelledby="export-dates-heading" className="space-y-2">
      <h3 id="export-dates-heading" className="text-sm font-medium text-slate-700 dark:text-slate-300">
        Or choose the days
      </h3>
      <div className="flex flex-wrap items-end gap-3">
        <DayField
          label="First day"
          name="from"
          defaultValue={from}
          invalid={!!error}
          describedBy={described}
        />
        <DayField label="Last day" name="to" defaultValue={to} invalid={!!error} describedBy={described} />
        <button
          type="submit"
          className="rounded-lg border border-slate-400 px-4 py-2 text-sm font-medium hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:border-slate-600 dark:hover:bg-slate-800 dark:focus-visible:outline-blue-400"
        >
          Use these days
        </button>
      </div>
      {error && (
        <p id="export-dates-error" className="text-sm font-medium text-red-800 dark:text-red-300">
          {error}
        </p>
      )}
      <p id="export-dates-help" className="text-sm text-slate-700 dark:text-slate-300">
        {`Days on ${clock}, from 00:00 on the first day to 23:59:59 on the last, at most 90 days.`}
      </p>
    </form>
  );
}
