/**
 * The comparison's tables: the caption above the scrolling box rather than inside it (a caption
 * inside scrolls away with the columns on a phone), compact cells, headers that may wrap; below
 * 480 px stacked rows (`stack-narrow`, app/globals.css: every td carries its column's data-label).
 */
export function CompareTableFrame({
  id,
  caption,
  children,
}: {
  id: string;
  caption: string;
  children: React.ReactNode;
}) {
  return (
    <div className="space-y-2">
      <p id={id} className="text-sm text-slate-700 dark:text-slate-300">
        {caption}
      </p>
      <section
        aria-labelledby={id}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to be scrolled (WCAG 2.1.1).
        tabIndex={0}
        className="relative overflow-x-auto rounded-lg focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-400"
      >
        <table aria-labelledby={id} className="stack-narrow w-full border-collapse text-left text-sm">
          {children}
        </table>
      </section>
    </div>
  );
}

export const CT_COL =
  "border-b border-slate-300 px-2 py-2 align-bottom font-semibold text-slate-700 sm:px-3 dark:border-slate-700 dark:text-slate-300";
export const CT_ROW = "px-2 py-2 text-left font-medium sm:px-3";
export const CT_TD = "px-2 py-2 sm:px-3";
export const CT_TR = "border-b border-slate-200 last:border-b-0 dark:border-slate-800";
