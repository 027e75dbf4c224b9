import { MS_PER_DAY, parseDateTime } from "@/lib/cgm/datetime";
import { type ClockGlucose, cgmEpisodes } from "@/lib/metrics/episodes";
import { dayOf } from "./daily";

/**
 * The period the clinic's population view measures, and the level 2 hypoglycaemia episodes the
 * sync counts over it (stored in synced_episodes by episodes-store.ts). Pure. Here, below the
 * clinic, because the sync counts what the view shows: the view (lib/clinic/views/population-model.ts)
 * reads the period and the stored count from here, and the sync needs nothing of the view.
 *
 * "The last 14 days": the 14 calendar days, on the patient's own clock, that end with the
 * patient's today, today included as far as it has gone (population-model.ts says more).
 */

export const PERIOD_DAYS = 14;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The current period's days and the window sensor use is counted over, on the patient's clock. */
export function periodOf(nowMs: number, clockOffsetMs: number) {
  const localNow = nowMs + clockOffsetMs;
  const todayStart = Math.floor(localNow / MS_PER_DAY) * MS_PER_DAY;
  const firstStart = todayStart - (PERIOD_DAYS - 1) * MS_PER_DAY;
  return {
    firstDay: isoDay(firstStart),
    lastDay: isoDay(todayStart),
    previousFirstDay: isoDay(firstStart - PERIOD_DAYS * MS_PER_DAY),
    sensorWindow: { startMs: firstStart, endMs: localNow },
  };
}

/**
 * The level 2 hypoglycaemia episodes of a period, as the sync stores them (synced_episodes): the
 * period's days, the readings counted, and iglu's count and rate (lib/metrics/episodes.ts).
 */
export interface PeriodEpisodes {
  firstDay: string;
  lastDay: string;
  nValues: number;
  /** Null where iglu stops (readings more than 45 minutes apart at the median). */
  hypoLevel2Count: number | null;
  /** Per day of valid sensor time: the summary API's `perDay`. */
  hypoLevel2PerDay: number | null;
  validGridMinutes: number | null;
}

/** A synced reading as the episode count needs it. */
export interface EpisodeReading {
  displayTime: string;
  /** The metric value (synced_egvs.metric_mgdl: mg/dL, sentinels 39 and 401). */
  metricMgdl: number;
}

/**
 * The level 2 hypoglycaemia episodes of the readings whose day (displayTime date) is in the
 * period, by `cgmEpisodes`, the computation of the summary API and the AGP: the same readings in
 * the same order (systemTime, which the caller's rows must be in) give the same count and rate.
 * Readings of other days are left out here, whatever the caller passed.
 */
export function periodEpisodes(
  rows: readonly EpisodeReading[],
  period: { firstDay: string; lastDay: string },
): PeriodEpisodes {
  const readings: ClockGlucose[] = [];
  for (const r of rows) {
    const day = dayOf(r.displayTime);
    const displayMs = parseDateTime(r.displayTime);
    if (day < period.firstDay || day > period.lastDay || displayMs === null) continue;
    readings.push({ displayMs, mgdl: r.metricMgdl });
  }
  const cgm = cgmEpisodes(readings);
  const level2 = cgm?.episodes.hypoLevel2;
  return {
    firstDay: period.firstDay,
    lastDay: period.lastDay,
    nValues: readings.length,
    hypoLevel2Count: level2?.count ?? null,
    hypoLevel2PerDay: level2?.perDay ?? null,
    validGridMinutes: cgm?.validGridMinutes ?? null,
  };
}
