import { RecordTable } from "@/components/records/RecordTable";
import type { DayEpisode } from "@/lib/dashboard/day-episodes";

/**
 * The day's CGM episodes, in start order, times on the receiver's clock. Below 480 px each episode
 * stacks over its labelled times and values (stack-narrow, app/globals.css).
 */
export function DayEpisodes({ episodes }: { episodes: DayEpisode[] | null }) {
  if (episodes === null) {
    return <p>The readings are too far apart (more than 45 minutes) to count lows and highs.</p>;
  }
  if (episodes.length === 0) {
    return <p data-testid="day-episodes-none">No lows or highs of 15 minutes or more on this day.</p>;
  }
  return (
    <RecordTable
      caption="Episodes of 15 minutes or more beyond a limit, with a point on this day; times on the receiver's clock (night is 00:00–06:00). A level 2 low lies inside a level 1 low and is listed too."
      label="Episodes of this day"
      fitWidth
      testId="day-episodes"
    >
      <thead>
        <tr className="border-b border-slate-300 dark:border-slate-700">
          <th scope="col" className="py-1 pr-2 font-medium">
            Episode
          </th>
          <th scope="col" className="py-1 pr-2 font-medium">
            From–to
          </th>
          <th scope="col" className="py-1 pr-2 text-right font-medium">
            Duration
          </th>
          <th scope="col" className="py-1 pr-2 text-right font-medium">
            Lowest or highest
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Mean
          </th>
        </tr>
      </thead>
      <tbody>
        {episodes.map((e) => (
          <tr
            key={`${e.kind}-${e.start}`}
            data-kind={e.kind}
            className="border-b border-slate-200 last:border-0 dark:border-slate-800"
          >
            <th scope="row" className="py-1 pr-2 font-medium">
              {e.name}
              {e.atNight && <span className="font-normal"> (at night)</span>}
            </th>
            <td data-label="From–to" className="py-1 pr-2 tabular-nums">
              {e.start}–{e.end}
            </td>
            <td data-label="Duration" className="py-1 pr-2 text-right tabular-nums">
              {e.durationText}
            </td>
            <td data-label="Lowest or highest" className="py-1 pr-2 text-right tabular-nums">
              {e.extremeText === null ? "—" : `${e.extremeLabel} ${e.extremeText}`}
            </td>
            <td data-label="Mean" className="py-1 text-right tabular-nums">
              {e.meanGlucoseText}
            </td>
          </tr>
        ))}
      </tbody>
    </RecordTable>
  );
}
