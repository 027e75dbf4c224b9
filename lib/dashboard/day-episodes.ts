import { MS_PER_DAY, parseDateTime } from "@/lib/cgm/datetime";
import type { GlucoseUnit } from "@/lib/cgm/units";
import {
  type ClockGlucose,
  cgmEpisodes,
  EPISODE_KINDS,
  type EpisodeKind,
  startsAtNight,
} from "@/lib/metrics/episodes";
import { durationText, episodeKindName, HYPO_KINDS, meanGlucoseText } from "@/lib/reports/episodes-view";
import { wallClockLabel } from "@/lib/trace/format";

/**
 * The CGM episodes of one day of the receiver's clock, for the daily view. They are computed
 * (lib/metrics/episodes.ts, as iglu does) on every reading fetched for the day, which holds hours
 * of context on both sides (day-model.ts `EPISODE_CONTEXT_MS`), not on the day's readings alone:
 * cut at midnight, a low from 23:50 to 00:20 would be two lows of 10 and 20 minutes, the first
 * too short to count, and one that began the evening before would start at 00:00. The day lists
 * every episode that has a point on it, with its true start and end.
 */

export interface DayEpisode {
  kind: EpisodeKind;
  name: string;
  /** Receiver's clock, "23:50"; with the day ("Sat 31 Oct 23:50") when it is not this day. */
  start: string;
  end: string;
  durationText: string;
  meanGlucoseText: string;
  /** The lowest reading of a low, the highest of a high: "48 mg/dL", "LOW", "HIGH" (as a mean is written). */
  extremeLabel: "lowest" | "highest";
  extremeText: string | null;
  atNight: boolean;
}

/** A clock time on the naive axis; the day too when it is not `dayStartMs`'s. */
function clockText(ms: number, dayStartMs: number): string {
  const hhmm = wallClockLabel(ms, 0, 0);
  if (ms >= dayStartMs && ms < dayStartMs + MS_PER_DAY) return hhmm;
  return `${wallClockLabel(ms, 0, 3 * MS_PER_DAY)} ${hhmm}`;
}

/**
 * The episodes of the readings fetched for `day` (lib/cgm/reading.ts). Null where the readings are
 * too sparse for episodes (more than 45 minutes apart).
 */
export function dayEpisodes(
  day: string,
  readings: readonly ClockGlucose[],
  unit: GlucoseUnit,
): DayEpisode[] | null {
  const dayStartMs = parseDateTime(`${day}T00:00:00`);
  if (dayStartMs === null) return [];
  const cgm = cgmEpisodes(readings);
  if (cgm === null) return null;
  const dayEndMs = dayStartMs + MS_PER_DAY;
  const out: Array<DayEpisode & { startMs: number; order: number }> = [];
  EPISODE_KINDS.forEach((kind, order) => {
    const hypo = HYPO_KINDS.includes(kind);
    for (const e of cgm.lists[kind]) {
      if (e.endMs < dayStartMs || e.startMs >= dayEndMs) continue;
      // The episode's readings themselves (its grid may interpolate between them).
      const inside = readings
        .filter((r) => r.displayMs >= e.startMs && r.displayMs <= e.endMs)
        .map((r) => r.mgdl);
      const extreme = inside.length === 0 ? null : hypo ? Math.min(...inside) : Math.max(...inside);
      out.push({
        kind,
        name: episodeKindName(kind),
        start: clockText(e.startMs, dayStartMs),
        end: clockText(e.endMs, dayStartMs),
        durationText: durationText(e.durationMinutes),
        meanGlucoseText: meanGlucoseText(e.meanGlucose, unit),
        extremeLabel: hypo ? "lowest" : "highest",
        extremeText: extreme === null ? null : meanGlucoseText(extreme, unit),
        atNight: hypo && startsAtNight(e.startMs),
        startMs: e.startMs,
        order,
      });
    }
  });
  return out
    .sort((a, b) => a.startMs - b.startMs || a.order - b.order)
    .map(({ startMs: _, order: __, ...episode }) => episode);
}
