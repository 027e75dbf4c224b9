"use client";

import Link, { useLinkStatus } from "next/link";
import { TRACE_RANGE_LABELS, TRACE_RANGES, type TraceRange } from "@/lib/dashboard/ranges";

/**
 * While the chosen period loads, the old view stays and its link says it is loading: the overview
 * has no loading skeleton, because React reveals streamed content no sooner than 300 ms after a
 * fallback's first frame, which held the trace back longer than the data takes to read.
 */
function PendingMark() {
  const { pending } = useLinkStatus();
  return pending ? (
    <span className="ml-1.5 inline-block motion-safe:animate-pulse">
      …<span className="sr-only">loading</span>
    </span>
  ) : null;
}

/** The trace's period: links, so each view has its own address and works without JavaScript. */
export function RangePicker({
  current,
  basePath = "/dashboard",
}: {
  current: TraceRange;
  basePath?: string;
}) {
  return (
    <nav aria-label="Period of the trace">
      <ul className="flex flex-wrap gap-1">
        {(Object.keys(TRACE_RANGES) as TraceRange[]).map((r) => (
          <li key={r}>
            <Link
              href={`${basePath}?range=${r}`}
              aria-current={r === current ? "page" : undefined}
              className="inline-block rounded-md border border-slate-300 px-2.5 py-1 text-sm font-medium hover:bg-slate-100 aria-[current=page]:border-blue-700 aria-[current=page]:bg-blue-700 aria-[current=page]:text-white dark:border-slate-600 dark:hover:bg-slate-800 dark:aria-[current=page]:border-blue-400 dark:aria-[current=page]:bg-blue-400 dark:aria-[current=page]:text-slate-950"
            >
              {TRACE_RANGE_LABELS[r]}
              <PendingMark />
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
