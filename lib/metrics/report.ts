import { coefficientOfVariation, mean, standardDeviation } from "./descriptive";
import { gmi } from "./gmi";
import { type GlycemiaRiskIndex, glycemiaRiskIndex, griZone } from "./gri";
import { hbgi, lbgi } from "./risk-index";
import { sensorActivePercent } from "./sensor";
import { type PerConsensusRange, timeInRanges } from "./time-in-ranges";

/**
 * The consensus metrics of one report period, each by the definition of its own module:
 * nValues (readings in the window), sensorActivePercent (sensor.ts), mean, sd (population) and cv
 * (descriptive.ts), gmi (gmi.ts), timeInRanges in percent of readings (time-in-ranges.ts), gri with
 * its components (gri.ts), lbgi and hbgi (risk-index.ts). Values are mg/dL with the sentinels as
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
  gri: number | null;
  griHypo: number | null;
  griHyper: number | null;
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
    gri: risk?.gri ?? null,
    griHypo: risk?.hypoComponent ?? null,
    griHyper: risk?.hyperComponent ?? null,
    lbgi: lbgi(valuesMgdl),
    hbgi: hbgi(valuesMgdl),
  };
}

/** The GRI of a period's metrics as one value with its zone again (null: no readings). */
export function reportGri(m: Pick<ReportMetrics, "gri" | "griHypo" | "griHyper">): GlycemiaRiskIndex | null {
  if (m.gri === null || m.griHypo === null || m.griHyper === null) return null;
  return { gri: m.gri, hypoComponent: m.griHypo, hyperComponent: m.griHyper, zone: griZone(m.gri) };
}
