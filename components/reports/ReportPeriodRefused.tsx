/**
 * The AGP report's answer to a period it cannot show (a bad date, too long, in the future): what
 * is wrong, and the way back to the default 14 days. The patient's and the clinic's report pages
 * say it alike.
 */
export function ReportPeriodRefused({ message, defaultHref }: { message: string; defaultHref: string }) {
  return (
    <p
      role="alert"
      className="rounded-md border border-amber-400 bg-amber-50 px-4 py-3 text-amber-950 dark:bg-amber-950 dark:text-amber-100"
    >
      This report period cannot be shown: {message}.{" "}
      <a href={defaultHref} className="font-medium underline">
        Show the last 14 days
      </a>
    </p>
  );
}
