import Link from "next/link";
import { AppHeader } from "@/components/layout/AppHeader";
import type { BlockedState } from "@/lib/dashboard/blocked-state";
import { BlockedNotice } from "./BlockedNotice";

/** The patient's pages: the header, a navigation between the views, and the page's content. */
const VIEWS = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/day", label: "Daily" },
  { href: "/dashboard/events", label: "Events" },
  { href: "/dashboard/alerts", label: "Alerts" },
  { href: "/dashboard/calibrations", label: "Calibrations" },
  { href: "/dashboard/devices", label: "Devices" },
  { href: "/dashboard/notes", label: "Notes" },
  { href: "/reports", label: "Reports" },
  { href: "/sharing", label: "Sharing" },
] as const;

/** Reports holds several pages: its link stays marked on each of them. */
const isCurrent = (href: string, current: string) => href === "/reports" && current.startsWith(`${href}/`);

export function PatientShell({
  current,
  title,
  children,
}: {
  current: string;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <>
      <AppHeader signedIn />
      <nav
        aria-label="Views"
        className="border-b border-slate-200 bg-white print:hidden dark:border-slate-800 dark:bg-slate-900"
      >
        <ul className="mx-auto flex max-w-6xl flex-wrap gap-x-1 px-2 sm:px-4">
          {VIEWS.map((v) => (
            <li key={v.href}>
              <Link
                href={v.href}
                aria-current={v.href === current ? "page" : isCurrent(v.href, current) ? "true" : undefined}
                className="inline-block border-b-2 border-transparent px-2 py-2.5 text-sm sm:px-3 font-medium text-slate-700 hover:text-slate-950 aria-[current=page]:border-blue-700 aria-[current=page]:text-blue-800 aria-[current=true]:border-blue-700 aria-[current=true]:text-blue-800 dark:text-slate-300 dark:hover:text-white dark:aria-[current=page]:border-blue-400 dark:aria-[current=page]:text-blue-300 dark:aria-[current=true]:border-blue-400 dark:aria-[current=true]:text-blue-300"
              >
                {v.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main className="mx-auto max-w-6xl space-y-6 px-4 py-6 print:max-w-none print:space-y-2 print:p-0">
        <h1 className="text-2xl font-semibold print:text-lg">{title}</h1>
        {children}
      </main>
    </>
  );
}

/** A patient page that cannot show data: its frame, and why, with the way back to this page. */
export function BlockedPage({
  current,
  title,
  state,
}: {
  current: string;
  title: string;
  state: BlockedState;
}) {
  return (
    <PatientShell current={current} title={title}>
      <BlockedNotice state={state} returnTo={current} />
    </PatientShell>
  );
}
