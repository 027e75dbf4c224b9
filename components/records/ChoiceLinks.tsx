import Link from "next/link";
import type { Choice } from "@/lib/records/query";

/** A row of plain links, one of them current: the filters of the record pages, without JavaScript. */
export function ChoiceLinks({ id, label, choices }: { id: string; label: string; choices: Choice[] }) {
  return (
    <nav aria-labelledby={id} className="flex flex-wrap items-center gap-x-3 gap-y-2">
      <span id={id} className="text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </span>
      <ul className="flex flex-wrap gap-2">
        {choices.map((c) => (
          <li key={c.href}>
            <Link
              href={c.href}
              aria-current={c.current ? "true" : undefined}
              className="inline-flex items-center gap-1 rounded-full border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 aria-[current=true]:border-blue-700 aria-[current=true]:bg-blue-700 aria-[current=true]:text-white dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800 dark:focus-visible:outline-blue-400 dark:aria-[current=true]:border-blue-300 dark:aria-[current=true]:bg-blue-300 dark:aria-[current=true]:text-slate-950"
            >
              {c.label}
              {c.count !== undefined && <span className="tabular-nums">({c.count})</span>}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
