import { METHODS_ENTRIES } from "@/lib/reports/export/methods";

/** The methods footnote of every report (its words: lib/reports/export/methods.ts): small print, but always there. */
export function MethodsNote({ id = "methods" }: { id?: string }) {
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="methods-note mt-6 border-t border-slate-300 pt-3 text-xs text-slate-700 dark:border-slate-700 dark:text-slate-300"
    >
      <h2 id={`${id}-heading`} className="mb-1 text-sm font-semibold">
        Methods
      </h2>
      <dl className="grid gap-x-3 gap-y-1 sm:grid-cols-[10rem_1fr]">
        {METHODS_ENTRIES.map((e) => (
          <div key={e.term} className="contents">
            <dt className="font-medium">{e.term}</dt>
            <dd>
              {e.definition} <span className="text-slate-600 dark:text-slate-400">({e.source})</span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
