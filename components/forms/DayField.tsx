/**
 * A day on the receiver's clock as a date field: the report, comparison, export and daily-view forms
 * ask for days alike, in one style in light and dark (the browser's own picker follows the theme).
 * A field with a mistake says so to assistive technology (aria-invalid) and in its border.
 */
const DAY_INPUT =
  "rounded-lg border border-slate-400 bg-white px-3 py-1.5 text-slate-900 aria-[invalid=true]:border-red-700 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:[color-scheme:dark] dark:aria-[invalid=true]:border-red-400";

export function DayField({
  id,
  label,
  name,
  defaultValue,
  min,
  max,
  required = true,
  invalid = false,
  describedBy,
}: {
  /** The input's id, where a page links to the field or a test reads it. */
  id?: string;
  label: string;
  name: string;
  defaultValue?: string;
  min?: string;
  max?: string;
  required?: boolean;
  invalid?: boolean;
  describedBy?: string;
}) {
  return (
    <label className="flex flex-col gap-1 text-sm font-medium text-slate-700 dark:text-slate-300">
      {label}
      <input
        id={id}
        type="date"
        name={name}
        defaultValue={defaultValue}
        min={min}
        max={max}
        required={required}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        className={DAY_INPUT}
      />
    </label>
  );
}
