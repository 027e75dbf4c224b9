import type { AgpReport } from "@/lib/reports/agp-model";
import { EpisodesTable } from "./EpisodesTable";

/**
 * The AGP report's CGM episodes of the period (2023 consensus, computed as iglu does). On screen
 * only for now: the consensus's one-page AGP had no room left for it (even at 6.5 pt the report
 * printed on two pages), and the printed AGP must stay one page.
 */
export function AgpEpisodes({ report }: { report: AgpReport }) {
  return (
    <section aria-labelledby="agp-episodes-heading" className="agp-episodes print:hidden">
      <h2 id="agp-episodes-heading" className="mb-1 font-semibold">
        Lows and highs{" "}
        <span className="font-normal text-slate-700 dark:text-slate-300">
          · episodes of 15 minutes or more; night is 00:00–06:00 on the receiver&apos;s clock
        </span>
      </h2>
      {report.metrics.nValues === 0 ? (
        <p>No readings in this period.</p>
      ) : report.episodes === null ? (
        <p>The readings are too far apart (more than 45 minutes) to count episodes.</p>
      ) : (
        <EpisodesTable view={report.episodes} unit={report.unit} />
      )}
    </section>
  );
}
