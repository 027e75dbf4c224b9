import { EpisodesTable } from "@/components/reports/EpisodesTable";
import { mgdlText } from "@/lib/cgm/glucose-text";
import type { GlucoseUnit } from "@/lib/cgm/units";
import type { OverviewEpisodes } from "@/lib/dashboard/overview-model";
import {
  EXTENDED_HYPO_MINUTES,
  HIGH_MAX_MGDL,
  IN_RANGE_MAX_MGDL,
  LOW_BELOW_MGDL,
  VERY_LOW_BELOW_MGDL,
} from "@/lib/metrics/constants";
import { durationText } from "@/lib/reports/episodes-view";
import { formatDisplayTime, formatDuration } from "@/lib/trace/format";

/**
 * The overview's lows at a glance: "Lows in the last 14 days: 6, 2 at night, average 35 min",
 * with the level 2 and extended ones and the highs in a line each, the period named on the
 * receiver's clock, and every kind in a table on demand.
 */
export function EpisodesPanel({
  episodes,
  period,
  unit,
}: {
  episodes: OverviewEpisodes | null;
  /** The summary window named on the receiver's clock ("14 days to Sat 14 Nov"). */
  period: string;
  unit: GlucoseUnit;
}) {
  if (episodes === null) return <p>No readings in the {period}.</p>;
  const periodNote = (
    <p className="text-xs text-slate-700 dark:text-slate-300" data-testid="episodes-period">
      {formatDisplayTime(episodes.firstDisplayTime)} to {formatDisplayTime(episodes.lastDisplayTime)}, the
      receiver&apos;s clock; night is 00:00–06:00.
    </p>
  );
  const { view } = episodes;
  if (view === null) {
    return (
      <>
        <p>The readings are too far apart (more than 45 minutes) to count lows and highs.</p>
        {periodNote}
      </>
    );
  }
  const { lows, highs } = view;
  const g = (mgdl: number) => mgdlText(mgdl, unit);
  return (
    <>
      <p className="text-lg" data-testid="episodes-lows">
        {lows.count === 0 ? (
          <>
            <span className="font-semibold">No lows</span> in the {period}.
          </>
        ) : (
          <>
            Lows in the {period}: <span className="font-semibold">{lows.count}</span>,{" "}
            <span className="font-semibold">{lows.atNight}</span> at night, average{" "}
            <span className="font-semibold">{durationText(lows.meanDurationMinutes)}</span>.
          </>
        )}
      </p>
      {lows.count > 0 && (
        <ul className="list-disc space-y-0.5 pl-5 text-sm" data-testid="episodes-details">
          <li>
            {lows.veryLow === 0
              ? `None went below ${g(VERY_LOW_BELOW_MGDL)}.`
              : `${lows.veryLow} went below ${g(VERY_LOW_BELOW_MGDL)} (level 2).`}
          </li>
          {lows.extended > 0 && (
            <li>
              {lows.extended} lasted over {formatDuration(EXTENDED_HYPO_MINUTES)} below {g(LOW_BELOW_MGDL)}.
            </li>
          )}
        </ul>
      )}
      <p className="text-sm" data-testid="episodes-highs">
        Highs above {g(IN_RANGE_MAX_MGDL)}:{" "}
        {highs.count === 0 ? (
          "none"
        ) : (
          <>
            {highs.count}, average {durationText(highs.meanDurationMinutes)}; {highs.veryHigh} above{" "}
            {g(HIGH_MAX_MGDL)}
          </>
        )}
        .
      </p>
      {periodNote}
      <details className="text-sm">
        <summary className="cursor-pointer font-medium underline">Every kind of episode</summary>
        <div className="mt-2">
          <EpisodesTable
            view={view}
            unit={unit}
            caption="Episodes of 15 minutes or more beyond a limit, ended by 15 minutes back"
          />
        </div>
      </details>
    </>
  );
}
