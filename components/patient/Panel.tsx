/** A titled card: the unit of layout of the patient pages. */
export function Panel({
  title,
  children,
  id,
  actions,
}: {
  title: string;
  children: React.ReactNode;
  id?: string;
  actions?: React.ReactNode;
}) {
  const headingId = id ? `${id}-heading` : undefined;
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      <div className="mt-3 space-y-4">{children}</div>
    </section>
  );
}
