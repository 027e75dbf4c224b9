import { formatMgdlIn, glucoseText, mgdlText } from "@/lib/cgm/glucose-text";
import { convertGlucose, type GlucoseUnit } from "@/lib/cgm/units";
import {
  EXTENDED_HYPO_MINUTES,
  HIGH_MAX_MGDL,
  IN_RANGE_MAX_MGDL,
  LOW_BELOW_MGDL,
  VERY_LOW_BELOW_MGDL,
} from "@/lib/metrics/constants";
import {
  type CgmEpisodes,
  EPISODE_KINDS,
  type Episode,
  type EpisodeKind,
  startsAtNight,
} from "@/lib/metrics/episodes";
import { formatDuration, formatPercent } from "@/lib/trace/format";

/**
 * The CGM episodes (lib/metrics/episodes.ts) as pages show them, in the unit on screen: a row per
 * kind for the episodes table (AGP, overview) and the few numbers of the overview's "lows"
 * sentence. A mean glucose at or beyond the sensor's limits reads LOW or HIGH, like a reading.
 */

export const HYPO_KINDS: readonly EpisodeKind[] = ["hypoLevel1", "hypoLevel2", "hypoExtended"];

export interface EpisodeRow {
  kind: EpisodeKind;
  /** "Level 1 low", "Level 2 high" … */
  name: string;
  /** The rule in the unit on screen: "below 70 mg/dL for 15 min or more". */
  rule: string;
  /** The rule as the printed AGP's narrow table gives it, its unit in the header: "<70", "<70 over 2 h". */
  shortRule: string;
  count: number;
  /** Episodes per day of valid sensor time, as text ("0.43"). */
  perDayText: string;
  /** "35 min"; null without episodes. */
  meanDurationText: string | null;
  /** "52 mg/dL", "LOW"; null without episodes. */
  meanGlucoseText: string | null;
  /** Hypoglycaemia kinds: the episodes starting 00:00–06:00 on the patient's clock; null for highs. */
  atNight: number | null;
}

export interface EpisodesView {
  rows: EpisodeRow[];
  /** Level 1 lows (level 2 included), the overview's sentence. */
  lows: {
    count: number;
    atNight: number;
    /** atNight as a share of count (iglu-style night hypoglycaemia), percent; null without lows. */
    atNightPercent: number | null;
    meanDurationMinutes: number;
    veryLow: number;
    extended: number;
  };
  highs: { count: number; meanDurationMinutes: number; veryHigh: number };
}

/** A mean glucose (mg/dL) in the unit on screen, LOW or HIGH beyond the sensor's range. */
export function meanGlucoseText(mgdl: number, unit: GlucoseUnit): string {
  return glucoseText(convertGlucose(mgdl, "mg/dL", unit), unit);
}

/** Minutes as a duration, whole minutes (a mean of 3 episodes may be 23.33 minutes). */
export const durationText = (minutes: number) => formatDuration(Math.round(minutes));

export function episodeKindName(kind: EpisodeKind): string {
  return {
    hypoLevel1: "Level 1 low",
    hypoLevel2: "Level 2 low",
    hypoExtended: "Extended low",
    hyperLevel1: "Level 1 high",
    hyperLevel2: "Level 2 high",
  }[kind];
}

export function episodeRule(kind: EpisodeKind, unit: GlucoseUnit): string {
  const g = (mgdl: number) => mgdlText(mgdl, unit);
  switch (kind) {
    case "hypoLevel1":
      return `below ${g(LOW_BELOW_MGDL)} for 15 min or more`;
    case "hypoLevel2":
      return `below ${g(VERY_LOW_BELOW_MGDL)} for 15 min or more`;
    case "hypoExtended":
      return `below ${g(LOW_BELOW_MGDL)} for over ${formatDuration(EXTENDED_HYPO_MINUTES)}`;
    case "hyperLevel1":
      return `above ${g(IN_RANGE_MAX_MGDL)} for 15 min or more`;
    case "hyperLevel2":
      return `above ${g(HIGH_MAX_MGDL)} for 15 min or more`;
  }
}

/** The limit of each kind, in the unit on screen without its name: "<70", ">250", "<70 over 2 h". */
export function episodeShortRule(kind: EpisodeKind, unit: GlucoseUnit): string {
  const g = (mgdl: number) => formatMgdlIn(mgdl, unit);
  switch (kind) {
    case "hypoLevel1":
      return `<${g(LOW_BELOW_MGDL)}`;
    case "hypoLevel2":
      return `<${g(VERY_LOW_BELOW_MGDL)}`;
    case "hypoExtended":
      return `<${g(LOW_BELOW_MGDL)} over ${formatDuration(EXTENDED_HYPO_MINUTES)}`;
    case "hyperLevel1":
      return `>${g(IN_RANGE_MAX_MGDL)}`;
    case "hyperLevel2":
      return `>${g(HIGH_MAX_MGDL)}`;
  }
}

/**
 * The night share of the lows in words: "12 of 27 lows (44%) started at night"; null without
 * lows. The share is of level 1 lows (level 2 ones included), as `nightHypoglycaemia` counts it.
 */
export function lowsAtNightText(lows: EpisodesView["lows"]): string | null {
  if (lows.count === 0 || lows.atNightPercent === null) return null;
  const noun = lows.count === 1 ? "low" : "lows";
  // A share of none is no news in a percent ("0.0%" would suggest a rounded small share).
  const share = lows.atNight === 0 ? "" : ` (${formatPercent(lows.atNightPercent)})`;
  return `${lows.atNight} of ${lows.count} ${noun}${share} started at night`;
}

const nightCount = (list: readonly Episode[]) => list.filter((e) => startsAtNight(e.startMs)).length;

/** Null where no episodes can be computed (readings too sparse: more than 45 minutes apart). */
export function episodesView(cgm: CgmEpisodes | null, unit: GlucoseUnit): EpisodesView | null {
  if (cgm === null) return null;
  const rows = EPISODE_KINDS.map((kind): EpisodeRow => {
    const s = cgm.episodes[kind];
    return {
      kind,
      name: episodeKindName(kind),
      rule: episodeRule(kind, unit),
      shortRule: episodeShortRule(kind, unit),
      count: s.count,
      perDayText: s.perDay.toFixed(2),
      meanDurationText: s.count === 0 ? null : durationText(s.meanDurationMinutes),
      meanGlucoseText: s.meanGlucose === null ? null : meanGlucoseText(s.meanGlucose, unit),
      atNight: HYPO_KINDS.includes(kind) ? nightCount(cgm.lists[kind]) : null,
    };
  });
  const e = cgm.episodes;
  return {
    rows,
    lows: {
      count: e.hypoLevel1.count,
      atNight: cgm.nightHypo.count,
      atNightPercent: cgm.nightHypo.percent,
      meanDurationMinutes: e.hypoLevel1.meanDurationMinutes,
      veryLow: e.hypoLevel2.count,
      extended: e.hypoExtended.count,
    },
    highs: {
      count: e.hyperLevel1.count,
      meanDurationMinutes: e.hyperLevel1.meanDurationMinutes,
      veryHigh: e.hyperLevel2.count,
    },
  };
}
