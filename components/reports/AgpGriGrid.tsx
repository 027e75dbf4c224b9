import { formatDayText } from "@/lib/records/format";
import type { AgpReport } from "@/lib/reports/agp/agp-model";
import { GriGrid, type GriGridPeriod } from "./GriGrid";

const days = (first: string | null, last: string | null) =>
  first && last ? `${formatDayText(first)} – ${formatDayText(last)}` : null;

/** The AGP's GRI grid: this period's point, and the previous period's (same length, just before). */
export function AgpGriGrid({ report }: { report: AgpReport }) {
  const { current, previous } = report.gri;
  if (current === null) return null;
  const periods: GriGridPeriod[] = [
    { key: "current", label: "This period", dates: null, index: current, marker: "filled" },
  ];
  if (previous !== "unread") {
    periods.push({
      key: "previous",
      label: `Previous ${report.period.days} days`,
      dates: days(previous.firstDay, previous.lastDay),
      index: previous.index,
      marker: "hollow",
    });
  }
  // On paper it stands beside the profile (app/globals.css), so the report keeps to one page.
  return (
    <section aria-labelledby="agp-gri-heading" className="agp-gri" data-testid="agp-gri">
      <h2 id="agp-gri-heading" className="mb-2 font-semibold">
        Glycemia Risk Index grid
      </h2>
      <GriGrid id="agp-gri-grid" periods={periods} />
      {previous === "unread" && (
        <p className="mt-1 text-xs text-slate-700 dark:text-slate-300">
          The previous period could not be read, so only this period is placed.
        </p>
      )}
    </section>
  );
}
