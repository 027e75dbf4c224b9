import type { AgpReport } from "@/lib/reports/agp/agp-model";
import { lowsAtNightText } from "@/lib/reports/episodes-view";
import { EpisodesTable } from "./EpisodesTable";

/**
 * The AGP report's CGM episodes of the period (2023 consensus, computed as iglu does), and the share
 * of lows that started at night. On paper it is a compact table beside the daily profiles (count,
 * per day and mean duration of each kind: app/globals.css), so the report stays one page.
 */
export function AgpEpisodes({ report }: { report: AgpReport }) {
  const atNight = report.episodes ? lowsAtNightText(report.episodes.lows) : null;
  return (
    <section aria-labelledby="agp-episodes-heading" className="agp-episodes" data-testid="agp-episodes">
      <h2 id="agp-episodes-heading" className="mb-1 font-semibold">
        Lows and highs{" "}
        <span className="font-normal text-slate-700 print:hidden dark:text-slate-300">
          · episodes of 15 minutes or more; night is 00:00–06:00 on the receiver&apos;s clock
        </span>
      </h2>
      {report.metrics.nValues === 0 ? (
        <p>No readings in this period.</p>
      ) : report.episodes === null ? (
        <p>The readings are too far apart (more than 45 minutes) to count episodes.</p>
      ) : (
        <>
          <EpisodesTable view={report.episodes} unit={report.unit} />
          {/* On paper the heading is short (the column is narrow): the rule and the night's hours are said here. */}
          <p
            className={`agp-night-share mt-1 text-sm ${atNight ? "" : "hidden print:block"}`}
            data-testid="agp-night-share"
          >
            <span className="hidden print:inline">Episodes of 15 min or more. </span>
            {atNight && (
              <>
                {atNight}
                <span className="hidden print:inline"> (00:00–06:00)</span>.
              </>
            )}
          </p>
        </>
      )}
    </section>
  );
}
