import { formatDateTimeText } from "@/lib/records/format";

/**
 * The frame of every record table: a caption, and below 480 px stacked rows (the `stack-narrow`
 * class of app/globals.css: give every td a data-label, its column's name). Wider, the region
 * scrolls sideways if it must (it is focusable so a keyboard can scroll it too). It is `relative` so that the absolutely
 * placed screen-reader text of its cells stays inside it instead of widening the page.
 */
export function RecordTable({
  caption,
  label = caption,
  captionHidden = false,
  fitWidth = false,
  capped = false,
  testId,
  className,
  children,
}: {
  /** What the table lists, as its caption says it. */
  caption: string;
  /** The scrolling region's name, when it is shorter than the caption; else the caption. */
  label?: string;
  /** The caption for screen readers only, when the words around the table already say it. */
  captionHidden?: boolean;
  /**
   * A table of few columns that wrap (a name, an address) and never need to scroll sideways;
   * else it keeps the width its many columns need, and scrolls.
   */
  fitWidth?: boolean;
  /** At most 24 rem tall, scrolling within (a long list opened in a <details>). */
  capped?: boolean;
  testId?: string;
  /** More classes for the table: `stack-inline` for rows of short numbers, or what its cells share. */
  className?: string;
  children: React.ReactNode;
}) {
  const frame = capped ? "mt-2 max-h-96 overflow-auto" : "overflow-x-auto";
  const table = [
    "stack-narrow w-full",
    fitWidth ? "" : "min-w-[34rem]",
    "border-collapse text-left text-sm",
    className,
  ];
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to be scrolled (WCAG 2.1.1).
      tabIndex={0}
      className={`relative ${frame} rounded-lg focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-400`}
    >
      <table className={table.filter(Boolean).join(" ")} data-testid={testId}>
        <caption
          className={
            captionHidden
              ? "sr-only"
              : "mb-2 caption-top text-left text-sm text-slate-700 dark:text-slate-300"
          }
        >
          {caption}
        </caption>
        {children}
      </table>
    </section>
  );
}

export const TH_COL =
  "border-b border-slate-300 px-3 py-2 font-semibold whitespace-nowrap text-slate-700 dark:border-slate-700 dark:text-slate-300";
export const TH_ROW = "px-3 py-2 text-left font-medium whitespace-nowrap";
export const TD = "px-3 py-2";
export const TR = "border-b border-slate-200 last:border-b-0 dark:border-slate-800";

/** A cell without a value: a dash on screen, a word for screen readers. */
export function Blank({ label = "none" }: { label?: string }) {
  return (
    <>
      <span aria-hidden="true">—</span>
      <span className="sr-only">{label}</span>
    </>
  );
}

/** A receiver (display) time as written, readable: it is the patient's local clock. */
export function DisplayTime({ value }: { value: string }) {
  return <time dateTime={value}>{formatDateTimeText(value)}</time>;
}

/** A server time on the UTC clock (lastUploadDate). */
export function UtcTime({ value }: { value: string }) {
  return <time dateTime={`${value}Z`}>{formatDateTimeText(value)} UTC</time>;
}

/** A table's column headers, in order; a `false` name is a column the table leaves out. */
export function ColumnHeads({ names }: { names: readonly (string | false)[] }) {
  return (
    <thead>
      <tr>
        {names.map(
          (name) =>
            name !== false && (
              <th key={name} scope="col" className={TH_COL}>
                {name}
              </th>
            ),
        )}
      </tr>
    </thead>
  );
}
