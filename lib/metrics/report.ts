import { coefficientOfVariation, mean, standardDeviation } from "./descriptive";
import {
  type CgmEpisodes,
  type ClockGlucose,
  cgmEpisodes,
  EPISODE_KINDS,
  type EpisodeKind,
  type EpisodeStats,
} from "./episodes";
import { gmi } from "./gmi";
import { type GlycemiaRiskIndex, type GriZone, glycemiaRiskIndex, griZone } from "./gri";
import { hbgi, lbgi } from "./risk-index";
import { sensorActivePercent } from "./sensor";
import { type PerConsensusRange, timeInRanges, timeInTightRange } from "./time-in-ranges";

/**
 * The consensus metrics of one report period, each by the definition of its own module:
 * nValues (readings in the window), sensorActivePercent (sensor.ts), mean, sd (population) and cv
 * (descriptive.ts), gmi (gmi.ts), timeInRanges in percent of readings (time-in-ranges.ts), gri with
 * its components and zone (gri.ts), lbgi and hbgi (risk-index.ts), timeInTightRange (70–140 mg/dL,
 * time-in-ranges.ts). Values are mg/dL with the sentinels as
 * 39 and 401 (`metricValueMgdl`); gaps simply contribute no readings, so they lower sensor use and
 * nothing else. A period without readings has nValues 0 and every other metric null except
 * sensorActivePercent (0).
 */
export interface ReportMetrics {
  nValues: number;
  sensorActivePercent: number | null;
  mean: number | null;
  sd: number | null;
  cv: number | null;
  gmi: number | null;
  timeInRanges: PerConsensusRange<number> | null;
  /** Percent of readings from 70 to 140 mg/dL inclusive. */
  timeInTightRange: number | null;
  gri: number | null;
  griHypo: number | null;
  griHyper: number | null;
  griZone: GriZone | null;
  lbgi: number | null;
  hbgi: number | null;
}

export function reportMetrics(valuesMgdl: readonly number[], startMs: number, endMs: number): ReportMetrics {
  const m = mean(valuesMgdl);
  const percentages = timeInRanges(valuesMgdl).percentages;
  const risk = percentages === null ? null : glycemiaRiskIndex(percentages);
  return {
    nValues: valuesMgdl.length,
    sensorActivePercent: sensorActivePercent(valuesMgdl.length, startMs, endMs),
    mean: m,
    sd: standardDeviation(valuesMgdl),
    cv: coefficientOfVariation(valuesMgdl),
    gmi: gmi(m),
    timeInRanges: percentages,
    timeInTightRange: timeInTightRange(valuesMgdl),
    gri: risk?.gri ?? null,
    griHypo: risk?.hypoComponent ?? null,
    griHyper: risk?.hyperComponent ?? null,
    griZone: risk?.zone ?? null,
    lbgi: lbgi(valuesMgdl),
    hbgi: hbgi(valuesMgdl),
  };
}

/** The GRI of a period's metrics as one value with its zone again (null: no readings). */
export function reportGri(m: Pick<ReportMetrics, "gri" | "griHypo" | "griHyper">): GlycemiaRiskIndex | null {
  if (m.gri === null || m.griHypo === null || m.griHyper === null) return null;
  return { gri: m.gri, hypoComponent: m.griHypo, hyperComponent: m.griHyper, zone: griZone(m.gri) };
}

/** The five episode kinds' statistics, as the summary API answers them. */
export type EpisodeSummary = Record<EpisodeKind, EpisodeStats>;

/**
 * The metrics of a period whose readings carry their time on the patient's clock: the report
 * metrics and the CGM episodes of the 2023 consensus (episodes.ts, iglu's `episode_calculation`).
 * `episodes` is null where iglu stops with an error (readings more than 45 minutes apart at the
 * median), not a row of zeros that would read "no lows".
 */
export interface PeriodMetrics extends ReportMetrics {
  episodes: EpisodeSummary | null;
}

/** The API's per-kind statistics of an episode computation (`cgmEpisodes`), in kind order. */
export function episodeSummary(cgm: CgmEpisodes | null): EpisodeSummary | null {
  if (cgm === null) return null;
  return Object.fromEntries(EPISODE_KINDS.map((k) => [k, { ...cgm.episodes[k] }])) as EpisodeSummary;
}

/**
 * `reportMetrics` of the readings' values plus their episodes. A page that also lists the
 * episodes or shows the night share passes the `cgmEpisodes` it already computed.
 */
export function periodMetrics(
  readings: readonly ClockGlucose[],
  startMs: number,
  endMs: number,
  cgm: CgmEpisodes | null = cgmEpisodes(readings),
): PeriodMetrics {
  return {
    ...reportMetrics(
      readings.map((r) => r.mgdl),
      startMs,
      endMs,
    ),
    episodes: episodeSummary(cgm),
  };
}
