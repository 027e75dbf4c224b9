import Link from "next/link";

const REPORTS = [
  { href: "/reports", label: "AGP report" },
  { href: "/reports/compare", label: "Compare periods" },
  { href: "/reports/statistics", label: "Time-of-day statistics" },
  { href: "/reports/export", label: "Export" },
] as const;

/** The reports' own navigation, under the patient's: one row of links, not printed. */
export function ReportsNav({ current }: { current: (typeof REPORTS)[number]["href"] }) {
  return (
    <nav aria-label="Reports" className="print:hidden">
      <ul className="flex flex-wrap gap-2 text-sm">
        {REPORTS.map((r) => (
          <li key={r.href}>
            <Link
              href={r.href}
              aria-current={r.href === current ? "page" : undefined}
              className="inline-block rounded-full border border-slate-300 px-3 py-1 font-medium text-slate-800 hover:bg-slate-100 aria-[current=page]:border-blue-700 aria-[current=page]:bg-blue-700 aria-[current=page]:text-white dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-[current=page]:border-blue-400 dark:aria-[current=page]:bg-blue-400 dark:aria-[current=page]:text-slate-950"
            >
              {r.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
